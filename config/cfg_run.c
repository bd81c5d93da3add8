/* cfg_run.c: the `data:` section and the run-level cross-checks (config
 * layer); see cfg_run.h. Keys and defaults are documented in docs/run.md. */
#include "cfg_run.h"

#include "clustersim/models/failure.h"
#include "clustersim/models/storage.h"
#include "schema.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define F_(k, ty, T, m, ...) { .key = k, .type = ty, .offset = offsetof(T, m), __VA_ARGS__ }

/* struct cs_data_cfg */
static const struct cs_field data_fields[] = {
    F_("batch_time", CS_FT_QTY, struct cs_data_cfg, batch_time_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e6, .flags = CS_F_MINEXCL | CS_F_NULLABLE,
       .doc = "measured loader time per step; default derived from the keys below"),
    F_("sample_cpu", CS_FT_QTY, struct cs_data_cfg, sample_cpu_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e4, .def = "0s", .doc = "CPU time to preprocess one sample"),
    F_("workers_per_gpu", CS_FT_INT, struct cs_data_cfg, workers_per_gpu, .min = 1, .max = 1024,
       .def = "4", .doc = "loader worker processes per GPU"),
    F_("prefetch", CS_FT_INT, struct cs_data_cfg, prefetch, .min = 0, .max = 1024, .def = "2",
       .doc = "batches prefetched; 0 = loader in series with the step"),
    F_("sample_bytes", CS_FT_QTY, struct cs_data_cfg, sample_bytes, .unit = CS_UNIT_BYTES,
       .min = 0, .max = 1e12, .def = "0B", .doc = "bytes read per sample"),
    F_("gpu_decode", CS_FT_BOOL, struct cs_data_cfg, gpu_decode, .def = "false",
       .doc = "preprocess on the GPU (DALI-like)"),
    F_("gpu_sample", CS_FT_QTY, struct cs_data_cfg, gpu_sample_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e4, .def = "0s", .doc = "GPU time per sample with gpu_decode"),
    F_("tier", CS_FT_STR, struct cs_data_cfg, tier, .size = sizeof(((struct cs_data_cfg *)0)->tier),
       .def = "", .doc = "storage tier of the dataset; default the first"),
    F_("dataset", CS_FT_QTY, struct cs_data_cfg, dataset_bytes, .unit = CS_UNIT_BYTES, .min = 0,
       .max = 1e21, .def = "0B", .doc = "dataset size held on data.tier (storage capacity)"),
    F_("sample_cv", CS_FT_NUM, struct cs_data_cfg, sample_cv, .min = 0, .max = 10, .def = "0",
       .doc = "coefficient of variation of one sample's CPU time (lognormal)"),
    F_("other_jobs_share", CS_FT_QTY, struct cs_data_cfg, other_jobs_share, .unit = CS_UNIT_RATIO,
       .min = 0, .max = 0.99, .def = "0", .doc = "share of the tier's read bandwidth other jobs take"),
};

static void bind_data(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d)
{
    struct cs_data_cfg *dc = &s->data;
    memset(dc, 0, sizeof *dc);
    const struct cs_ynode *v = cs_ynode_map_get(root, "data");
    for (size_t i = 0; i < NELEM(data_fields); i++) {
        bool ok = data_fields[i].def ? cs_cfg__set_text(&data_fields[i], data_fields[i].def, dc)
                                     : false;
        if (!ok)
            cs_cfg__unset(&data_fields[i], dc);
    }
    if (!v || cs_ynode_is_null(v))
        return;
    if (v->kind != CS_YNODE_MAP) {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "data: expected a mapping, got %s", shown);
        return;
    }
    dc->enabled = true;
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key;
        const struct cs_field *f = cs_cfg__find(data_fields, NELEM(data_fields), k->scalar);
        if (!f) {
            cs_cfg__unknown_key(d, k, "data", data_fields, NELEM(data_fields), NULL);
            continue;
        }
        char *path = cs_cfg__path("data", f->key);
        cs_cfg__set(f, v->pairs[i].value, path, dc, d);
        free(path);
    }
    if (dc->tier[0] && !cs_storage_find(&s->cluster.storage, dc->tier))
        cs_cfg__error(d, cs_ynode_map_get(v, "tier"),
                      "data.tier: no storage tier or tier kind \"%s\" in cluster.storage "
                      "(expected a tier name, or nvme, pfs or object)",
                      dc->tier);
}

void cs_cfg__bind_run_extra(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d)
{
    bind_data(root, s, d);
    const struct cs_ynode *fm = cs_ynode_map_get(root, "failures");
    if (s->failures.enabled && !cs_ynode_map_get(fm, "components"))
        cs_fail_llama3_defaults(&s->failures);
    for (int i = 0; i < s->failures.n_components; i++)
        if (!(s->failures.components[i].repair_s >= 0))
            s->failures.components[i].repair_s = NAN;
    const struct cs_ynode *cm = cs_ynode_map_get(root, "checkpoint");
    if (s->checkpoint.enabled && s->checkpoint.upload[0]) {
        const struct cs_storage_spec *t = cs_storage_find(&s->cluster.storage, s->checkpoint.upload);
        if (!t)
            cs_cfg__error(d, cs_ynode_map_get(cm, "upload"),
                          "checkpoint.upload: no storage tier or tier kind \"%s\" in "
                          "cluster.storage (expected a tier name, or nvme, pfs or object)",
                          s->checkpoint.upload);
        else
            memcpy(s->checkpoint.upload, t->name, sizeof s->checkpoint.upload);
    }
}
