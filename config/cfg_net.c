/* cfg_net.c: binds `neighbours:` (config layer; cfg_net.h) with the generic
 * field tables of schema.h, so types, units, ranges and unknown keys are
 * checked as everywhere else; whole nodes and the GPU total are checked
 * here. */
#include "cfg_net.h"

#include "schema.h"
#include "clustersim/config/config.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/memory.h"
#include "clustersim/models/step.h"
#include "clustersim/models/workload.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS_NB_MAX_GPUS 1048576L /* as the scenario loader's CS_CFG_MAX_GPUS */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define F_(k, ty, T, m, ...) { .key = k, .type = ty, .offset = offsetof(T, m), __VA_ARGS__ }

static const struct cs_field nb_fields[] = {
    F_("gpus", CS_FT_LONG, struct cs_neighbour_cfg, gpus, .min = 1, .max = CS_NB_MAX_GPUS,
       .doc = "GPUs of the neighbour job (whole nodes)"),
    F_("placement", CS_FT_ENUM, struct cs_neighbour_cfg, placement, .names = cs_placement_names,
       .doc = "packed | scattered"),
    F_("traffic", CS_FT_ENUM, struct cs_neighbour_cfg, traffic, .names = cs_nb_traffic_names,
       .doc = "its ring collective: all_reduce | all_gather | reduce_scatter"),
    F_("bytes", CS_FT_QTY, struct cs_neighbour_cfg, bytes, .unit = CS_UNIT_BYTES, .min = 0, .max = 1e15,
       .flags = CS_F_MINEXCL, .doc = "bytes per GPU of each collective (nccl-tests convention)"),
    F_("interval", CS_FT_QTY, struct cs_neighbour_cfg, interval_s, .unit = CS_UNIT_TIME, .min = 0, .max = 1e9,
       .flags = CS_F_MINEXCL, .doc = "one collective starts every interval (its step time)"),
};

/* {scenario: FILE[, placement]}: the neighbour is that scenario's job: its
 * GPUs, its placement (unless given), and the data-parallel gradient
 * all-reduce of its step (the gradients of one model replica's GPU,
 * params / (tp x pp) at the width its memory model keeps them) once per step
 * time, the step simulated on the closed form (docs/fabric.md 3b). FILE is
 * relative to the including file; it may not have neighbours of its own. */
static void from_scenario(const struct cs_ynode *it, const char *path, const char *top, const cs_catalog *cat,
                          struct cs_neighbour_cfg *nb, cs_diags *d)
{
    const struct cs_ynode *sv = cs_ynode_map_get(it, "scenario");
    if (sv->kind != CS_YNODE_SCALAR || sv->len == 0) {
        cs_cfg__error(d, sv, "%s.scenario: expected a scenario file name", path);
        return;
    }
    for (size_t k = 0; k < it->n; k++) {
        const char *key = it->pairs[k].key->scalar;
        if (strcmp(key, "scenario") != 0 && strcmp(key, "placement") != 0)
            cs_cfg__error(d, it->pairs[k].key,
                          "%s.%s: a neighbour given by `scenario:` takes its GPUs and traffic from that file; "
                          "only `placement` may be set beside it",
                          path, key);
    }
    char *file = cs_ypath_resolve(sv->file ? sv->file : "", sv->scalar);
    char why[512], *real = NULL;
    cs_status cst = cs_ypath_check(top, file, &real, why, sizeof why);
    free(real);
    if (cst != CS_OK) {
        cs_cfg__error(d, sv, "%s.scenario: %s \"%s\": %s", path,
                      cst == CS_EIO ? "cannot read" : "refused", file, why);
        free(file);
        return;
    }
    cs_diags sub;
    cs_diags_init(&sub);
    cs_ydoc *doc = NULL;
    if (cs_ydoc_load_file(file, &sub, &doc) != CS_OK || !doc) {
        cs_cfg__error(d, sv, "%s.scenario: %s does not load: %s", path, file, sub.n ? sub.items[0].msg : "?");
        cs_diags_fini(&sub);
        cs_ydoc_destroy(doc);
        free(file);
        return;
    }
    bool nested = cs_ynode_map_get(cs_ydoc_root(doc), "neighbours") != NULL;
    cs_ydoc_destroy(doc);
    if (nested) {
        cs_cfg__error(d, sv, "%s.scenario: %s has neighbours of its own; a neighbour's scenario may not", path,
                      sv->scalar);
        cs_diags_fini(&sub);
        free(file);
        return;
    }
    struct cs_scenario o;
    if (cs_cfg_load_scenario(file, cat, &sub, &o, NULL) != CS_OK) {
        char *first = sub.n ? cs_diag_format(&sub.items[0]) : NULL;
        cs_cfg__error(d, sv, "%s.scenario: %s does not load: %s", path, file, first ? first : "?");
        free(first);
        cs_diags_fini(&sub);
        free(file);
        return;
    }
    const struct cs_workload *w = &o.workload;
    struct cs_step_options opt;
    struct cs_step_result r;
    memset(&r, 0, sizeof r);
    bool ok = o.has_workload;
    if (ok) {
        cs_step_options_from_scenario(&o, &opt);
        ok = cs_step_simulate(&o.cluster, w, &opt, &sub, &r) == CS_OK && r.fits && r.time_s > 0;
    }
    if (!ok)
        cs_cfg__error(d, sv, "%s.scenario: %s has no step to take its traffic from (%s)", path, sv->scalar,
                      !o.has_workload ? "no workload" : "its step does not fit or does not simulate");
    else if (w->par.dp < 2)
        cs_cfg__error(d, sv, "%s.scenario: %s has dp = 1: no data-parallel traffic on the fabric", path,
                      sv->scalar);
    else {
        nb->gpus = cs_job_gpus(&o.cluster, w);
        if (!cs_ynode_map_get(it, "placement"))
            nb->placement = o.cluster.fabric.placement;
        nb->traffic = CS_NB_ALL_REDUCE;
        nb->bytes = cs_workload_params(&w->model) / ((double)w->par.tp * w->par.pp) *
                    cs_memory_grad_reduce_bytes(w);
        nb->interval_s = r.time_s;
    }
    cs_scenario_fini(&o);
    cs_diags_fini(&sub);
    free(file);
}

void cs_cfg__bind_neighbours(const struct cs_ynode *root, const char *top, const cs_catalog *cat,
                             struct cs_scenario *s, cs_diags *d)
{
    s->n_neighbours = 0;
    const struct cs_ynode *v = cs_ynode_map_get(root, "neighbours");
    if (!v || cs_ynode_is_null(v))
        return;
    if (v->kind != CS_YNODE_SEQ) {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "neighbours: expected a sequence of {gpus, placement, traffic, bytes, interval}, got %s",
                      shown);
        return;
    }
    if (v->n > CS_MAX_NEIGHBOURS) {
        cs_cfg__error(d, v, "neighbours: expected at most %d neighbour jobs, got %zu", CS_MAX_NEIGHBOURS, v->n);
        return;
    }
    long gpn = s->cluster.gpus_per_node > 0 ? s->cluster.gpus_per_node : 1;
    long total = s->has_workload ? cs_job_gpus(&s->cluster, &s->workload) : 0;
    for (size_t i = 0; i < v->n; i++) {
        char path[48];
        snprintf(path, sizeof path, "neighbours[%zu]", i);
        const struct cs_ynode *it = v->items[i];
        struct cs_neighbour_cfg *nb = &s->neighbours[i];
        memset(nb, 0, sizeof *nb);
        nb->placement = CS_PLACEMENT_SCATTERED;
        nb->traffic = CS_NB_ALL_REDUCE;
        nb->bytes = nb->interval_s = NAN;
        if (it->kind != CS_YNODE_MAP) {
            char shown[128];
            cs_cfg__show(it, shown, sizeof shown);
            cs_cfg__error(d, it, "%s: expected a mapping {gpus, placement, traffic, bytes, interval}, got %s", path,
                          shown);
            continue;
        }
        if (cs_ynode_map_get(it, "scenario")) {
            const struct cs_ynode *pl = cs_ynode_map_get(it, "placement");
            if (pl) {
                char *p = cs_cfg__path(path, "placement");
                cs_cfg__set(cs_cfg__find(nb_fields, NELEM(nb_fields), "placement"), pl, p, nb, d);
                free(p);
            }
            from_scenario(it, path, top, cat, nb, d);
            if (nb->gpus > 0 && nb->gpus % gpn != 0)
                cs_cfg__error(d, it, "%s: its scenario's %ld GPUs are not whole nodes of this cluster (%ld GPUs each)",
                              path, nb->gpus, gpn);
            total += nb->gpus > 0 ? nb->gpus : 0;
            continue;
        }
        for (size_t k = 0; k < it->n; k++) {
            const struct cs_ynode *key = it->pairs[k].key;
            const struct cs_field *f = cs_cfg__find(nb_fields, NELEM(nb_fields), key->scalar);
            if (!f) {
                cs_cfg__unknown_key(d, key, path, nb_fields, NELEM(nb_fields), NULL);
                continue;
            }
            char *p = cs_cfg__path(path, f->key);
            cs_cfg__set(f, it->pairs[k].value, p, nb, d);
            free(p);
        }
        static const char *const required[] = {"gpus", "bytes", "interval"};
        bool ok = true;
        for (size_t k = 0; k < NELEM(required); k++)
            if (!cs_ynode_map_get(it, required[k])) {
                cs_cfg__error(d, it, "%s: missing required key \"%s\" (%s)", path, required[k],
                              cs_cfg__find(nb_fields, NELEM(nb_fields), required[k])->doc);
                ok = false;
            }
        if (!ok || nb->gpus < 1)
            continue;
        if (nb->gpus % gpn != 0)
            cs_cfg__error(d, cs_ynode_map_get(it, "gpus"),
                          "%s.gpus: %ld is not a whole number of nodes (the cluster's nodes have %ld GPUs)", path,
                          nb->gpus, gpn);
        total += nb->gpus;
    }
    s->n_neighbours = (int)v->n;
    long have = (long)s->cluster.nodes * gpn;
    if (total > have)
        cs_cfg__error(d, v,
                      "neighbours: the job (%ld GPUs%s) and its neighbours need %ld GPUs, but the cluster has %ld "
                      "(%d nodes x %ld); set workload.gpus to leave the neighbours room",
                      s->has_workload ? cs_job_gpus(&s->cluster, &s->workload) : 0L,
                      s->has_workload && s->workload.gpus > 0 ? ", workload.gpus" : ": every GPU", total, have,
                      s->cluster.nodes, gpn);
}
