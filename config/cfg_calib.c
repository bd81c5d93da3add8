/* cfg_calib.c: binds `calibration:` (config layer; cfg_calib.h) with the
 * generic field tables of schema.h, so types, units and ranges are checked
 * as everywhere else. */
#include "cfg_calib.h"
#include "clustersim/models/collective.h"

#include "clustersim/models/storage.h"
#include "schema.h"
#include "clustersim/base/numparse.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define F_(k, ty, T, m, ...) { .key = k, .type = ty, .offset = offsetof(T, m), __VA_ARGS__ }
#define F_CUSTOM(k, d) { .key = k, .type = CS_FT_CUSTOM, .doc = d }


static const struct cs_field calib_fields[] = {
    F_CUSTOM("date", "when the overlay was written (ISO 8601)"),
    F_CUSTOM("inputs", "measurement files and their sha256"),
    F_CUSTOM("collective", "closed-form collective parameters and nccl-tests curves"),
    F_CUSTOM("compute", "GEMM efficiency and global factors"),
    F_CUSTOM("storage", "a storage tier measured with fio"),
    F_CUSTOM("fit", "fit quality summary (informational)"),
};

static const struct cs_field coll_fields[] = {
    F_("intra_efficiency", CS_FT_NUM, struct cs_calib_cfg, intra_efficiency, .min = 0, .max = 1,
       .flags = CS_F_MINEXCL, .doc = "achieved fraction of the scale-up link rate"),
    F_("net_efficiency", CS_FT_NUM, struct cs_calib_cfg, net_efficiency, .min = 0, .max = 1,
       .flags = CS_F_MINEXCL, .doc = "achieved fraction of the NIC rate"),
    F_("nvls_efficiency", CS_FT_NUM, struct cs_calib_cfg, nvls_efficiency, .min = 0, .max = 1,
       .flags = CS_F_MINEXCL, .doc = "NVLink-SHARP fraction of the link rate"),
    F_("launch_floor", CS_FT_QTY, struct cs_calib_cfg, launch_floor_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1, .doc = "nccl-tests host launch time per call"),
    F_CUSTOM("curves", "fitted nccl-tests time curves"),
};

static const struct cs_field compute_fields[] = {
    F_("gemm_eff_max", CS_FT_NUM, struct cs_calib_cfg, gemm_eff_max, .min = 0, .max = 1,
       .flags = CS_F_MINEXCL, .doc = "fraction of peak a large GEMM reaches"),
    F_("gemm_dim_half", CS_FT_NUM, struct cs_calib_cfg, gemm_dim_half, .min = 0, .max = 1e6,
       .flags = CS_F_MINEXCL, .doc = "GEMM dimension at half efficiency"),
    F_("scale", CS_FT_NUM, struct cs_calib_cfg, compute_scale, .min = 0, .max = 10, .flags = CS_F_MINEXCL,
       .doc = "multiplies gemm_eff_max, attn_eff and mem_eff"),
    F_("overlap_slowdown", CS_FT_NUM, struct cs_calib_cfg, overlap_slowdown, .min = 0, .max = 10,
       .doc = "compute time lost per second of overlapped communication"),
};

static const struct cs_field curve_fields[] = {
    F_("op", CS_FT_ENUM, struct cs_calib_curve, op, .names = cs_coll_op_names, .flags = CS_F_REQUIRED,
       .doc = "collective"),
    F_("algo", CS_FT_ENUM, struct cs_calib_curve, algo, .names = cs_coll_algo_names, .def = "auto",
       .doc = "algorithm the measurement ran"),
    F_("ranks", CS_FT_INT, struct cs_calib_curve, ranks, .min = 2, .max = 1048576, .flags = CS_F_REQUIRED,
       .doc = "communicator size"),
    F_("nodes", CS_FT_INT, struct cs_calib_curve, nodes, .min = 1, .max = 131072, .flags = CS_F_REQUIRED,
       .doc = "nodes it spans"),
    F_("launch", CS_FT_QTY, struct cs_calib_curve, launch_s, .unit = CS_UNIT_TIME, .min = 0, .max = 1,
       .def = "0s", .doc = "launch floor"),
    F_("latency", CS_FT_QTY, struct cs_calib_curve, lat_s[0], .unit = CS_UNIT_TIME, .min = 0, .max = 1,
       .flags = CS_F_REQUIRED, .doc = "regime 1 latency"),
    F_("busbw", CS_FT_QTY, struct cs_calib_curve, busbw_bytes_per_s[0], .unit = CS_UNIT_BANDWIDTH, .min = 0,
       .max = 1e15, .flags = CS_F_REQUIRED | CS_F_MINEXCL, .doc = "regime 1 bus bandwidth"),
    F_("latency2", CS_FT_QTY, struct cs_calib_curve, lat_s[1], .unit = CS_UNIT_TIME, .min = 0, .max = 1,
       .doc = "regime 2 latency"),
    F_("busbw2", CS_FT_QTY, struct cs_calib_curve, busbw_bytes_per_s[1], .unit = CS_UNIT_BANDWIDTH, .min = 0,
       .max = 1e15, .flags = CS_F_MINEXCL, .doc = "regime 2 bus bandwidth"),
    F_("min_size", CS_FT_QTY, struct cs_calib_curve, min_bytes, .unit = CS_UNIT_BYTES, .min = 0, .max = 1e15,
       .def = "0B", .doc = "smallest measured size"),
    F_("max_size", CS_FT_QTY, struct cs_calib_curve, max_bytes, .unit = CS_UNIT_BYTES, .min = 0, .max = 1e15,
       .def = "0B", .doc = "largest measured size"),
    F_("mape", CS_FT_NUM, struct cs_calib_curve, mape, .min = 0, .max = 1e6, .def = "0",
       .doc = "mean |busbw error| of the fit"),
    F_("max_error", CS_FT_NUM, struct cs_calib_curve, max_err, .min = 0, .max = 1e6, .def = "0",
       .doc = "max |busbw error| of the fit"),
};

struct cs__calib_storage {
    char tier[CS_NAME_MAX];
    double read_bw, write_bw, latency;
};
static const struct cs_field storage_fields[] = {
    F_("tier", CS_FT_STR, struct cs__calib_storage, tier, .size = CS_NAME_MAX, .flags = CS_F_REQUIRED,
       .doc = "tier name or kind in cluster.storage"),
    F_("read_bw", CS_FT_QTY, struct cs__calib_storage, read_bw, .unit = CS_UNIT_BANDWIDTH, .min = 0, .max = 1e15,
       .flags = CS_F_MINEXCL | CS_F_NULLABLE, .doc = "measured read bandwidth"),
    F_("write_bw", CS_FT_QTY, struct cs__calib_storage, write_bw, .unit = CS_UNIT_BANDWIDTH, .min = 0, .max = 1e15,
       .flags = CS_F_MINEXCL | CS_F_NULLABLE, .doc = "measured write bandwidth"),
    F_("latency", CS_FT_QTY, struct cs__calib_storage, latency, .unit = CS_UNIT_TIME, .min = 0, .max = 100,
       .flags = CS_F_NULLABLE, .doc = "request latency"),
};

static const struct cs_field input_fields[] = {
    F_CUSTOM("kind", "nccl, gemm, fio, steps, base"),
    F_CUSTOM("file", "path as given to clustersim calibrate"),
    F_CUSTOM("sha256", "digest of the file's bytes"),
    F_CUSTOM("skipped_rows", "malformed nccl-tests rows skipped (informational)"),
};

/* Binds map v (at `path`) with table t into base: defaults first, then the
 * file's keys; missing required keys and unknown keys are errors. Returns
 * false when v is not a mapping. */
static bool cs__bind_map(const struct cs_ynode *v, const char *path, const struct cs_field *t, size_t n, void *base,
                         cs_diags *d)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].type == CS_FT_CUSTOM)
            continue;
        if (!(t[i].def && cs_cfg__set_text(&t[i], t[i].def, base)))
            cs_cfg__unset(&t[i], base);
    }
    if (v->kind != CS_YNODE_MAP) {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "%s: expected a mapping, got %s", path, shown);
        return false;
    }
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key;
        const struct cs_field *f = cs_cfg__find(t, n, k->scalar);
        if (!f) {
            cs_cfg__unknown_key(d, k, path, t, n, NULL);
            continue;
        }
        if (f->type == CS_FT_CUSTOM)
            continue;
        char *p = cs_cfg__path(path, f->key);
        cs_cfg__set(f, v->pairs[i].value, p, base, d);
        free(p);
    }
    for (size_t i = 0; i < n; i++) {
        if ((t[i].flags & CS_F_REQUIRED) && !cs_ynode_map_get(v, t[i].key))
            cs_cfg__error(d, v, "%s.%s: missing required key (%s)", path, t[i].key, t[i].doc);
    }
    return true;
}

static void cs__bind_curves(const struct cs_ynode *v, struct cs_calib_cfg *c, cs_diags *d)
{
    if (v->kind != CS_YNODE_SEQ) {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "calibration.collective.curves: expected a sequence of curves, got %s", shown);
        return;
    }
    if (v->n > CS_CALIB_MAX_CURVES) {
        cs_cfg__error(d, v, "calibration.collective.curves: at most %d curves, got %zu", CS_CALIB_MAX_CURVES, v->n);
        return;
    }
    for (size_t i = 0; i < v->n; i++) {
        struct cs_calib_curve cv;
        memset(&cv, 0, sizeof cv);
        char path[64];
        snprintf(path, sizeof path, "calibration.collective.curves[%zu]", i);
        size_t errs = cs_diags_errors(d);
        if (!cs__bind_map(v->items[i], path, curve_fields, NELEM(curve_fields), &cv, d))
            continue;
        /* A curve with a missing or refused key has already been reported;
         * its fields may be zero (nodes), so no check below may use them. */
        if (cs_diags_errors(d) != errs)
            continue;
        bool l2 = !isnan(cv.lat_s[1]), b2 = !isnan(cv.busbw_bytes_per_s[1]);
        if (l2 != b2)
            cs_cfg__error(d, v->items[i], "%s: latency2 and busbw2 go together (a second protocol regime)", path);
        cv.n_regimes = l2 && b2 ? 2 : 1;
        if (cv.ranks % cv.nodes != 0)
            cs_cfg__error(d, v->items[i], "%s: ranks %d is not a multiple of nodes %d", path, cv.ranks, cv.nodes);
        c->curves[c->n_curves++] = cv;
    }
}

static void cs__apply_storage(const struct cs_ynode *v, struct cs_scenario *s, cs_diags *d)
{
    struct cs__calib_storage st;
    memset(&st, 0, sizeof st);
    if (!cs__bind_map(v, "calibration.storage", storage_fields, NELEM(storage_fields), &st, d) || !st.tier[0])
        return;
    const struct cs_storage_spec *t = cs_storage_find(&s->cluster.storage, st.tier);
    if (!t) {
        cs_cfg__error(d, cs_ynode_map_get(v, "tier"),
                      "calibration.storage.tier: no storage tier or tier kind \"%s\" in cluster.storage", st.tier);
        return;
    }
    struct cs_storage_spec *m = &s->cluster.storage.tiers[t - s->cluster.storage.tiers];
    if (!isnan(st.read_bw))
        m->read_bw_bytes_per_s = st.read_bw;
    if (!isnan(st.write_bw))
        m->write_bw_bytes_per_s = st.write_bw;
    if (!isnan(st.latency))
        m->latency_s = st.latency;
}

static void cs__check_inputs(const struct cs_ynode *v, cs_diags *d)
{
    if (v->kind != CS_YNODE_SEQ) {
        cs_cfg__error(d, v, "calibration.inputs: expected a sequence of {kind, file, sha256}, got %s",
                      cs_ynode_describe(v));
        return;
    }
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *it = v->items[i];
        char path[48];
        snprintf(path, sizeof path, "calibration.inputs[%zu]", i);
        if (it->kind != CS_YNODE_MAP) {
            cs_cfg__error(d, it, "%s: expected a mapping {kind, file, sha256}, got %s", path, cs_ynode_describe(it));
            continue;
        }
        for (size_t j = 0; j < it->n; j++) {
            const struct cs_ynode *k = it->pairs[j].key;
            if (!cs_cfg__find(input_fields, NELEM(input_fields), k->scalar))
                cs_cfg__unknown_key(d, k, path, input_fields, NELEM(input_fields), NULL);
            else if (it->pairs[j].value->kind != CS_YNODE_SCALAR)
                cs_cfg__error(d, it->pairs[j].value, "%s.%s: expected a string, got %s", path, k->scalar,
                              cs_ynode_describe(it->pairs[j].value));
        }
        const struct cs_ynode *h = cs_ynode_map_get(it, "sha256");
        if (h && h->kind == CS_YNODE_SCALAR) {
            bool ok = h->len == 64;
            for (size_t j = 0; ok && j < 64; j++)
                ok = (h->scalar[j] >= '0' && h->scalar[j] <= '9') || (h->scalar[j] >= 'a' && h->scalar[j] <= 'f');
            if (!ok)
                cs_cfg__error(d, h, "%s.sha256: expected 64 lower-case hexadecimal digits", path);
        }
    }
}

void cs_cfg__bind_calibration(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d)
{
    struct cs_calib_cfg *c = &s->calibration;
    memset(c, 0, sizeof *c);
    c->intra_efficiency = c->net_efficiency = c->nvls_efficiency = c->launch_floor_s = NAN;
    c->gemm_eff_max = c->gemm_dim_half = c->compute_scale = c->overlap_slowdown = NAN;
    const struct cs_ynode *v = cs_ynode_map_get(root, "calibration");
    if (!v || cs_ynode_is_null(v))
        return;
    if (v->kind != CS_YNODE_MAP) {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "calibration: expected a mapping, got %s", shown);
        return;
    }
    c->enabled = true;
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key;
        if (!cs_cfg__find(calib_fields, NELEM(calib_fields), k->scalar))
            cs_cfg__unknown_key(d, k, "calibration", calib_fields, NELEM(calib_fields), NULL);
    }
    const struct cs_ynode *date = cs_ynode_map_get(v, "date");
    if (date && date->kind != CS_YNODE_SCALAR)
        cs_cfg__error(d, date, "calibration.date: expected a date string, got %s", cs_ynode_describe(date));
    const struct cs_ynode *in = cs_ynode_map_get(v, "inputs");
    if (in)
        cs__check_inputs(in, d);
    const struct cs_ynode *fit = cs_ynode_map_get(v, "fit");
    c->step_fit_mape = NAN;
    c->step_fit_points = 0;
    if (fit && fit->kind != CS_YNODE_MAP)
        cs_cfg__error(d, fit, "calibration.fit: expected a mapping, got %s", cs_ynode_describe(fit));
    /* The step-time fits' residuals (informational otherwise): the
     * uncertainty of a calibrated step (app/uncertainty.c). */
    for (size_t i = 0; fit && fit->kind == CS_YNODE_MAP && i < fit->n; i++) {
        const struct cs_ynode *k = fit->pairs[i].key, *e = fit->pairs[i].value;
        if (strncmp(k->scalar, "steps_", 6) != 0 || e->kind != CS_YNODE_MAP)
            continue;
        const struct cs_ynode *mp = cs_ynode_map_get(e, "mape"), *pt = cs_ynode_map_get(e, "points");
        double m = NAN, n = 0;
        if (!mp || mp->kind != CS_YNODE_SCALAR || !cs_num_parse_double(mp->scalar, &m) || !(m >= 0) || m > 10) {
            if (mp)
                cs_cfg__error(d, mp, "calibration.fit.%s.mape: expected a relative error >= 0, got %s", k->scalar,
                              cs_ynode_describe(mp));
            continue;
        }
        if (pt && (pt->kind != CS_YNODE_SCALAR || !cs_num_parse_double(pt->scalar, &n) || n < 0))
            n = 0;
        if (!(c->step_fit_mape >= m)) {
            c->step_fit_mape = m;
            c->step_fit_points = (int)n;
        }
    }
    const struct cs_ynode *coll = cs_ynode_map_get(v, "collective");
    if (coll && cs__bind_map(coll, "calibration.collective", coll_fields, NELEM(coll_fields), c, d)) {
        const struct cs_ynode *cv = cs_ynode_map_get(coll, "curves");
        if (cv)
            cs__bind_curves(cv, c, d);
    }
    const struct cs_ynode *comp = cs_ynode_map_get(v, "compute");
    if (comp)
        cs__bind_map(comp, "calibration.compute", compute_fields, NELEM(compute_fields), c, d);
    const struct cs_ynode *st = cs_ynode_map_get(v, "storage");
    if (st)
        cs__apply_storage(st, s, d);
    /* Cluster-level values take effect here, for every command. */
    if (!isnan(c->intra_efficiency))
        s->cluster.intra.efficiency = c->intra_efficiency;
    if (!isnan(c->net_efficiency))
        s->cluster.fabric.link.efficiency = c->net_efficiency;
}
