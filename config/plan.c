/* plan.c: plan files (config layer; contract in clustersim/config/plan.h,
 * the method in docs/plan.md). The plan's own keys (deadline, budget,
 * budget_basis, candidates) are read here; every other top-level section is
 * a scenario's and is left to the scenario binder, candidate by candidate. */
#include "clustersim/config/plan.h"

#include "clustersim/base/numparse.h"
#include "clustersim/base/sha256.h"
#include "clustersim/base/suggest.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"
#include "override.h"
#include "schema.h"
#include "yamltree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_plan_basis_names[] = {"commitment", "run", NULL};

/* The plan's own top-level keys; the rest go to the scenario binder. */
static const char *const plan_keys[] = {"deadline", "budget", "budget_basis", "candidates", NULL};
static const char *const cand_keys[] = {"gpus", "nodes", "fabrics", "storage", "ownership", "cloud_offers", NULL};

struct cs_plan {
    struct cs_plan_info info;
    cs_ydoc *doc;
    cs_ydoc **vals;                 /* --set values, alive as long as root */
    char **val_files;               /* their file names (the nodes point at them) */
    size_t nvals;
    struct cs_ovl ovl;              /* the overridden tree's copies */
    const struct cs_ynode *root;    /* the plan's tree (overrides applied) */
    /* The scenario part: the root's pairs minus the plan's keys. */
    struct cs_ynode scn;
    const struct cs_ynode *gpu[CS_PLAN_MAX_GPUS];   /* a scalar name or a mapping with gpu: */
    char gpu_name[CS_PLAN_MAX_GPUS][CS_NAME_MAX];
    int nodes[CS_PLAN_MAX_NODES];
    const struct cs_ynode *nodes_at[CS_PLAN_MAX_NODES];
    const struct cs_ynode *fabric[CS_PLAN_MAX_FABRICS]; /* mappings; NULL: the base cluster's */
    char fabric_label[CS_PLAN_MAX_FABRICS][96];
    const struct cs_ynode *storage[CS_PLAN_MAX_STORAGE];   /* sequences; NULL: the base cluster's */
    char variant_label[CS_PLAN_MAX_FABRICS * CS_PLAN_MAX_STORAGE][256];
    const struct cs_ynode *cloud_offers_at;
};

static bool is_one_of(const char *k, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(k, names[i]) == 0)
            return true;
    return false;
}

static const char *scalar_or_null(const struct cs_ynode *n)
{
    return n && n->kind == CS_YNODE_SCALAR && !cs_ynode_is_null(n) ? n->scalar : NULL;
}

static bool parse_nodes_value(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    const char *s = scalar_or_null(v);
    long n = 0;
    if (!s || !cs_num_parse_long(s, 10, 1, 10000000, &n)) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "candidates.nodes: expected a whole number of nodes from 1 to 10000000, "
                      "got %s", shown);
        return false;
    }
    if (p->info.n_nodes >= CS_PLAN_MAX_NODES) {
        cs_cfg__error(d, v, "candidates.nodes: more than %d node counts; split the plan",
                      CS_PLAN_MAX_NODES);
        return false;
    }
    for (int i = 0; i < p->info.n_nodes; i++)
        if (p->nodes[i] == (int)n) {
            cs_cfg__error(d, v, "candidates.nodes: %ld is listed twice (line %d)", n,
                          p->nodes_at[i]->line);
            return false;
        }
    p->nodes_at[p->info.n_nodes] = v;
    p->nodes[p->info.n_nodes++] = (int)n;
    return true;
}

/* nodes: [4, 8, 16] or {from: 4, to: 512, factor: 2 | step: 4}. */
static bool parse_nodes(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    if (v && v->kind == CS_YNODE_SEQ && v->n > 0) {
        for (size_t i = 0; i < v->n; i++)
            if (!parse_nodes_value(p, v->items[i], d))
                return false;
        return true;
    }
    if (!v || v->kind != CS_YNODE_MAP) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "candidates.nodes: expected a list of node counts or a range {from, to, "
                      "factor | step}, got %s", shown);
        return false;
    }
    static const char *const rk[] = {"from", "to", "factor", "step", NULL};
    double val[4] = {NAN, NAN, NAN, NAN};
    for (size_t i = 0; i < v->n; i++) {
        const char *k = v->pairs[i].key->scalar;
        int j = 0;
        while (rk[j] && strcmp(rk[j], k) != 0)
            j++;
        if (!rk[j]) {
            cs_cfg__error(d, v->pairs[i].key, "candidates.nodes.%s: unknown key (expected from, to, "
                          "factor or step)", k);
            return false;
        }
        const char *s = scalar_or_null(v->pairs[i].value);
        double x;
        if (!s || !cs_num_parse_double(s, &x) || !(x > 0) || x > 1e7) {
            cs_cfg__error(d, v->pairs[i].value, "candidates.nodes.%s: expected a positive number, "
                          "got \"%.40s\"", k, s ? s : "nothing");
            return false;
        }
        val[j] = x;
    }
    if (!isfinite(val[0]) || !isfinite(val[1]) || val[0] > val[1] || val[0] != floor(val[0]) ||
        val[1] != floor(val[1])) {
        cs_cfg__error(d, v, "candidates.nodes: expected whole numbers from <= to");
        return false;
    }
    if (isfinite(val[2]) == isfinite(val[3])) {
        cs_cfg__error(d, v, "candidates.nodes: expected exactly one of factor (> 1) or step");
        return false;
    }
    if (isfinite(val[2]) && !(val[2] > 1)) {
        cs_cfg__error(d, v, "candidates.nodes.factor: expected a number above 1, got %g", val[2]);
        return false;
    }
    if (isfinite(val[3]) && val[3] != floor(val[3])) {
        cs_cfg__error(d, v, "candidates.nodes.step: expected a whole number, got %g", val[3]);
        return false;
    }
    for (double x = val[0]; x <= val[1] * (1 + 1e-12);) {
        double r = floor(x + 0.5);
        if (p->info.n_nodes >= CS_PLAN_MAX_NODES) {
            cs_cfg__error(d, v, "candidates.nodes: the range gives more than %d node counts",
                          CS_PLAN_MAX_NODES);
            return false;
        }
        if (p->info.n_nodes == 0 || p->nodes[p->info.n_nodes - 1] != (int)r) {
            p->nodes_at[p->info.n_nodes] = v;
            p->nodes[p->info.n_nodes++] = (int)r;
        }
        x = isfinite(val[2]) ? x * val[2] : x + val[3];
    }
    return true;
}

static bool parse_gpus(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    if (!v || v->kind != CS_YNODE_SEQ || v->n == 0) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v ? v : p->root, "candidates.gpus: expected a list of catalog GPU names "
                      "(or mappings {gpu: NAME, gpus_per_node: N, ...}), got %s", shown);
        return false;
    }
    if (v->n > CS_PLAN_MAX_GPUS) {
        cs_cfg__error(d, v, "candidates.gpus: %zu GPU types (at most %d)", v->n, CS_PLAN_MAX_GPUS);
        return false;
    }
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *g = v->items[i];
        const char *name = scalar_or_null(g);
        if (g->kind == CS_YNODE_MAP) {
            name = scalar_or_null(cs_ynode_map_get(g, "gpu"));
            if (!name) {
                cs_cfg__error(d, g, "candidates.gpus[%zu]: a mapping needs gpu: (a catalog GPU "
                              "name); its other keys are cluster keys (gpus_per_node, intra_node, ...)",
                              i);
                return false;
            }
            for (size_t j = 0; j < g->n; j++)
                if (strcmp(g->pairs[j].key->scalar, "nodes") == 0 ||
                    strcmp(g->pairs[j].key->scalar, "fabric") == 0) {
                    cs_cfg__error(d, g->pairs[j].key, "candidates.gpus[%zu].%s: the plan varies "
                                  "this (candidates.%s)", i, g->pairs[j].key->scalar,
                                  strcmp(g->pairs[j].key->scalar, "nodes") == 0 ? "nodes"
                                                                                 : "fabrics");
                    return false;
                }
        }
        if (!name || !*name) {
            char shown[96];
            cs_cfg__show(g, shown, sizeof shown);
            cs_cfg__error(d, g, "candidates.gpus[%zu]: expected a catalog GPU name, got %s", i,
                          shown);
            return false;
        }
        snprintf(p->gpu_name[i], CS_NAME_MAX, "%s", name);
        p->gpu[i] = g;
    }
    p->info.n_gpus = (int)v->n;
    return true;
}

static const char *fabric_key(const cs_plan *p, const struct cs_ynode *f, const char *key)
{
    const char *s = scalar_or_null(cs_ynode_map_get(f, key));
    if (!s) { /* the base cluster's */
        char path[64];
        snprintf(path, sizeof path, "cluster.fabric.%s", key);
        s = scalar_or_null(cs_ovl_get(p->root, path));
    }
    return s;
}

static bool parse_fabrics(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    if (!v || cs_ynode_is_null(v)) {
        p->info.n_fabrics = 1;
        p->fabric[0] = NULL;
    } else if (v->kind != CS_YNODE_SEQ || v->n == 0 || v->n > CS_PLAN_MAX_FABRICS) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "candidates.fabrics: expected a list of 1 to %d cluster.fabric mappings "
                      "({topology: fat-tree, link: ib-ndr, oversubscription: 1}), got %s",
                      CS_PLAN_MAX_FABRICS, shown);
        return false;
    } else {
        for (size_t i = 0; i < v->n; i++) {
            if (v->items[i]->kind != CS_YNODE_MAP) {
                char shown[96];
                cs_cfg__show(v->items[i], shown, sizeof shown);
                cs_cfg__error(d, v->items[i], "candidates.fabrics[%zu]: expected a mapping of "
                              "cluster.fabric keys, got %s", i, shown);
                return false;
            }
            p->fabric[i] = v->items[i];
        }
        p->info.n_fabrics = (int)v->n;
    }
    for (int i = 0; i < p->info.n_fabrics; i++) {
        const char *t = fabric_key(p, p->fabric[i], "topology");
        const char *l = fabric_key(p, p->fabric[i], "link");
        const char *o = fabric_key(p, p->fabric[i], "oversubscription");
        snprintf(p->fabric_label[i], sizeof p->fabric_label[i], "%s %s %s:1", t ? t : "fat-tree",
                 l ? l : "(default link)", o ? o : "1");
    }
    return true;
}

static bool parse_ownership(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    if (!v || cs_ynode_is_null(v)) {
        for (int o = 0; o < CS_OPT_COUNT; o++)
            p->info.ownership[o] = (enum cs_cost_option)o;
        p->info.n_ownership = CS_OPT_COUNT;
        return true;
    }
    const char *names[CS_OPT_COUNT + 1];
    for (int o = 0; o < CS_OPT_COUNT; o++)
        names[o] = cs_cost_option_name((enum cs_cost_option)o);
    names[CS_OPT_COUNT] = NULL;
    if (v->kind != CS_YNODE_SEQ || v->n == 0 || v->n > CS_OPT_COUNT) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "candidates.ownership: expected a list of 1 to %d of on-prem, colocation, "
                      "cloud-on-demand, cloud-reserved-1y, cloud-reserved-3y, cloud-spot, hybrid; got %s",
                      CS_OPT_COUNT, shown);
        return false;
    }
    for (size_t i = 0; i < v->n; i++) {
        const char *s = scalar_or_null(v->items[i]);
        int o = s ? cs_cost_option_parse(s) : -1;
        if (o < 0) {
            const char *sug = s ? cs_suggest(s, names, CS_OPT_COUNT) : NULL;
            char shown[96];
            cs_cfg__show(v->items[i], shown, sizeof shown);
            cs_cfg__error(d, v->items[i], "candidates.ownership[%zu]: %s is not an ownership option%s%s%s "
                          "(expected on-prem, colocation, cloud-on-demand, cloud-reserved-1y, "
                          "cloud-reserved-3y, cloud-spot or hybrid)", i, shown,
                          sug ? " (did you mean \"" : "", sug ? sug : "", sug ? "\"?)" : "");
            return false;
        }
        for (int j = 0; j < p->info.n_ownership; j++)
            if (p->info.ownership[j] == (enum cs_cost_option)o) {
                cs_cfg__error(d, v->items[i], "candidates.ownership[%zu]: %s is listed twice", i, s);
                return false;
            }
        p->info.ownership[p->info.n_ownership++] = (enum cs_cost_option)o;
    }
    return true;
}

/* storage: a list of cluster.storage lists ([nvme-gen4, lustre, s3]). */
static bool parse_storage(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    p->info.n_storage = 1;
    p->storage[0] = NULL;
    if (!v || cs_ynode_is_null(v))
        return true;
    bool ok = v->kind == CS_YNODE_SEQ && v->n > 0 && v->n <= CS_PLAN_MAX_STORAGE;
    for (size_t i = 0; ok && i < v->n; i++)
        ok = v->items[i]->kind == CS_YNODE_SEQ && v->items[i]->n > 0;
    if (!ok) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "candidates.storage: expected a list of 1 to %d cluster.storage lists (like "
                      "[[nvme-gen4, lustre], [nvme-gen4, s3]]), got %s", CS_PLAN_MAX_STORAGE, shown);
        return false;
    }
    for (size_t i = 0; i < v->n; i++)
        p->storage[i] = v->items[i];
    p->info.n_storage = (int)v->n;
    return true;
}

/* cloud_offers: all | [catalog offer names] (checked against the catalog
 * when candidates are evaluated). */
static bool parse_offers(cs_plan *p, const struct cs_ynode *v, cs_diags *d)
{
    if (!v || cs_ynode_is_null(v))
        return true;
    const char *s = scalar_or_null(v);
    if (s && strcmp(s, "all") == 0) {
        p->info.offers_all = true;
        return true;
    }
    if (v->kind != CS_YNODE_SEQ || v->n == 0 || v->n > CS_PLAN_MAX_OFFERS) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "candidates.cloud_offers: expected all, or a list of 1 to %d catalog cloud "
                      "offers (clustersim catalog lists them), got %s", CS_PLAN_MAX_OFFERS, shown);
        return false;
    }
    for (size_t i = 0; i < v->n; i++) {
        const char *n = scalar_or_null(v->items[i]);
        if (!n || !*n) {
            cs_cfg__error(d, v->items[i], "candidates.cloud_offers[%zu]: expected a catalog offer name", i);
            return false;
        }
        snprintf(p->info.offers[p->info.n_offers++], CS_NAME_MAX, "%s", n);
    }
    return true;
}

static bool parse_plan(cs_plan *p, cs_diags *d)
{
    const struct cs_ynode *r = p->root;
    if (!r || r->kind != CS_YNODE_MAP) {
        cs_diag_error(d, p->info.file, r ? r->line : 1, r ? r->col : 1,
                      "expected a plan: a mapping with workload:, deadline: and candidates:, got %s",
                      cs_ynode_describe(r));
        return false;
    }
    bool ok = true;
    /* The scenario part: every pair but the plan's own. */
    p->scn.kind = CS_YNODE_MAP;
    p->scn.file = r->file;
    p->scn.line = r->line;
    p->scn.col = r->col;
    p->scn.pairs = cs_xcalloc(r->n ? r->n : 1, sizeof *p->scn.pairs);
    for (size_t i = 0; i < r->n; i++)
        if (!is_one_of(r->pairs[i].key->scalar, plan_keys))
            p->scn.pairs[p->scn.n++] = r->pairs[i];
    p->info.replicas_given = cs_ovl_get(r, "run.replicas") != NULL;
    const struct cs_ynode *name = cs_ynode_map_get(r, "name");
    if (scalar_or_null(name))
        snprintf(p->info.name, sizeof p->info.name, "%s", name->scalar);
    else {
        const char *b = strrchr(p->info.file, '/');
        snprintf(p->info.name, sizeof p->info.name, "%s", b ? b + 1 : p->info.file);
        char *dot = strrchr(p->info.name, '.');
        if (dot && dot != p->info.name)
            *dot = '\0';
    }
    char err[160];
    const struct cs_ynode *dl = cs_ynode_map_get(r, "deadline");
    const char *dls = scalar_or_null(dl);
    if (!dls) {
        cs_cfg__error(d, dl ? dl : r, "deadline: expected the time the run must finish in, like 30d "
                      "or 2160h, got %s", dl ? cs_ynode_describe(dl) : "nothing");
        ok = false;
    } else if (cs_units_parse(dls, CS_UNIT_TIME, &p->info.deadline_s, err, sizeof err) != CS_OK ||
               !(p->info.deadline_s > 0)) {
        cs_cfg__error(d, dl, "deadline: %s", p->info.deadline_s > 0 || err[0] ? err
                                                  : "expected a duration above zero");
        ok = false;
    }
    p->info.budget_usd = INFINITY;
    const struct cs_ynode *bu = cs_ynode_map_get(r, "budget");
    if (bu && !cs_ynode_is_null(bu)) {
        const char *s = scalar_or_null(bu);
        double b = NAN;
        err[0] = '\0';
        if (!s || cs_units_parse(s, CS_UNIT_MONEY, &b, err, sizeof err) != CS_OK || !(b > 0)) {
            cs_cfg__error(d, bu, "budget: %s", err[0] ? err : "expected an amount above zero, like $5M");
            ok = false;
        } else {
            p->info.budget_usd = b;
        }
    }
    const struct cs_ynode *bb = cs_ynode_map_get(r, "budget_basis");
    if (bb) {
        const char *s = scalar_or_null(bb);
        if (s && strcmp(s, "commitment") == 0)
            p->info.basis = CS_PLAN_BASIS_COMMITMENT;
        else if (s && strcmp(s, "run") == 0)
            p->info.basis = CS_PLAN_BASIS_RUN;
        else {
            char shown[96];
            cs_cfg__show(bb, shown, sizeof shown);
            cs_cfg__error(d, bb, "budget_basis: expected commitment (what is signed for: rental, "
                          "reservation terms, the owned cluster's TCO) or run (the run's share), got %s",
                          shown);
            ok = false;
        }
    }
    const struct cs_ynode *wl = cs_ynode_map_get(r, "workload");
    if (!wl || wl->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, wl ? wl : r, "workload: expected the workload to plan for (a scenario's "
                      "workload: with tokens:), got %s", wl ? cs_ynode_describe(wl) : "nothing");
        ok = false;
    } else {
        const struct cs_ynode *tk = cs_ynode_map_get(wl, "tokens");
        if (!tk || cs_ynode_is_null(tk)) {
            cs_cfg__error(d, wl, "workload.tokens: a plan needs the tokens to train (like 2T)");
            ok = false;
        } else if (!scalar_or_null(tk) || !cs_num_parse_double(tk->scalar, &p->info.tokens)) {
            /* Units (2T) are the binder's; keep the count for reports when plain. */
            p->info.tokens = NAN;
        }
        const char *fixed[] = {"parallelism", "gpus", "micro_batch"};
        for (int i = 0; i < 3; i++) {
            const struct cs_ynode *k = cs_ynode_map_get(wl, fixed[i]);
            if (k) {
                cs_cfg__error(d, k, "workload.%s: the plan searches %s for every candidate cluster; "
                              "remove it", fixed[i],
                              i == 0 ? "the parallelism" : i == 1 ? "the GPU count" : "the micro-batch");
                ok = false;
            }
        }
    }
    if (cs_ynode_map_get(r, "neighbours")) {
        cs_cfg__error(d, cs_ynode_map_get(r, "neighbours"), "neighbours: not supported in a plan "
                      "(each candidate is a cluster of its own)");
        ok = false;
    }
    const struct cs_ynode *cl = cs_ynode_map_get(r, "cluster");
    if (cl && cl->kind == CS_YNODE_MAP)
        for (size_t i = 0; i < cl->n; i++) {
            const char *k = cl->pairs[i].key->scalar;
            if (strcmp(k, "gpu") == 0 || strcmp(k, "nodes") == 0) {
                cs_cfg__error(d, cl->pairs[i].key, "cluster.%s: the plan varies this (candidates.%s)",
                              k, strcmp(k, "gpu") == 0 ? "gpus" : "nodes");
                ok = false;
            }
        }
    const struct cs_ynode *c = cs_ynode_map_get(r, "candidates");
    if (!c || c->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, c ? c : r, "candidates: expected a mapping with gpus:, nodes: and optionally "
                      "fabrics: and ownership:, got %s", c ? cs_ynode_describe(c) : "nothing");
        return false;
    }
    for (size_t i = 0; i < c->n; i++)
        if (!is_one_of(c->pairs[i].key->scalar, cand_keys)) {
            const char *sug = cs_suggest(c->pairs[i].key->scalar, cand_keys, 4);
            cs_cfg__error(d, c->pairs[i].key, "candidates.%s: unknown key%s%s%s (expected gpus, nodes, "
                          "fabrics or ownership)", c->pairs[i].key->scalar, sug ? " (did you mean \"" : "",
                          sug ? sug : "", sug ? "\"?)" : "");
            ok = false;
        }
    ok = parse_gpus(p, cs_ynode_map_get(c, "gpus"), d) && ok;
    const struct cs_ynode *nn = cs_ynode_map_get(c, "nodes");
    if (!nn) {
        cs_cfg__error(d, c, "candidates.nodes: expected the node counts to try, like [4, 8, 16] or "
                      "{from: 4, to: 512, factor: 2}");
        ok = false;
    } else {
        ok = parse_nodes(p, nn, d) && ok;
    }
    ok = parse_fabrics(p, cs_ynode_map_get(c, "fabrics"), d) && ok;
    ok = parse_storage(p, cs_ynode_map_get(c, "storage"), d) && ok;
    p->info.n_variants = p->info.n_fabrics * p->info.n_storage;
    for (int f = 0; f < p->info.n_fabrics; f++)
        for (int t = 0; t < p->info.n_storage; t++) {
            char *lb = p->variant_label[f * p->info.n_storage + t];
            size_t cap = sizeof p->variant_label[0];
            int n = snprintf(lb, cap, "%s", p->fabric_label[f]);
            const struct cs_ynode *sq = p->storage[t];
            for (size_t k = 0; sq && k < sq->n && n > 0 && (size_t)n < cap; k++) {
                const char *nm = sq->items[k]->kind == CS_YNODE_SCALAR ? sq->items[k]->scalar : "?";
                n += snprintf(lb + n, cap - (size_t)n, "%s%s", k ? "+" : " storage ", nm);
            }
        }
    ok = parse_ownership(p, cs_ynode_map_get(c, "ownership"), d) && ok;
    ok = parse_offers(p, cs_ynode_map_get(c, "cloud_offers"), d) && ok;
    p->cloud_offers_at = cs_ynode_map_get(c, "cloud_offers");
    return ok;
}

cs_status cs_plan_load(const char *path, const struct cs_cfg_override *ov, size_t nov, cs_diags *d,
                       cs_plan **out)
{
    cs_plan *p = cs_xcalloc(1, sizeof *p);
    p->info.file = path;
    cs_ovl_init(&p->ovl);
    cs_status st = cs_ydoc_load_file(path, d, &p->doc);
    if (st != CS_OK) {
        cs_plan_destroy(p);
        return st;
    }
    p->root = cs_ydoc_root(p->doc);
    if (nov) {
        p->vals = cs_xcalloc(nov, sizeof *p->vals);
        p->val_files = cs_xcalloc(nov, sizeof *p->val_files);
        p->nvals = nov;
        /* the override nodes keep their file name: the plan owns a copy */
        struct cs_cfg_override *own = cs_xcalloc(nov, sizeof *own);
        for (size_t i = 0; i < nov; i++) {
            own[i] = ov[i];
            p->val_files[i] = cs_xstrdup(ov[i].file ? ov[i].file : "<override>");
            own[i].file = p->val_files[i];
        }
        bool applied = p->root && p->root->kind == CS_YNODE_MAP &&
                       cs_ovl_apply(&p->ovl, &p->root, own, nov, p->vals, d);
        free(own);
        if (!applied) {
            if (!p->root || p->root->kind != CS_YNODE_MAP)
                cs_diag_error(d, path, 1, 1, "expected a plan: a mapping, got %s",
                              cs_ynode_describe(p->root));
            cs_plan_destroy(p);
            return CS_ECONFIG;
        }
    }
    if (!parse_plan(p, d)) {
        cs_plan_destroy(p);
        return CS_ECONFIG;
    }
    /* The identity of the plan for shards: its bytes (read again; the tree
     * keeps no copy) and the overrides in order. */
    uint64_t h = CS_FNV_OFFSET;
    FILE *f = fopen(path, "rb");
    if (f) {
        char buf[8192];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            h = cs_fnv1a(h, buf, n);
        fclose(f);
    }
    for (size_t i = 0; i < nov; i++) {
        h = cs_fnv1a(h, ov[i].path ? ov[i].path : "", strlen(ov[i].path ? ov[i].path : "") + 1);
        h = cs_fnv1a(h, ov[i].value ? ov[i].value : "", strlen(ov[i].value ? ov[i].value : "") + 1);
    }
    p->info.hash = h;
    *out = p;
    return CS_OK;
}

void cs_plan_destroy(cs_plan *p)
{
    if (!p)
        return;
    free(p->scn.pairs);
    cs_ovl_fini(&p->ovl);
    for (size_t i = 0; i < p->nvals; i++) {
        cs_ydoc_destroy(p->vals[i]);
        if (p->val_files)
            free(p->val_files[i]);
    }
    free(p->vals);
    free(p->val_files);
    cs_ydoc_destroy(p->doc);
    free(p);
}

const struct cs_plan_info *cs_plan_info(const cs_plan *p) { return &p->info; }
const char *cs_plan_gpu(const cs_plan *p, int gi) { return p->gpu_name[gi]; }
int cs_plan_nodes(const cs_plan *p, int ni) { return p->nodes[ni]; }
const char *cs_plan_fabric(const cs_plan *p, int fi) { return p->variant_label[fi]; }

cs_status cs_plan_check_offers(const cs_plan *p, const cs_catalog *cat, cs_diags *d)
{
    const struct cs_ynode *at = p->cloud_offers_at;
    bool ok = true;
    for (int i = 0; i < p->info.n_offers; i++) {
        const struct cs_cloud_offer *o = cs_catalog_cloud(cat, p->info.offers[i]);
        const struct cs_ynode *item = at && at->kind == CS_YNODE_SEQ && (size_t)i < at->n ? at->items[i] : at;
        if (!o) {
            cs_cfg__error(d, item ? item : p->root, "candidates.cloud_offers[%d]: %s is not a catalog cloud "
                          "offer (clustersim catalog lists them)", i, p->info.offers[i]);
            ok = false;
            continue;
        }
        bool used = false;
        for (int g = 0; g < p->info.n_gpus; g++)
            used = used || strcmp(o->gpu, p->gpu_name[g]) == 0;
        if (!used) {
            cs_cfg__error(d, item ? item : p->root, "candidates.cloud_offers[%d]: %s offers %s, which is not "
                          "among candidates.gpus", i, o->name, o->gpu);
            ok = false;
        }
    }
    return ok ? CS_OK : CS_ECONFIG;
}

/* cluster.<prefix><k> = v for every pair of map m (but `skip`). */
static bool set_all(struct cs_ovl *o, const struct cs_ynode **root, const char *prefix,
                    const struct cs_ynode *m, const char *skip, cs_diags *d)
{
    for (size_t i = 0; m && i < m->n; i++) {
        const struct cs_ynode *k = m->pairs[i].key;
        if (skip && strcmp(k->scalar, skip) == 0)
            continue;
        char path[300];
        snprintf(path, sizeof path, "%s%s", prefix, k->scalar);
        if (!cs_cfg_key_path_ok(path, strlen(path))) {
            cs_cfg__error(d, k, "%s: not a key", path);
            return false;
        }
        if (!cs_ovl_set(o, root, path, m->pairs[i].value, k->file, k->line, k->col, d))
            return false;
    }
    return true;
}

cs_status cs_plan_candidate(const cs_plan *p, int gi, int ni, int fi, const cs_catalog *cat,
                            cs_diags *d, struct cs_scenario *out)
{
    struct cs_ovl o;
    cs_ovl_init(&o);
    const struct cs_ynode *root = &p->scn;
    const struct cs_ynode *g = p->gpu[gi];
    char nb[32];
    snprintf(nb, sizeof nb, "%d", p->nodes[ni]);
    const struct cs_ynode *na = p->nodes_at[ni];
    bool ok = cs_ovl_set(&o, &root, "cluster.gpu",
                         g->kind == CS_YNODE_MAP ? cs_ynode_map_get(g, "gpu") : g, g->file, g->line,
                         g->col, d) &&
              (g->kind != CS_YNODE_MAP || set_all(&o, &root, "cluster.", g, "gpu", d)) &&
              cs_ovl_set(&o, &root, "cluster.nodes", cs_ovl_scalar(&o, nb, na->file, na->line, na->col),
                         na->file, na->line, na->col, d) &&
              set_all(&o, &root, "cluster.fabric.", p->fabric[fi / p->info.n_storage], NULL, d) &&
              (!p->storage[fi % p->info.n_storage] ||
               cs_ovl_set(&o, &root, "cluster.storage", p->storage[fi % p->info.n_storage],
                          p->storage[fi % p->info.n_storage]->file, p->storage[fi % p->info.n_storage]->line,
                          p->storage[fi % p->info.n_storage]->col, d));
    cs_status st = ok ? cs_cfg__bind_root_plan(root, p->info.file, cat, d, out) : CS_ECONFIG;
    cs_ovl_fini(&o);
    return st;
}
