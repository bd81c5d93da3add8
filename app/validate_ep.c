/* validate_ep.c: the EP all-to-all model against measured MoE dispatch and
 * combine latencies (validate_ep.h). */
#include "clustersim/app/validate_ep.h"

#include "clustersim/base/csv.h"
#include "clustersim/base/numparse.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/collective.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS__EP_COLS 10
#define CS__EP_MAX_BYTES (1u << 20)

static const char *const cs__ep_cols[CS__EP_COLS] = {"platform", "scenario", "ep",     "dispatcher", "op",
                                                     "tokens",   "hidden",   "top_k", "elem_bytes", "measured_us"};

/* A positive number in a cell; false (with a diagnostic) otherwise. */
static bool cs__num(const char *file, int line, const char *col, const char *cell, double *out, cs_diags *d)
{
    double v;
    if (!cs_num_parse_double(cell, &v) || !isfinite(v) || v <= 0) {
        cs_diag_error(d, file, line, 0, "column %s: \"%s\" is not a positive number", col, cell);
        return false;
    }
    *out = v;
    return true;
}

static struct cs_app_epval_group *cs__group(struct cs_app_epval *r, const char *platform, const char *disp)
{
    for (int i = 0; i < r->ngroups; i++)
        if (!strcmp(r->groups[i].platform, platform) && !strcmp(r->groups[i].dispatcher, disp))
            return &r->groups[i];
    r->groups = cs_xrealloc(r->groups, (size_t)r->ngroups + 1, sizeof *r->groups);
    struct cs_app_epval_group *g = &r->groups[r->ngroups++];
    memset(g, 0, sizeof *g);
    snprintf(g->platform, sizeof g->platform, "%s", platform);
    snprintf(g->dispatcher, sizeof g->dispatcher, "%s", disp);
    return g;
}

/* Costs one row: the all-to-all of `bytes` per rank over `ep` ranks packed
 * on the scenario's nodes, hierarchical (top_k) for hybridep / deepep. */
static cs_status cs__cost(const struct cs_scenario *s, int ep, bool hier, int top_k, double bytes, double *t)
{
    struct cs_step_options o;
    cs_step_options_from_scenario(s, &o);
    int ppn = s->cluster.gpus_per_node;
    struct cs_coll_group g;
    memset(&g, 0, sizeof g);
    g.ranks = ep;
    g.ranks_per_node = ep < ppn ? ep : ppn;
    g.groups_per_node = 1;
    if (hier)
        g.a2a_top_k = top_k;
    return cs_coll_time_ex(&s->cluster, &o.coll, CS_COLL_ALLTOALL, bytes, &g, CS_COLL_AUTO, t, NULL, NULL);
}

/* Compares one ep-dispatch file; appends its rows to r. */
static cs_status cs__table(const cs_catalog *cat, const char *dir, const struct cs_val_table *vt,
                           struct cs_app_epval *r, cs_diags *d)
{
    char *path = cs_xasprintf("%s/%s", dir, vt->file);
    char *buf = NULL;
    size_t len = 0;
    cs_status st = cs_file_slurp(path, CS__EP_MAX_BYTES, &buf, &len, d);
    if (st != CS_OK) {
        free(path);
        return st;
    }
    /* the scenarios sit beside the CSV */
    const char *slash = strrchr(path, '/');
    char *sdir = slash ? cs_xasprintf("%.*s", (int)(slash - path), path) : cs_xstrdup(".");
    int col[CS__EP_COLS];
    bool header = false;
    int line = 0;
    char *save = NULL;
    for (char *ln = buf; ln && st == CS_OK; ln = save) {
        char *nl = strchr(ln, '\n');
        save = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        line++;
        size_t n = strlen(ln);
        while (n > 0 && (ln[n - 1] == '\r' || ln[n - 1] == ' '))
            ln[--n] = '\0';
        if (n == 0 || ln[0] == '#')
            continue;
        char *cells[CS__EP_COLS + 1];
        int nc = cs_csv_split_inplace(ln, cells, NULL, CS__EP_COLS + 1, NULL);
        if (!header) {
            for (int k = 0; k < CS__EP_COLS; k++) {
                col[k] = -1;
                for (int c = 0; c < nc; c++)
                    if (!strcmp(cells[c], cs__ep_cols[k]))
                        col[k] = c;
                if (col[k] < 0) {
                    cs_diag_error(d, path, line, 0, "header: no column \"%s\" (expected %s, %s, %s, ...)",
                                  cs__ep_cols[k], cs__ep_cols[0], cs__ep_cols[1], cs__ep_cols[2]);
                    st = CS_ECONFIG;
                }
            }
            header = true;
            continue;
        }
        if (nc != CS__EP_COLS) {
            cs_diag_error(d, path, line, 0, "expected %d cells, found %d", CS__EP_COLS, nc < 0 ? 0 : nc);
            st = CS_ECONFIG;
            break;
        }
        const char *disp = cells[col[3]], *op = cells[col[4]];
        bool hier = !strcmp(disp, "hybridep") || !strcmp(disp, "deepep");
        if (!hier && strcmp(disp, "alltoall")) {
            cs_diag_error(d, path, line, 0, "column dispatcher: \"%s\" (expected alltoall, hybridep or deepep)",
                          disp);
            st = CS_ECONFIG;
            break;
        }
        if (strcmp(op, "dispatch") && strcmp(op, "combine")) {
            cs_diag_error(d, path, line, 0, "column op: \"%s\" (expected dispatch or combine)", op);
            st = CS_ECONFIG;
            break;
        }
        double ep, tokens, hidden, topk, eb, meas;
        if (!cs__num(path, line, "ep", cells[col[2]], &ep, d) ||
            !cs__num(path, line, "tokens", cells[col[5]], &tokens, d) ||
            !cs__num(path, line, "hidden", cells[col[6]], &hidden, d) ||
            !cs__num(path, line, "top_k", cells[col[7]], &topk, d) ||
            !cs__num(path, line, "elem_bytes", cells[col[8]], &eb, d) ||
            !cs__num(path, line, "measured_us", cells[col[9]], &meas, d)) {
            st = CS_ECONFIG;
            break;
        }
        if (ep != floor(ep) || ep < 2 || ep > 1e6 || topk != floor(topk) || topk > 1e4) {
            cs_diag_error(d, path, line, 0, "ep %g and top_k %g: expected whole numbers, ep at least 2", ep, topk);
            st = CS_ECONFIG;
            break;
        }
        char *scn = cs_xasprintf("%s/%s", sdir, cells[col[1]]);
        cs_diags sd;
        cs_diags_init(&sd);
        struct cs_scenario s;
        cs_status ss = cs_cfg_load_scenario(scn, cat, &sd, &s, NULL);
        if (ss != CS_OK) {
            cs_diag_error(d, path, line, 0, "scenario %s: %s", cells[col[1]],
                          sd.n ? sd.items[0].msg : cs_strerror(ss));
            cs_diags_fini(&sd);
            free(scn);
            st = CS_ECONFIG;
            break;
        }
        cs_diags_fini(&sd);
        free(scn);
        double bytes = tokens * topk * hidden * eb, t = 0.0;
        ss = (long)ep > (long)s.cluster.nodes * s.cluster.gpus_per_node ? CS_ERANGE
                                                                       : cs__cost(&s, (int)ep, hier, (int)topk, bytes, &t);
        cs_scenario_fini(&s);
        if (ss != CS_OK || !(t > 0)) {
            cs_diag_error(d, path, line, 0, "the model cannot cost an all-to-all over %g ranks of %s: %s", ep,
                          cells[col[1]], cs_strerror(ss != CS_OK ? ss : CS_ERANGE));
            st = CS_ECONFIG;
            break;
        }
        r->rows = cs_xrealloc(r->rows, (size_t)r->n + 1, sizeof *r->rows);
        struct cs_app_epval_row *w = &r->rows[r->n++];
        memset(w, 0, sizeof *w);
        w->file = vt->file;
        w->line = line;
        snprintf(w->platform, sizeof w->platform, "%s", cells[col[0]]);
        snprintf(w->dispatcher, sizeof w->dispatcher, "%s", disp);
        snprintf(w->op, sizeof w->op, "%s", op);
        w->ep = (int)ep;
        w->bytes = bytes;
        w->measured_us = meas;
        w->predicted_us = t * 1e6;
        w->error = w->predicted_us / meas - 1.0;
        struct cs_app_epval_group *g = cs__group(r, w->platform, w->dispatcher);
        double a = fabs(w->error);
        g->n++;
        g->sum += a;
        g->worst = fmax(g->worst, a);
        r->sum += a;
        r->worst = fmax(r->worst, a);
    }
    if (st == CS_OK && !header) {
        cs_diag_error(d, path, 0, 0, "no header line");
        st = CS_ECONFIG;
    }
    free(sdir);
    free(buf);
    free(path);
    return st;
}

cs_status cs_app_validate_ep_dispatch(const cs_catalog *cat, cs_diags *d, struct cs_app_epval *out)
{
    memset(out, 0, sizeof *out);
    cs_status st = cs_valindex_load_data(d, &out->ix);
    if (st != CS_OK)
        return st;
    for (size_t i = 0; i < out->ix.n; i++) {
        const struct cs_val_table *vt = &out->ix.tables[i];
        if (strcmp(vt->kind, "ep-dispatch") != 0)
            continue;
        st = cs__table(cat, out->ix.dir, vt, out, d);
        if (st != CS_OK)
            return st;
        out->tables++;
    }
    if (out->n == 0) {
        cs_diag_error(d, out->ix.path, 0, 0, "no ep-dispatch entry with a row");
        return CS_ERANGE;
    }
    return CS_OK;
}

void cs_app_epval_fini(struct cs_app_epval *r)
{
    if (!r)
        return;
    free(r->rows);
    free(r->groups);
    cs_valindex_fini(&r->ix);
    memset(r, 0, sizeof *r);
}
