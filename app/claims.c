/* claims.c: the seed claims of a claims index, each run through the command
 * that reproduces it and judged by that command's judge (contract in
 * clustersim/app/claims.h; docs/claims.md). */
#include "clustersim/app/claims.h"

#include "clustersim/app/compare.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/replay.h"
#include "clustersim/app/tco.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/config.h"
#include "clustersim/config/trace.h"
#include "clustersim/models/cost.h"
#include "clustersim/report/cost_report.h"
#include "clustersim/report/replay_report.h"
#include "clustersim/report/run_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cs__verdict_names[] = {"supported", "contradicted", "direction-holds",
                                                "not-expressible"};

const char *cs_claims_verdict_name(enum cs_claims_verdict v)
{
    return (unsigned)v <= CS_CLAIMS_NOT_EXPRESSIBLE ? cs__verdict_names[v] : "?";
}

void cs_claims_result_fini(struct cs_claims_result *r)
{
    if (!r)
        return;
    free(r->rows);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------ */
/* Helpers.                                                                  */

/* Copies the errors of src into d (the warnings are dropped: the claims
 * table is not the place for a scenario's notes; its command shows them). */
static void cs__keep_errors(const cs_diags *src, cs_diags *d)
{
    for (size_t i = 0; i < src->n; i++) {
        const struct cs_diag *g = &src->items[i];
        if (g->sev == CS_SEV_ERROR)
            cs_diag_add(d, CS_SEV_ERROR, g->file, g->line, g->col, "%s", g->msg);
    }
}

/* dir/rel with "x/../" and "./" folded (lexically), into buf. */
static void cs__display(const char *dir, const char *rel, char *buf, size_t n)
{
    char *p = rel[0] == '/' || !dir || !dir[0] ? cs_xstrdup(rel) : cs_xasprintf("%s/%s", dir, rel);
    /* split on '/', fold, join */
    const char *parts[256];
    size_t np = 0;
    bool abs = p[0] == '/';
    for (char *tok = strtok(p, "/"); tok; tok = strtok(NULL, "/")) {
        if (strcmp(tok, ".") == 0)
            continue;
        if (strcmp(tok, "..") == 0 && np > 0 && strcmp(parts[np - 1], "..") != 0) {
            np--;
            continue;
        }
        if (np < sizeof parts / sizeof parts[0])
            parts[np++] = tok;
    }
    size_t len = 0;
    buf[0] = '\0';
    if (abs && n > 1)
        buf[len++] = '/', buf[len] = '\0';
    for (size_t i = 0; i < np; i++) {
        int w = snprintf(buf + len, len < n ? n - len : 0, "%s%s", i ? "/" : "", parts[i]);
        if (w > 0)
            len += (size_t)w;
    }
    free(p);
}

static char *cs__path(const struct cs_claimix *ix, const char *rel)
{
    return rel[0] == '/' ? cs_xstrdup(rel) : cs_xasprintf("%s/%s", ix->dir, rel);
}

/* "clustersim VERB [pre] FILE..." with the display paths. */
static void cs__command(const struct cs_claimix_entry *e, const char *ddir, char *buf, size_t n)
{
    char p[400];
    size_t len = 0;
    buf[0] = '\0';
#define CS__APPEND(...)                                                                                     \
    do {                                                                                                    \
        int w_ = snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__);                                   \
        if (w_ > 0)                                                                                         \
            len += (size_t)w_;                                                                              \
    } while (0)
    switch (e->cmd) {
    case CS_CLAIMIX_RUN:
        for (size_t i = 0; i < e->n_files; i++) {
            cs__display(ddir, e->files[i], p, sizeof p);
            CS__APPEND("%sclustersim run %s", i ? "; " : "", p);
        }
        break;
    case CS_CLAIMIX_COMPARE:
    case CS_CLAIMIX_TCO_TABLE:
        CS__APPEND("clustersim %s", e->cmd == CS_CLAIMIX_COMPARE ? "compare" : "tco --table");
        for (size_t i = 0; i < e->n_files; i++) {
            cs__display(ddir, e->files[i], p, sizeof p);
            CS__APPEND(" %s", p);
        }
        break;
    case CS_CLAIMIX_TCO:
        cs__display(ddir, e->files[0], p, sizeof p);
        CS__APPEND("clustersim tco --only-priced %s", p);
        break;
    case CS_CLAIMIX_REPLAY:
        cs__display(ddir, e->trace, p, sizeof p);
        CS__APPEND("clustersim replay %s", p);
        cs__display(ddir, e->files[0], p, sizeof p);
        CS__APPEND(" --cluster %s", p);
        break;
    case CS_CLAIMIX_NONE:
        for (size_t i = 0; i < e->n_files; i++) {
            cs__display(ddir, e->files[i], p, sizeof p);
            CS__APPEND("%sclustersim run %s", i ? "; " : "", p);
        }
        break;
    }
#undef CS__APPEND
}

struct cs__rows {
    struct cs_claims_row *v;
    size_t n, cap;
};

static struct cs_claims_row *cs__row(struct cs__rows *rs, const struct cs_claimix_entry *e, const char *ddir)
{
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? 2 * rs->cap : 32;
        rs->v = cs_xrealloc(rs->v, rs->cap, sizeof *rs->v);
    }
    struct cs_claims_row *r = &rs->v[rs->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%s", e->id);
    snprintf(r->text, sizeof r->text, "%s", e->text);
    snprintf(r->claimed, sizeof r->claimed, "-");
    snprintf(r->simulated, sizeof r->simulated, "-");
    cs__command(e, ddir, r->command, sizeof r->command);
    if (e->note)
        snprintf(r->reason, sizeof r->reason, "%s", e->note);
    return r;
}

/* The four words from the words of report/claim.c's judge. */
static enum cs_claims_verdict cs__from_claim(const struct cs_claim_verdict *v)
{
    if (strcmp(v->verdict, "supported") == 0)
        return CS_CLAIMS_SUPPORTED;
    if (strncmp(v->verdict, "direction holds", 15) == 0)
        return CS_CLAIMS_DIRECTION_HOLDS;
    if (strcmp(v->verdict, "contradicted") == 0 || strcmp(v->verdict, "not supported") == 0)
        return CS_CLAIMS_CONTRADICTED;
    return CS_CLAIMS_NOT_EXPRESSIBLE; /* "not evaluated" */
}

/* A step or run claim's figures into the row. */
static void cs__claim_row(struct cs_claims_row *r, const struct cs_claim_cfg *c, const struct cs_claim_verdict *v,
                          bool several)
{
    const char *metric = cs_claim_metric_label(c);
    if (several)
        snprintf(r->part, sizeof r->part, "%s", c->text);
    snprintf(r->judge, sizeof r->judge, "%s", v->verdict);
    r->verdict = cs__from_claim(v);
    const char *of = v->is_ratio ? "ratio of " : "";
    if (v->is_bound) {
        char lo[48] = "", hi[48] = "";
        if (!isnan(v->low))
            snprintf(lo, sizeof lo, ">= %.6g", v->low);
        if (!isnan(v->high))
            snprintf(hi, sizeof hi, "%s<= %.6g", lo[0] ? ", " : "", v->high);
        snprintf(r->claimed, sizeof r->claimed, "%s%s %s%s", of, metric, lo, hi);
    } else if (!isnan(c->ratio) || !isnan(c->value)) {
        snprintf(r->claimed, sizeof r->claimed, "%s%s %.6g (+-%.0f%%)", of, metric,
                 !isnan(c->ratio) ? c->ratio : c->value, 100 * c->tolerance);
    }
    if (isfinite(v->claimed))
        snprintf(r->simulated, sizeof r->simulated, "%.4g", v->simulated);
    else if (r->verdict == CS_CLAIMS_NOT_EXPRESSIBLE && !r->reason[0])
        snprintf(r->reason, sizeof r->reason, "clustersim could not evaluate it (%s: the configuration does "
                                              "not fit, or the figure needs a model stage that did not run)",
                 v->verdict);
}

/* ------------------------------------------------------------------------ */
/* One entry per command.                                                    */

struct cs__scns {
    struct cs_scenario s[CS_CLAIMIX_MAX_FILES];
    size_t n;
};

static cs_status cs__load(const struct cs_claimix *ix, const struct cs_claimix_entry *e, const cs_catalog *cat,
                          cs_diags *d, struct cs__scns *sc)
{
    sc->n = 0;
    for (size_t i = 0; i < e->n_files; i++) {
        char *p = cs__path(ix, e->files[i]);
        cs_diags dd;
        cs_diags_init(&dd);
        cs_status st = cs_cfg_load_scenario(p, cat, &dd, &sc->s[sc->n], NULL);
        cs__keep_errors(&dd, d);
        cs_diags_fini(&dd);
        free(p);
        if (st != CS_OK)
            return st;
        sc->n++;
    }
    return CS_OK;
}

static void cs__unload(struct cs__scns *sc)
{
    for (size_t i = 0; i < sc->n; i++)
        cs_scenario_fini(&sc->s[i]);
    sc->n = 0;
}

/* `clustersim run` of each file: the claim of the last, a ratio to the
 * first when it states one. */
static cs_status cs__run(const struct cs__scns *sc, const struct cs_claimix_entry *e, const char *ddir,
                         bool several, cs_diags *d, struct cs__rows *rs)
{
    const struct cs_claim_cfg *c = &sc->s[sc->n - 1].claim;
    double fig[2] = {NAN, NAN};
    for (size_t i = 0; i < sc->n; i++) {
        struct cs_app_eval_opts eo;
        cs_app_eval_opts_default(&eo);
        eo.threads = 2;
        eo.quiet_nofit = true;
        struct cs_app_result res;
        cs_diags dd;
        cs_diags_init(&dd);
        cs_status st = cs_app_evaluate(&sc->s[i], &eo, &dd, &res);
        cs__keep_errors(&dd, d);
        cs_diags_fini(&dd);
        if (st != CS_OK && st != CS_ENOFIT) {
            cs_app_result_fini(&res);
            return st;
        }
        if (res.has_step)
            fig[i] = cs_claim_metric_value_scn(c, &sc->s[i], &res.step, &res.run);
        cs_app_result_fini(&res);
    }
    struct cs_claims_row *r = cs__row(rs, e, ddir);
    if (!c->enabled) {
        r->verdict = CS_CLAIMS_NOT_EXPRESSIBLE;
        snprintf(r->reason, sizeof r->reason, "the last scenario has no `claim:`");
        return CS_OK;
    }
    struct cs_claim_verdict v = cs_claim_judge(c, fig[sc->n - 1], sc->n > 1 ? fig[0] : NAN);
    cs__claim_row(r, c, &v, several);
    return CS_OK;
}

/* `clustersim compare`: every file with a claim, against the first. */
static cs_status cs__compare(const struct cs__scns *sc, const struct cs_claimix_entry *e, const char *ddir,
                             bool several, cs_diags *d, struct cs__rows *rs)
{
    struct cs_app_compare cr[CS_CLAIMIX_MAX_FILES];
    for (size_t i = 0; i < sc->n; i++) {
        cs_diags dd;
        cs_diags_init(&dd);
        cs_status st = cs_app_compare_eval(&sc->s[i], e->files[i], &dd, &cr[i]);
        cs__keep_errors(&dd, d);
        cs_diags_fini(&dd);
        if (st != CS_OK)
            return st;
    }
    size_t judged = 0;
    for (size_t i = 0; i < sc->n; i++)
        judged += cr[i].claim.enabled;
    for (size_t i = 0; i < sc->n; i++) {
        if (!cr[i].claim.enabled)
            continue;
        /* as cli/cmd_compare.c: ratio claims against the first scenario */
        double base = cs_app_compare_metric(&cr[i].claim, &cr[0]);
        struct cs_claim_verdict v = cs_claim_judge(&cr[i].claim, cr[i].claim_metric, base);
        cs__claim_row(cs__row(rs, e, ddir), &cr[i].claim, &v, several || judged > 1);
    }
    if (judged == 0) {
        struct cs_claims_row *r = cs__row(rs, e, ddir);
        r->verdict = CS_CLAIMS_NOT_EXPRESSIBLE;
        snprintf(r->reason, sizeof r->reason, "no scenario of the comparison has a `claim:`");
    }
    return CS_OK;
}

/* A cost claim's figure in its unit. */
static void cs__cost_fig(enum cs_cost_claim_metric m, double v, char *buf, size_t n)
{
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (m == CS_CLAIM_TOTAL || m == CS_CLAIM_SAVINGS)
        cs_out_money(v, buf, n);
    else if (m == CS_CLAIM_BREAK_EVEN)
        snprintf(buf, n, "%.1f%%", 100 * v);
    else if (m == CS_CLAIM_RATIO)
        snprintf(buf, n, "%.2fx", v);
    else
        snprintf(buf, n, "%.0f GPUs", v);
}

static const char *const cs__cost_metric_words[] = {"", "break-even utilization", "savings", "cost ratio",
                                                    "total", "owned cheaper from"};

static cs_status cs__eval_cost(const struct cs_scenario *s, cs_diags *d, struct cs_app_result *res)
{
    /* as `clustersim tco --only-priced FILE` (cli/cmd_tco.c): the cost goal
     * with the run model, the options without prices left out (a claim on
     * one of them is then "cannot decide": not-expressible) */
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.goal = CS_APP_GOAL_COST;
    eo.run = true;
    eo.only_priced = true;
    eo.threads = 2;
    cs_diags dd;
    cs_diags_init(&dd);
    cs_status st = cs_app_evaluate(s, &eo, &dd, res);
    cs__keep_errors(&dd, d);
    cs_diags_fini(&dd);
    return st;
}

/* `clustersim tco FILE`: its cost.claim (models/cost.c's judge). */
static cs_status cs__tco(const struct cs__scns *sc, const struct cs_claimix_entry *e, const char *ddir,
                         cs_diags *d, struct cs__rows *rs)
{
    const struct cs_scenario *s = &sc->s[0];
    struct cs_app_result res;
    cs_status st = cs__eval_cost(s, d, &res);
    if (st != CS_OK) {
        cs_app_result_fini(&res);
        return st;
    }
    struct cs_tco_report *t = cs_xcalloc(1, sizeof *t);
    cs_diags dd;
    cs_diags_init(&dd);
    cs_app_tco_analyze(s, &res, s->cost.ext.sensitivity, 0, &dd, t);
    cs__keep_errors(&dd, d);
    cs_diags_fini(&dd);
    struct cs_claims_row *r = cs__row(rs, e, ddir);
    const struct cs_cost_claim *cl = &s->cost.ext.claim;
    if (!t->has_claim) {
        r->verdict = CS_CLAIMS_NOT_EXPRESSIBLE;
        snprintf(r->reason, sizeof r->reason, "the scenario has no cost.claim, or it cannot be evaluated");
    } else {
        const char *w = (unsigned)cl->metric <= CS_CLAIM_CHEAPER_BELOW_GPUS ? cs__cost_metric_words[cl->metric]
                                                                           : "?";
        char a[48], b[48];
        if (isfinite(cl->claimed)) {
            cs__cost_fig(cl->metric, cl->claimed, a, sizeof a);
            snprintf(r->claimed, sizeof r->claimed, "%s %s (+-%.0f%%)", w, a, 100 * cl->tolerance);
        } else {
            cs__cost_fig(cl->metric, cl->low, a, sizeof a);
            cs__cost_fig(cl->metric, cl->high, b, sizeof b);
            snprintf(r->claimed, sizeof r->claimed, "%s %s .. %s", w, a, b);
        }
        cs__cost_fig(cl->metric, t->claim.computed, r->simulated, sizeof r->simulated);
        snprintf(r->judge, sizeof r->judge, "%s", cs_cost_verdict_name(t->claim.verdict));
        r->verdict = t->claim.verdict == CS_VERDICT_SUPPORTED       ? CS_CLAIMS_SUPPORTED
                     : t->claim.verdict == CS_VERDICT_NOT_SUPPORTED ? CS_CLAIMS_CONTRADICTED
                                                                    : CS_CLAIMS_NOT_EXPRESSIBLE;
        snprintf(r->part, sizeof r->part, "%s", cl->text);
        if (!r->reason[0])
            snprintf(r->reason, sizeof r->reason, "%s", t->claim.explanation);
    }
    free(t);
    cs_app_result_fini(&res);
    return CS_OK;
}

/* `clustersim tco --table FILES`: each row after the first against its
 * cost.reference throughput (report/cost_report.c's judge). */
static cs_status cs__tco_table(const struct cs__scns *sc, const struct cs_claimix_entry *e, const char *ddir,
                               cs_diags *d, struct cs__rows *rs)
{
    struct cs_tco_table_row *rows = cs_xcalloc(sc->n, sizeof *rows);
    for (size_t i = 0; i < sc->n; i++) {
        rows[i].s = &sc->s[i];
        rows[i].file = e->files[i];
        struct cs_app_result res;
        /* as cli/cmd_tco.c's table: options without prices left out */
        cs_status st = cs__eval_cost(&sc->s[i], d, &res);
        if (st == CS_OK) {
            rows[i].run = res.cost_run;
            rows[i].in = *res.cost_in;
            rows[i].res = *res.cost;
        }
        cs_app_result_fini(&res);
        if (st != CS_OK) {
            free(rows);
            return st;
        }
    }
    cs_out_tco_table_fill(rows, (int)sc->n);
    for (size_t i = 1; i < sc->n; i++) {
        const struct cs_tco_table_row *t = &rows[i];
        struct cs_claims_row *r = cs__row(rs, e, ddir);
        snprintf(r->part, sizeof r->part, "%s: effective throughput relative to %s", sc->s[i].name,
                 sc->s[0].name);
        if (!t->has_verdict) {
            r->verdict = CS_CLAIMS_NOT_EXPRESSIBLE;
            snprintf(r->reason, sizeof r->reason, "no reference throughput or no time to train for this row");
            continue;
        }
        snprintf(r->claimed, sizeof r->claimed, "%.2fx (+-%.0f%%)", t->ref_rel_throughput,
                 100 * sc->s[i].cost.ext.reference.tolerance);
        snprintf(r->simulated, sizeof r->simulated, "%.2fx", t->rel_throughput);
        snprintf(r->judge, sizeof r->judge, "%s", cs_cost_verdict_name(t->verdict));
        r->verdict = t->verdict == CS_VERDICT_SUPPORTED ? CS_CLAIMS_SUPPORTED : CS_CLAIMS_CONTRADICTED;
    }
    free(rows);
    return CS_OK;
}

/* `clustersim replay TRACE --cluster FILE`: its scheduler.claim
 * (report/replay_report.c's judge). */
static cs_status cs__replay(const struct cs_claimix *ix, const struct cs__scns *sc,
                            const struct cs_claimix_entry *e, const char *ddir, cs_diags *d, struct cs__rows *rs)
{
    struct cs_sched_config cfg;
    cs_sched_config_default(&cfg);
    struct cs_app_replay rp;
    cs_app_replay_init(&rp, &cfg);
    struct cs_app_replay_given given;
    memset(&given, 0, sizeof given);
    cs_app_replay_use_scenario(&rp, &sc->s[0], &given);
    struct cs_trace_options topt;
    cs_trace_options_default(&topt);
    struct cs_trace tr;
    cs_trace_init(&tr);
    char *tp = cs__path(ix, e->trace);
    cs_diags dd;
    cs_diags_init(&dd);
    cs_status st = cs_trace_load(tp, &topt, &tr, &dd);
    if (st == CS_OK && cs_diags_errors(&dd) == 0)
        st = cs_app_replay_run(&rp, &tr, &dd);
    else if (st == CS_OK)
        st = CS_ECONFIG;
    cs__keep_errors(&dd, d);
    cs_diags_fini(&dd);
    free(tp);
    if (st == CS_OK) {
        struct cs_claims_row *r = cs__row(rs, e, ddir);
        const struct cs_scn_scheduler *cl = rp.claim;
        if (!cl) {
            r->verdict = CS_CLAIMS_NOT_EXPRESSIBLE;
            snprintf(r->reason, sizeof r->reason, "the cluster scenario has no scheduler.claim");
        } else {
            struct cs_replay_verdict v;
            cs_out_replay_verdict(cl, &rp.cfg, &rp.res, rp.have_res2 ? &rp.cfg2 : NULL,
                                  rp.have_res2 ? &rp.res2 : NULL, &v);
            double tol = cl->claim_tolerance;
            if (cl->claim_compare == CS_SCN_COMPARE_PLACEMENT)
                snprintf(r->claimed, sizeof r->claimed, "packed mean JCT shorter than scattered by > %.0f%%",
                         100 * tol);
            else if (cl->claim_compare == CS_SCN_COMPARE_MIG)
                snprintf(r->claimed, sizeof r->claimed,
                         "busy share of allocated GPU time higher with MIG by > %.0f%%", 100 * tol);
            else
                snprintf(r->claimed, sizeof r->claimed, "each partition's share at its quota (+-%.0f points)",
                         100 * tol);
            /* the judge's line: "FIGURES: HOLDS (...)" or "FIGURES: DOES NOT HOLD, ..." */
            snprintf(r->simulated, sizeof r->simulated, "%s", v.line);
            char *cut = strstr(r->simulated, ": HOLDS");
            if (!cut)
                cut = strstr(r->simulated, ": DOES NOT HOLD");
            if (cut)
                *cut = '\0';
            snprintf(r->judge, sizeof r->judge, "%s", v.holds ? "holds" : "does not hold");
            r->verdict = v.holds ? CS_CLAIMS_SUPPORTED : CS_CLAIMS_CONTRADICTED;
        }
    }
    cs_trace_fini(&tr);
    cs_app_replay_fini(&rp);
    return st;
}

/* ------------------------------------------------------------------------ */

cs_status cs_app_claims_run(const struct cs_claimix *ix, const char *display_dir, const cs_catalog *cat,
                            const char *only, cs_diags *d, struct cs_claims_result *out)
{
    memset(out, 0, sizeof *out);
    if (only) {
        bool found = false;
        for (size_t i = 0; i < ix->n; i++)
            found |= strcmp(ix->e[i].id, only) == 0;
        if (!found) {
            char ids[1024];
            size_t len = 0;
            ids[0] = '\0';
            for (size_t i = 0; i < ix->n; i++) {
                if (i > 0 && strcmp(ix->e[i].id, ix->e[i - 1].id) == 0)
                    continue;
                int w = snprintf(ids + len, len < sizeof ids ? sizeof ids - len : 0, "%s%s", len ? ", " : "",
                                 ix->e[i].id);
                if (w > 0)
                    len += (size_t)w;
            }
            cs_diag_error(d, ix->path, 0, 0, "--only %s: no such claim in the index (its ids: %s)", only, ids);
            return CS_EINVAL;
        }
    }
    struct cs__rows rs = {NULL, 0, 0};
    struct cs__scns *sc = cs_xcalloc(1, sizeof *sc);
    cs_status st = CS_OK;
    for (size_t i = 0; i < ix->n && st == CS_OK; i++) {
        const struct cs_claimix_entry *e = &ix->e[i];
        if (only && strcmp(e->id, only) != 0)
            continue;
        if (e->cmd == CS_CLAIMIX_NONE) {
            struct cs_claims_row *r = cs__row(&rs, e, display_dir);
            r->verdict = CS_CLAIMS_NOT_EXPRESSIBLE;
            snprintf(r->reason, sizeof r->reason, "%s", e->not_expressible);
            continue;
        }
        /* an id with several entries: each row names its part (the
         * scenario's own claim text) */
        bool several = false;
        for (size_t k = 0; k < ix->n; k++)
            several |= k != i && strcmp(ix->e[k].id, e->id) == 0;
        st = cs__load(ix, e, cat, d, sc);
        if (st == CS_OK) {
            switch (e->cmd) {
            case CS_CLAIMIX_RUN: st = cs__run(sc, e, display_dir, several, d, &rs); break;
            case CS_CLAIMIX_COMPARE: st = cs__compare(sc, e, display_dir, several, d, &rs); break;
            case CS_CLAIMIX_TCO: st = cs__tco(sc, e, display_dir, d, &rs); break;
            case CS_CLAIMIX_TCO_TABLE: st = cs__tco_table(sc, e, display_dir, d, &rs); break;
            case CS_CLAIMIX_REPLAY: st = cs__replay(ix, sc, e, display_dir, d, &rs); break;
            case CS_CLAIMIX_NONE: break;
            }
        }
        if (st != CS_OK)
            cs_diag_error(d, ix->path, e->line, 0, "claim %s (%s): cannot be evaluated: %s", e->id,
                          cs_claimix_cmd_name(e->cmd), cs_strerror(st));
        cs__unload(sc);
    }
    free(sc);
    if (st != CS_OK) {
        free(rs.v);
        return st;
    }
    out->rows = rs.v;
    out->n = rs.n;
    return CS_OK;
}
