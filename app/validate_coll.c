/* validate_coll.c: the collective model against the published logs of the
 * validation index (validate_coll.h). */
#include "clustersim/app/validate_coll.h"

#include "clustersim/app/collective_exp.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/calib_io.h"
#include "clustersim/config/config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Element size of an nccl-tests data type name; 4 (float) when unknown. */
static int cs__elem_bytes(const char *dtype)
{
    static const struct {
        const char *name;
        int bytes;
    } t[] = {{"int8", 1},   {"uint8", 1},  {"fp8_e4m3", 1}, {"fp8_e5m2", 1}, {"half", 2},
             {"bfloat16", 2}, {"float", 4}, {"int32", 4},    {"uint32", 4},   {"double", 8},
             {"int64", 8},  {"uint64", 8}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(dtype, t[i].name) == 0)
            return t[i].bytes;
    return 4;
}

/* The first error of d, copied (file, line, column and message) into the
 * file's own list, or the fallback when d has none. */
static void cs__first_error(const cs_diags *d, cs_diags *out, const char *fallback)
{
    const struct cs_diag *dg = cs_diags_first_error(d);
    if (dg)
        cs_diag_error(out, dg->file, dg->line, dg->col, "%s", dg->msg);
    else
        cs_diag_error(out, NULL, 0, 0, "%s", fallback);
}

/* One comma-separated NCCL list (case-insensitive, as NCCL reads it) into a
 * bit mask over names[]; false on a name it does not know. */
static bool cs__name_mask(const char *list, size_t len, const char *const *names, const int *bits, size_t n,
                          unsigned *mask)
{
    *mask = 0;
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && list[j] != ',')
            j++;
        bool found = false;
        for (size_t k = 0; k < n && !found; k++)
            if (strlen(names[k]) == j - i && strncasecmp(list + i, names[k], j - i) == 0) {
                *mask |= 1u << bits[k];
                found = true;
            }
        if (!found)
            return false;
        i = j + 1;
    }
    return *mask != 0;
}

/* The index entry's nccl_env ("NCCL_ALGO=Ring,Tree NCCL_PROTO=Simple
 * NCCL_NVLS_ENABLE=0") as the model's algorithm and protocol masks. An
 * unknown variable or value is an error naming the index line. */
static bool cs__nccl_env(const char *env, const char *ixpath, int line, cs_diags *d, unsigned *algo_mask,
                         unsigned *proto_mask)
{
    static const char *const an[] = {"ring", "tree", "nvls", "nvlstree", "collnetdirect", "collnetchain", "pat"};
    static const int ab[] = {CS_COLL_RING, CS_COLL_TREE, CS_COLL_NVLS, CS_COLL_NVLS_TREE,
                             CS_COLL_SHARP, CS_COLL_COLLNET_CHAIN, CS_COLL_PAT};
    static const char *const pn[] = {"ll", "ll128", "simple"};
    static const int pb[] = {CS_COLL_PROTO_LL, CS_COLL_PROTO_LL128, CS_COLL_PROTO_SIMPLE};
    *algo_mask = *proto_mask = 0;
    bool nvls_off = false;
    const char *p = env;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq) {
            cs_diag_error(d, ixpath, line, 0, "nccl_env: \"%.*s\" is not VARIABLE=VALUE", (int)(end - p), p);
            return false;
        }
        size_t klen = (size_t)(eq - p), vlen = (size_t)(end - eq - 1);
        bool ok;
        if (klen == 9 && strncmp(p, "NCCL_ALGO", 9) == 0)
            ok = cs__name_mask(eq + 1, vlen, an, ab, sizeof an / sizeof an[0], algo_mask);
        else if (klen == 10 && strncmp(p, "NCCL_PROTO", 10) == 0)
            ok = cs__name_mask(eq + 1, vlen, pn, pb, sizeof pn / sizeof pn[0], proto_mask);
        else if (klen == 16 && strncmp(p, "NCCL_NVLS_ENABLE", 16) == 0) {
            ok = vlen == 1 && (eq[1] == '0' || eq[1] == '1');
            nvls_off = ok && eq[1] == '0';
        } else {
            cs_diag_error(d, ixpath, line, 0,
                          "nccl_env: unknown variable \"%.*s\" (expected NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE)",
                          (int)klen, p);
            return false;
        }
        if (!ok) {
            cs_diag_error(d, ixpath, line, 0,
                          "nccl_env: bad value \"%.*s\" for %.*s (NCCL_ALGO: Ring, Tree, NVLS, NVLSTree, "
                          "CollnetDirect, CollnetChain, PAT; NCCL_PROTO: LL, LL128, Simple; NCCL_NVLS_ENABLE: 0 or 1)",
                          (int)vlen, eq + 1, (int)klen, p);
            return false;
        }
        p = end;
    }
    if (nvls_off) {
        if (!*algo_mask)
            *algo_mask = ~0u;
        *algo_mask &= ~((1u << CS_COLL_NVLS) | (1u << CS_COLL_NVLS_TREE));
    }
    return true;
}

/* Compares one log with its scenario's cluster (dir: the index's). */
static void cs__compare(const cs_catalog *cat, const char *ixpath, const char *dir, struct cs_app_cval_file *f)
{
    const struct cs_val_table *vt = f->vt;
    f->st = CS_OK;
    f->worst = 0;
    cs_diags_init(&f->diags);
    enum cs_coll_op op_hint = CS_COLL_OP_COUNT;
    if (vt->op && cs_coll_op_parse(vt->op, &op_hint) != CS_OK) {
        f->st = CS_ECONFIG;
        cs_diag_error(&f->diags, vt->file, 0, 0, "op \"%s\" is not an nccl-tests operation", vt->op);
        return;
    }
    enum cs_coll_algo algo = CS_COLL_AUTO;
    bool forced = false;
    if (vt->algo) {
        if (cs_coll_algo_parse(vt->algo, &algo) != CS_OK) {
            f->st = CS_ECONFIG;
            cs_diag_error(&f->diags, vt->file, 0, 0, "algo \"%s\" is not an algorithm", vt->algo);
            return;
        }
        forced = true;
    }
    unsigned algo_mask = 0, proto_mask = 0;
    if (vt->nccl_env && !cs__nccl_env(vt->nccl_env, ixpath, vt->line, &f->diags, &algo_mask, &proto_mask)) {
        f->st = CS_ECONFIG;
        return;
    }
    char *log_path = cs_xasprintf("%s/%s", dir, vt->file);
    char *scn_path = cs_xasprintf("%s/%s", dir, vt->scenario);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    memset(&log, 0, sizeof log);
    struct cs_scenario s;
    bool have_s = false, have_log = false;
    if (cs_nccl_parse_file(log_path, op_hint, &d, &log) != CS_OK) {
        f->st = CS_ECONFIG;
        cs__first_error(&d, &f->diags, "cannot read the log");
        goto done;
    }
    have_log = true;
    if (cs_cfg_load_scenario(scn_path, cat, &d, &s, NULL) != CS_OK) {
        f->st = CS_ECONFIG;
        cs__first_error(&d, &f->diags, "cannot load the scenario");
        goto done;
    }
    have_s = true;
    for (size_t r = 0; r < log.n_runs; r++) {
        const struct cs_nccl_run *run = &log.runs[r];
        if (r == 0) {
            snprintf(f->op, sizeof f->op, "%s", cs_coll_op_name(run->op));
            f->ranks = run->ranks;
            f->nodes = run->nodes;
        }
        for (size_t k = 0; k < run->n_rows; k++) {
            const struct cs_nccl_row *row = &run->rows[k];
            double meas = row->busbw_gbps[0] > 0 ? row->busbw_gbps[0] : row->busbw_gbps[1];
            if (row->size_bytes < 1048576.0 || !(meas > 0))
                continue;
            double oop = row->busbw_gbps[0], inp = row->busbw_gbps[1];
            if (oop > 0 && inp > 0 && (oop > CS_APP_CVAL_GLITCH * inp || inp > CS_APP_CVAL_GLITCH * oop)) {
                f->excluded++;
                continue;
            }
            struct cs_app_coll_req q;
            memset(&q, 0, sizeof q);
            q.op = run->op;
            q.algo = forced ? algo : run->algo;
            q.elem_bytes = cs__elem_bytes(run->dtype);
            q.minb = q.maxb = row->size_bytes;
            q.factor = 2;
            q.algo_mask = algo_mask;
            q.proto_mask = proto_mask;
            /* The log's rank count where it prints one (device lines, or
             * nThread x nGpus); a bare table (no header at all, e.g. the
             * AWS samples) leaves it to the scenario: its cluster is the
             * one the log ran on, all of its GPUs. */
            bool told = run->n_threads > 0 || run->n_gpus > 0 || run->ranks > 1;
            q.ranks = told && run->ranks > 0 ? run->ranks : 0;
            q.ngpus = q.nthreads = 1;
            struct cs_app_coll res;
            cs_status st = cs_app_coll_setup(&s, &q, &res);
            if (st == CS_OK)
                st = cs_app_coll_run(&s, &q, &res);
            if (st != CS_OK || res.nrows < 1 || !(res.rows[0].busbw > 0)) {
                f->st = st != CS_OK ? st : CS_EINVAL;
                cs_diag_error(&f->diags, vt->file, row->line, 0, "the model cannot cost this row: %s",
                              res.diags.n ? res.diags.items[0].msg : cs_strerror(f->st));
                cs_app_coll_fini(&res);
                goto done;
            }
            if (!told) { /* the rank count the comparison used: the scenario's */
                f->ranks = res.n;
                f->nodes = res.nodes;
            }
            double err = res.rows[0].busbw / (meas * 1e9) - 1.0;
            int band = row->size_bytes >= 67108864.0 ? CS_APP_CVAL_BIG : CS_APP_CVAL_MID;
            f->rows = cs_xrealloc(f->rows, (size_t)f->nrows + 1, sizeof *f->rows);
            f->rows[f->nrows++] = (struct cs_app_cval_row){
                .line = row->line, .size_bytes = row->size_bytes, .band = band, .measured_gbps = meas,
                .predicted_gbps = res.rows[0].busbw / 1e9, .error = err, .algo = res.rows[0].algo,
                .proto = res.rows[0].proto, .has_proto = res.rows[0].has_proto};
            cs_app_coll_fini(&res);
            f->n[band]++;
            f->sum[band] += fabs(err);
            if (fabs(err) > f->worst)
                f->worst = fabs(err);
        }
    }
    if (f->n[0] + f->n[1] == 0) {
        f->st = CS_ERANGE;
        cs_diag_error(&f->diags, vt->file, 0, 0, "no row of at least 1 MiB");
    }
done:
    if (have_log)
        cs_nccl_log_fini(&log);
    if (have_s)
        cs_scenario_fini(&s);
    cs_diags_fini(&d);
    free(log_path);
    free(scn_path);
}

cs_status cs_app_validate_collectives(const cs_catalog *cat, cs_diags *d, struct cs_app_cval *out)
{
    memset(out, 0, sizeof *out);
    cs_status st = cs_valindex_load_data(d, &out->ix);
    if (st != CS_OK)
        return st;
    out->files = cs_xcalloc(out->ix.n ? out->ix.n : 1, sizeof *out->files);
    for (size_t i = 0; i < out->ix.n; i++) {
        const struct cs_val_table *vt = &out->ix.tables[i];
        if (strcmp(vt->kind, "collective") != 0)
            continue;
        struct cs_app_cval_file *f = &out->files[out->nfiles++];
        f->vt = vt;
        f->role = cs_val_role_name(vt->role);
        f->expressible = vt->not_expressible == NULL && vt->scenario != NULL;
        if (!f->expressible) {
            out->not_expressible++;
            continue;
        }
        cs__compare(cat, out->ix.path, out->ix.dir, f);
        if (f->st != CS_OK) {
            out->failed++;
            continue;
        }
        struct cs_app_cval_agg *g = &out->agg[vt->role == CS_VAL_HOLDOUT];
        g->logs++;
        g->excluded += f->excluded;
        for (int b = 0; b < CS_APP_CVAL_BANDS; b++) {
            g->n[b] += f->n[b];
            g->sum[b] += f->sum[b];
        }
    }
    return CS_OK;
}

void cs_app_cval_fini(struct cs_app_cval *r)
{
    if (!r)
        return;
    for (int i = 0; r->files && i < r->nfiles; i++) {
        cs_diags_fini(&r->files[i].diags);
        free(r->files[i].rows);
    }
    free(r->files);
    cs_valindex_fini(&r->ix);
    memset(r, 0, sizeof *r);
}

int cs_app_cval_largest(const struct cs_app_cval *r, int role, int band, int k, int *idx)
{
    if (!r || !idx || k <= 0 || role < 0 || role > 1 || band < 0 || band >= CS_APP_CVAL_BANDS)
        return 0;
    int n = 0;
    for (int i = 0; i < r->nfiles; i++) {
        const struct cs_app_cval_file *f = &r->files[i];
        if (!f->expressible || f->st != CS_OK || f->n[band] == 0 ||
            (f->vt->role == CS_VAL_HOLDOUT) != (role == 1))
            continue;
        /* insertion into the sorted top k: a later log goes after an equal one */
        int at = n;
        while (at > 0 && r->files[idx[at - 1]].sum[band] < f->sum[band])
            at--;
        if (at >= k)
            continue;
        for (int j = (n < k ? n : k - 1); j > at; j--)
            idx[j] = idx[j - 1];
        idx[at] = i;
        if (n < k)
            n++;
    }
    return n;
}
