/* check_storage.c: tests of models/storage.c: max-min rates by progressive
 * filling, the transfer simulation, and tier transfer times (values by
 * hand in the comments). */
#include "clustersim/models/storage.h"
#include "test_util.h"

#include <math.h>
#include <string.h>

static struct cs_io_flow flow(double bytes, double start, int r0, int r1)
{
    struct cs_io_flow f;
    memset(&f, 0, sizeof f);
    f.bytes = bytes;
    f.start_s = start;
    f.res[f.n_res++] = r0;
    if (r1 >= 0)
        f.res[f.n_res++] = r1;
    return f;
}

/* Resource 0 (capacity 30) shared by three flows; flow 0 also crosses
 * resource 1 (capacity 5). Max-min: flow 0 gets 5, the others split the
 * remaining 25: 12.5 each. Without the private cap: 10 each. */
START_TEST(test_storage_maxmin_rates)
{
    double cap[2] = {30, 5};
    struct cs_io_flow f[3] = {flow(1, 0, 0, 1), flow(1, 0, 0, -1), flow(1, 0, 0, -1)};
    bool active[3] = {true, true, true};
    double rate[3];
    cs_io_maxmin(cap, 2, f, active, 3, rate);
    ck_assert_double_eq_tol(rate[0], 5, 1e-9);
    ck_assert_double_eq_tol(rate[1], 12.5, 1e-9);
    ck_assert_double_eq_tol(rate[2], 12.5, 1e-9);
    cap[1] = 100;
    cs_io_maxmin(cap, 2, f, active, 3, rate);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(rate[i], 10, 1e-9);
    active[1] = false;
    cs_io_maxmin(cap, 2, f, active, 3, rate);
    ck_assert_double_eq(rate[1], 0);
    ck_assert_double_eq_tol(rate[0], 15, 1e-9);
}
END_TEST

/* Two flows of 10 and 30 bytes on a 10 B/s resource: 5 B/s each until the
 * first ends at t = 2; the second has 20 left at 10 B/s: ends at t = 4. A
 * third flow of 10 bytes starting at t = 4 alone ends at t = 5. */
START_TEST(test_storage_simulate_sharing)
{
    double cap[1] = {10};
    struct cs_io_flow f[3] = {flow(10, 0, 0, -1), flow(30, 0, 0, -1), flow(10, 4, 0, -1)};
    ck_assert_int_eq(cs_io_simulate(cap, 1, f, 3), CS_OK);
    ck_assert_double_eq_tol(f[0].finish_s, 2, 1e-9);
    ck_assert_double_eq_tol(f[1].finish_s, 4, 1e-9);
    ck_assert_double_eq_tol(f[2].finish_s, 5, 1e-9);
    f[0].res[0] = 3;
    ck_assert_int_eq(cs_io_simulate(cap, 1, f, 3), CS_EINVAL);
}
END_TEST

/* NVMe RAID-0: 8 drives x 5.6 GB/s = 44.8 GB/s per node; 100 GB per node
 * takes 2.2321 s + 100 us, whatever the node count (no shared resource). */
START_TEST(test_storage_nvme_raid0)
{
    struct cs_storage_spec t;
    memset(&t, 0, sizeof t);
    t.kind = CS_STORAGE_NVME;
    t.write_bw_bytes_per_s = 5.6e9;
    t.read_bw_bytes_per_s = 6.8e9;
    t.devices_per_node = 8;
    t.latency_s = 100e-6;
    t.aggregate_bw_bytes_per_s = NAN;
    ck_assert_double_eq_tol(cs_storage_node_bw(&t, true), 44.8e9, 1);
    double s;
    ck_assert_int_eq(cs_storage_transfer_s(&t, true, 16, 100e9, INFINITY, &s), CS_OK);
    ck_assert_double_eq_tol(s, 100e9 / 44.8e9 + 100e-6, 1e-9);
    ck_assert(!cs_storage_remote(&t));
}
END_TEST

/* A PFS with 8 GB/s per client and 40 GB/s aggregate: 10 nodes share it at
 * 4 GB/s each, so 40 GB per node takes 10 s (+1 ms). With 2 nodes each
 * gets its client cap 8 GB/s: 5 s. A 2 GB/s NIC share caps it: 20 s. */
START_TEST(test_storage_pfs_aggregate_and_nic)
{
    struct cs_storage_spec t;
    memset(&t, 0, sizeof t);
    t.kind = CS_STORAGE_PFS;
    t.write_bw_bytes_per_s = 8e9;
    t.read_bw_bytes_per_s = 8e9;
    t.aggregate_bw_bytes_per_s = 40e9;
    t.latency_s = 1e-3;
    double s;
    ck_assert_int_eq(cs_storage_transfer_s(&t, true, 10, 40e9, INFINITY, &s), CS_OK);
    ck_assert_double_eq_tol(s, 10.001, 1e-6);
    ck_assert_int_eq(cs_storage_transfer_s(&t, true, 2, 40e9, INFINITY, &s), CS_OK);
    ck_assert_double_eq_tol(s, 5.001, 1e-6);
    ck_assert_int_eq(cs_storage_transfer_s(&t, false, 2, 40e9, 2e9, &s), CS_OK);
    ck_assert_double_eq_tol(s, 20.001, 1e-6);
    t.write_bw_bytes_per_s = NAN;
    ck_assert_int_eq(cs_storage_transfer_s(&t, true, 2, 40e9, INFINITY, &s), CS_EINVAL);
}
END_TEST

START_TEST(test_storage_find_by_name_or_kind)
{
    struct cs_storage_cfg c;
    memset(&c, 0, sizeof c);
    c.n_tiers = 2;
    strcpy(c.tiers[0].name, "nvme-gen4");
    c.tiers[0].kind = CS_STORAGE_NVME;
    strcpy(c.tiers[1].name, "s3");
    c.tiers[1].kind = CS_STORAGE_OBJECT;
    ck_assert_ptr_eq(cs_storage_find(&c, "s3"), &c.tiers[1]);
    ck_assert_ptr_eq(cs_storage_find(&c, "object"), &c.tiers[1]);
    ck_assert_ptr_eq(cs_storage_find(&c, ""), &c.tiers[0]);
    ck_assert_ptr_null(cs_storage_find(&c, "pfs"));
}
END_TEST

static Suite *storage_suite(void)
{
    Suite *s = suite_create("storage");
    TCase *tc = tcase_create("sharing");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_storage_maxmin_rates);
    tcase_add_test(tc, test_storage_simulate_sharing);
    tcase_add_test(tc, test_storage_nvme_raid0);
    tcase_add_test(tc, test_storage_pfs_aggregate_and_nic);
    tcase_add_test(tc, test_storage_find_by_name_or_kind);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(storage_suite()); }
