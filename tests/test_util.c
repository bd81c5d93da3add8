/* test_util.c: helpers shared by the Check suites. */
#define _POSIX_C_SOURCE 200809L /* access */
#include "test_util.h"

#include "clustersim/config/sweep.h"
#include "clustersim/models/scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cs_gpu_spec cs_test_h100_spec(void)
{
    struct cs_gpu_spec g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "H100-SXM5-80GB");
    for (int i = 0; i < CS_PREC_COUNT; i++)
        g.peak_flops[i] = NAN;
    g.peak_flops[CS_PREC_BF16] = 989e12;
    g.peak_flops[CS_PREC_FP16] = 989e12;
    g.peak_flops[CS_PREC_FP8] = 1979e12;
    g.hbm_bytes = 80e9;
    g.hbm_bw_bytes_per_s = 3.35e12;
    g.mamf_bf16_flops = 794.5e12;
    g.gemm_dim_half = NAN;
    g.flash_attn_frac = NAN;
    g.flash2_over_cudnn = NAN;
    g.host_speed = NAN;
    g.pcie_gen = 5;
    g.server_gpus = 8;
    return g;
}

const char *cs_test_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("CS_SOURCE_DIR");
    if (!root || !*root)
        root = CLUSTERSIM_SOURCE_DIR;
    snprintf(buf, sizeof buf, "%s/%s", root, rel);
    return buf;
}

const char *cs_test_data(const char *rel)
{
    const char *p = cs_test_path(rel);
    if (access(p, R_OK) != 0)
        ck_abort_msg("data file missing or unreadable: %s (%s); it is part of the repository, "
                     "restore it with git checkout", rel, p);
    return p;
}

int cs_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void cs_test_overrides(const char *const *sets, int n, struct cs_cfg_override *ov, char **paths)
{
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(sets[i], '=');
        ck_assert_msg(eq != NULL, "override \"%s\" has no '='", sets[i]);
        paths[i] = strndup(sets[i], (size_t)(eq - sets[i]));
        ov[i] = (struct cs_cfg_override){paths[i], eq + 1, "test", 0, 0};
    }
}

void cs_test_overrides_free(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
}

void cs_test_run_scenario(struct cs_scenario *s, unsigned seed, int nodes, int gpn)
{
    memset(s, 0, sizeof *s);
    s->seed = seed;
    s->cluster.nodes = nodes;
    s->cluster.gpus_per_node = gpn;
    s->cluster.gpu.pcie_gen = 5;
    s->cluster.cpu_cores_per_node = 112;
    s->cluster.host_memory_bytes = 2e12;
    s->cluster.storage.n_tiers = 1;
    struct cs_storage_spec *t = &s->cluster.storage.tiers[0];
    strcpy(t->name, "pfs1");
    t->kind = CS_STORAGE_PFS;
    t->read_bw_bytes_per_s = t->write_bw_bytes_per_s = 8e9;
    t->aggregate_bw_bytes_per_s = NAN;
    s->has_workload = true;
    s->workload.model.layers = 1;
    s->workload.model.hidden = 1024;
    s->workload.model.heads = 8;
    s->workload.model.kv_heads = 8;
    s->workload.model.ffn_hidden = 4096;
    s->workload.model.vocab = 1000;
    s->workload.model.seq_len = 1000;
    s->workload.par = (struct cs_parallel){.tp = gpn, .pp = 1, .dp = nodes, .cp = 1, .vp = 1};
    s->workload.global_batch = nodes;
    s->workload.micro_batch = 1;
    s->workload.tokens = NAN;
    s->failures.spares = -1;
    s->failures.repair_s = 86400;
    s->checkpoint.size_bytes = NAN;
    s->checkpoint.snapshot_bw_bytes_per_s = NAN;
    s->run.replicas = 1;
}
