/* api.c: the request entry point of libclustersim.so (api.h). Each command
 * loads its scenario as the command line does (cli/common.c: the catalog,
 * then the scenario with the "set" overrides), runs the app layer's
 * orchestration with the command's flags (from "options", by the flags'
 * long names and with the command line's defaults), and returns the object
 * the command prints with --format json, built by the same functions
 * (app/results_json.c). Diagnostics are collected, never printed. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/api/api.h"

#include "clustersim/app/collective_exp.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/plan.h"
#include "clustersim/app/results_json.h"
#include "clustersim/app/search.h"
#include "clustersim/app/sweep_run.h"
#include "clustersim/app/tco.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/base/numparse.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/config/plan.h"
#include "clustersim/config/sweep.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS__MAX_SETS 64
#define CS__MAX_OPTS 32

/* One request being answered. */
struct cs__req {
    const char *cmd;         /* "run", ... */
    cJSON *req;              /* the parsed request (owned) */
    const cJSON *opts;       /* "options" or NULL */
    char *optval[CS__MAX_OPTS]; /* option texts, owned; indexed like opts' children */
    cs_diags d;              /* everything reported */
    const char *display;     /* the scenario's (or plan's) name for diagnostics without a file */
    int bad_request;         /* the request itself is malformed */
};

static void cs__req_error(struct cs__req *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void cs__req_error(struct cs__req *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_diag_vadd(&r->d, CS_SEV_ERROR, NULL, 0, 0, fmt, ap);
    va_end(ap);
}

/* The key path a message starts with ("cluster.nodes: expected ..."), or
 * NULL: letters, digits, '_', '-', '.', '[' and ']' up to ": ". */
static cJSON *cs__key_of(const char *msg)
{
    size_t n = 0;
    while (msg[n] && (isalnum((unsigned char)msg[n]) || strchr("_-.[]", msg[n])))
        n++;
    if (n == 0 || msg[n] != ':' || msg[n + 1] != ' ' || !isalpha((unsigned char)msg[0]))
        return cJSON_CreateNull();
    char *k = cs_xstrndup(msg, n);
    cJSON *j = cJSON_CreateString(k);
    free(k);
    return j;
}

static cJSON *cs__diags_json(const cs_diags *d, const char *display)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < d->n; i++) {
        const struct cs_diag *dg = &d->items[i];
        cJSON *o = cJSON_CreateObject();
        const char *file = dg->file ? dg->file : display;
        cJSON_AddItemToObject(o, "file", file ? cJSON_CreateString(file) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "line", dg->line > 0 ? cJSON_CreateNumber(dg->line) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "column", dg->col > 0 ? cJSON_CreateNumber(dg->col) : cJSON_CreateNull());
        /* a key only in the messages about an input (config's: they carry
         * their file), not in the commands' own */
        cJSON_AddItemToObject(o, "key", dg->file ? cs__key_of(dg->msg) : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "severity", cs_severity_name(dg->sev));
        cJSON_AddStringToObject(o, "message", dg->msg);
        cJSON_AddItemToArray(arr, o);
    }
    if (d->truncated) {
        cJSON *o = cJSON_CreateObject();
        char msg[160];
        snprintf(msg, sizeof msg, "too many errors (%zu in all); only the first %zu are shown", d->n_errors, d->n);
        cJSON_AddNullToObject(o, "file");
        cJSON_AddNullToObject(o, "line");
        cJSON_AddNullToObject(o, "column");
        cJSON_AddNullToObject(o, "key");
        cJSON_AddStringToObject(o, "severity", "note");
        cJSON_AddStringToObject(o, "message", msg);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The response; takes result (NULL: null). */
static char *cs__response(struct cs__req *r, bool ok, cJSON *result)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", ok);
    cJSON_AddItemToObject(o, "result", result ? result : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "diagnostics", cs__diags_json(&r->d, r->display));
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s ? s : cs_xstrdup("{\"ok\":false,\"result\":null,\"diagnostics\":[]}");
}

/* A JSON value as the text a flag or --set would carry: a string as it is,
 * a whole number without decimals, true as "true", anything else as JSON
 * (flow YAML). Heap string. */
static char *cs__value_text(const cJSON *v)
{
    if (cJSON_IsString(v))
        return cs_xstrdup(v->valuestring);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble == floor(v->valuedouble) &&
        fabs(v->valuedouble) < 9e15)
        return cs_xasprintf("%.0f", v->valuedouble);
    char *s = cJSON_PrintUnformatted(v);
    return s ? s : cs_xstrdup("");
}

/* Checks "options" against the command's flags; false (an error) for an
 * unknown one or a value that is not a string, number or boolean. */
static bool cs__check_opts(struct cs__req *r, const char *const *names)
{
    const cJSON *o = r->opts;
    if (!o)
        return true;
    if (!cJSON_IsObject(o)) {
        cs__req_error(r, "request: \"options\" must be an object");
        r->bad_request = 1;
        return false;
    }
    int i = 0;
    for (const cJSON *c = o->child; c; c = c->next, i++) {
        if (i >= CS__MAX_OPTS) {
            cs__req_error(r, "request: more than %d options", CS__MAX_OPTS);
            r->bad_request = 1;
            return false;
        }
        bool known = false;
        for (size_t k = 0; names[k]; k++)
            if (strcmp(c->string, names[k]) == 0)
                known = true;
        if (!known) {
            char list[512] = "";
            for (size_t k = 0; names[k]; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", names[k]);
            cs__req_error(r, "%s: unknown option \"%s\" (expected %s)", r->cmd, c->string, list);
            r->bad_request = 1;
            return false;
        }
        if (!(cJSON_IsString(c) || cJSON_IsNumber(c) || cJSON_IsBool(c) || cJSON_IsNull(c))) {
            cs__req_error(r, "%s: option \"%s\": expected a string, a number or true/false", r->cmd, c->string);
            r->bad_request = 1;
            return false;
        }
        /* false and null: the flag is absent */
        r->optval[i] = cJSON_IsFalse(c) || cJSON_IsNull(c) ? NULL
                       : cJSON_IsTrue(c)                    ? cs_xstrdup("1")
                                                            : cs__value_text(c);
    }
    return true;
}

/* The text of option `name`, NULL when absent (as cs_cli_get). */
static const char *cs__opt(const struct cs__req *r, const char *name)
{
    if (!r->opts)
        return NULL;
    int i = 0;
    for (const cJSON *c = r->opts->child; c && i < CS__MAX_OPTS; c = c->next, i++)
        if (strcmp(c->string, name) == 0)
            return r->optval[i];
    return NULL;
}

static const char *cs__opt_cb(void *ctx, const char *name)
{
    return cs__opt(ctx, name);
}

/* A whole-number option in [lo, hi]; *out unchanged when absent. */
static bool cs__opt_long(struct cs__req *r, const char *name, long lo, long hi, long *out)
{
    const char *v = cs__opt(r, name);
    if (!v)
        return true;
    if (!cs_num_parse_long(v, 10, lo, hi, out)) {
        cs__req_error(r, "%s: %s: expected a whole number from %ld to %ld, got \"%s\"", r->cmd, name, lo, hi, v);
        return false;
    }
    return true;
}

static const char *cs__str(const cJSON *req, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(req, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* $CLUSTERSIM_MAX_EVENTS, as the command line reads it (0: unset or bad). */
static uint64_t cs__max_events(void)
{
    const char *v = getenv("CLUSTERSIM_MAX_EVENTS");
    if (!v || !*v || v[0] == '-')
        return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    return errno || *end ? 0 : (uint64_t)n;
}

/* The "set" overrides (as --set KEY=VALUE, in order). */
struct cs__sets {
    struct cs_cfg_override ov[CS__MAX_SETS];
    char *vals[CS__MAX_SETS], *names[CS__MAX_SETS];
    size_t n;
};

static void cs__sets_fini(struct cs__sets *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->vals[i]), free(s->names[i]);
    s->n = 0;
}

static bool cs__sets_init(struct cs__req *r, struct cs__sets *s)
{
    memset(s, 0, sizeof *s);
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(r->req, "set");
    if (!set || cJSON_IsNull(set))
        return true;
    if (!cJSON_IsObject(set)) {
        cs__req_error(r, "request: \"set\" must be an object of key paths and values");
        r->bad_request = 1;
        return false;
    }
    for (const cJSON *c = set->child; c; c = c->next) {
        if (s->n >= CS__MAX_SETS) {
            cs__req_error(r, "set: more than %d overrides", CS__MAX_SETS);
            cs__sets_fini(s);
            return false;
        }
        size_t i = s->n++;
        s->vals[i] = cs__value_text(c);
        s->names[i] = cs_xasprintf("set %s=%s", c->string, s->vals[i]);
        s->ov[i] = (struct cs_cfg_override){c->string, s->vals[i], s->names[i], 0, 0};
    }
    return true;
}

/* A loaded catalog and scenario (cli/common.c's cs_cli_scenario). */
struct cs__scen {
    cs_catalog *catalog;
    struct cs_scenario scenario;
    struct cs_provenance prov;
    bool loaded;
};

static void cs__scen_fini(struct cs__scen *sc)
{
    if (sc->loaded) {
        cs_scenario_fini(&sc->scenario);
        cs_provenance_fini(&sc->prov);
    }
    cs_catalog_destroy(sc->catalog);
    memset(sc, 0, sizeof *sc);
}

static bool cs__load_catalog(struct cs__req *r, cs_catalog **out)
{
    const char *cdir = cs__str(r->req, "catalog");
    const char *dir = cdir ? cdir : cs_catalog_default_dir();
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_catalog_load_dir(dir, &d, out);
    for (size_t i = 0; i < d.n; i++)
        cs_diag_add(&r->d, d.items[i].sev, d.items[i].file ? d.items[i].file : dir, d.items[i].line,
                    d.items[i].col, "%s", d.items[i].msg);
    cs_diags_fini(&d);
    if (st != CS_OK) {
        cs_diag_error(&r->d, dir, 0, 0, "cannot load the hardware catalog from %s: %s", dir, cs_strerror(st));
        *out = NULL;
        return false;
    }
    return true;
}

/* "scenario": a path, or "scenario_text" with "name": the text. */
static bool cs__load_scenario(struct cs__req *r, struct cs__scen *sc)
{
    memset(sc, 0, sizeof *sc);
    const char *path = cs__str(r->req, "scenario");
    const char *text = cs__str(r->req, "scenario_text");
    const char *name = cs__str(r->req, "name");
    if (!path == !text) {
        cs__req_error(r, "request: give \"scenario\" (a path) or \"scenario_text\" (the text), not %s",
                      path ? "both" : "neither");
        r->bad_request = 1;
        return false;
    }
    if (text && !name)
        name = "<text>";
    r->display = path ? cs_path_display(path) : name;
    struct cs__sets sets;
    if (!cs__sets_init(r, &sets))
        return false;
    if (!cs__load_catalog(r, &sc->catalog)) {
        cs__sets_fini(&sets);
        return false;
    }
    cs_provenance_init(&sc->prov);
    cs_status st = text ? cs_cfg_load_scenario_buffer_with(name, text, strlen(text), sets.ov, sets.n,
                                                           sc->catalog, &r->d, &sc->scenario, &sc->prov)
                        : cs_cfg_load_scenario_with(path, sets.ov, sets.n, sc->catalog, &r->d,
                                                    &sc->scenario, &sc->prov);
    cs__sets_fini(&sets);
    if (st != CS_OK) {
        if (st == CS_EIO)
            cs_diag_error(&r->d, r->display, 0, 0, "cannot read %s", r->display);
        else if (cs_diags_errors(&r->d) == 0)
            cs_diag_error(&r->d, r->display, 0, 0, "the scenario does not load: %s", cs_strerror(st));
        cs_provenance_fini(&sc->prov);
        cs_catalog_destroy(sc->catalog);
        sc->catalog = NULL;
        return false;
    }
    sc->loaded = true;
    return true;
}

/* A failed stage with no error of its own gets one naming the status. */
static void cs__ensure_error(struct cs__req *r, cs_status st)
{
    if (cs_diags_errors(&r->d) == 0)
        cs__req_error(r, "%s: %s", r->cmd, cs_strerror(st));
}

/* ---- run ---- */

static cJSON *cs__run(struct cs__req *r)
{
    static const char *const names[] = {"uncertainty", "jobs", NULL};
    if (!cs__check_opts(r, names))
        return NULL;
    long jobs = 2;
    if (!cs__opt_long(r, "jobs", 1, CS_UNC_MAX_THREADS, &jobs))
        return NULL;
    struct cs__scen sc;
    if (!cs__load_scenario(r, &sc))
        return NULL;
    const struct cs_scenario *s = &sc.scenario;
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.threads = (int)jobs;
    eo.quiet_nofit = true;
    eo.max_events = cs__max_events();
    struct cs_app_result res;
    cs_status st = cs_app_evaluate(s, &eo, &r->d, &res);
    cJSON *out = NULL;
    if (st != CS_OK && st != CS_ENOFIT) {
        cs__ensure_error(r, st);
    } else {
        struct cs_app_uncertainty unc;
        memset(&unc, 0, sizeof unc);
        bool have_unc = false, failed = false;
        if (cs__opt(r, "uncertainty")) {
            if (!res.has_step || !res.step.fits) {
                cs_diag_add(&r->d, CS_SEV_WARNING, NULL, 0, 0, "uncertainty: %s",
                            res.has_step ? "the configuration does not fit: no intervals"
                                         : "the scenario has no workload: no intervals");
            } else {
                struct cs_unc_spec spec;
                cs_app_unc_spec(sc.catalog, s, &spec);
                cs_status ust = cs_app_uncertainty(s, &res.step, &spec, s->uncertainty.samples, (int)jobs, NULL,
                                                   NULL, &r->d, &unc);
                if (ust != CS_OK) {
                    cs__ensure_error(r, ust);
                    failed = true;
                } else {
                    have_unc = true;
                }
            }
        }
        if (!failed)
            out = cs_app_run_json(s, r->display, &res, have_unc ? &unc : NULL);
        cs_app_uncertainty_fini(&unc);
    }
    cs_app_result_fini(&res);
    cs__scen_fini(&sc);
    return out;
}

/* ---- search ---- */

static cJSON *cs__search(struct cs__req *r)
{
    static const char *const names[] = {"top", "unfit", "fix", "jobs", NULL};
    if (!cs__check_opts(r, names))
        return NULL;
    long top = 20;
    if (!cs__opt_long(r, "top", 0, LONG_MAX, &top))
        return NULL;
    struct cs_app_search_opts sopt;
    cs_app_search_opts_default(&sopt);
    sopt.top = (size_t)top;
    sopt.space.include_unfit = cs__opt(r, "unfit") != NULL;
    long j = sopt.space.threads;
    if (!cs__opt_long(r, "jobs", 1, CS_SEARCH_MAX_THREADS, &j))
        return NULL;
    sopt.space.threads = (int)j;
    const char *fix = cs__opt(r, "fix");
    char bad[64];
    if (fix && !cs_app_search_fix(fix, &sopt.space, bad, sizeof bad)) {
        cs__req_error(r, "search: fix: unknown key \"%s\" (expected tp, pp, cp, vp, mb, fsdp, recompute or ep)",
                      bad);
        return NULL;
    }
    struct cs__scen sc;
    if (!cs__load_scenario(r, &sc))
        return NULL;
    struct cs_app_search sr;
    cs_status st = cs_app_search(&sc.scenario, &sopt, &r->d, &sr);
    cJSON *out = NULL;
    if (st != CS_OK && st != CS_ENOFIT) {
        cs__ensure_error(r, st);
    } else {
        if (st == CS_ENOFIT)
            cs_diag_add(&r->d, CS_SEV_WARNING, NULL, 0, 0,
                        "search: no configuration of %s fits on %ld x %s (%zu considered, %zu invalid, %zu do "
                        "not fit)", sc.scenario.workload.model.name,
                        cs_job_gpus(&sc.scenario.cluster, &sc.scenario.workload), sc.scenario.cluster.gpu.name,
                        sr.res.considered, sr.res.invalid, sr.res.unfit);
        out = cs_app_search_json(&sc.scenario, sc.catalog, &sr);
    }
    cs_app_search_fini(&sr);
    cs__scen_fini(&sc);
    return out;
}

/* ---- collective ---- */

static cJSON *cs__collective(struct cs__req *r)
{
    static const char *const names[] = {"minbytes", "maxbytes", "stepfactor", "stepbytes", "ngpus",
                                        "nthreads", "ranks",    "op",         "redop",     "datatype",
                                        "root",     "algo",     "placement",  "flow",      NULL};
    if (!cs__check_opts(r, names))
        return NULL;
    struct cs_app_coll_req q;
    struct cs_app_coll_labels lab;
    char err[512];
    if (cs_app_coll_parse(cs__opt_cb, r, false, &q, &lab, err, sizeof err) != CS_OK) {
        cs__req_error(r, "collective: %s", err);
        return NULL;
    }
    struct cs__scen sc;
    if (!cs__load_scenario(r, &sc))
        return NULL;
    struct cs_app_coll res;
    cs_status st = cs_app_coll_setup(&sc.scenario, &q, &res);
    if (st == CS_OK)
        st = cs_app_coll_run(&sc.scenario, &q, &res);
    cJSON *out = NULL;
    if (st != CS_OK) {
        for (size_t i = 0; i < res.diags.n; i++) {
            const struct cs_diag *dg = &res.diags.items[i];
            if (dg->file)
                cs_diag_add(&r->d, dg->sev, dg->file, dg->line, dg->col, "%s", dg->msg);
            else
                cs_diag_add(&r->d, dg->sev, NULL, 0, 0, "collective: %s", dg->msg);
        }
        cs__ensure_error(r, st);
    } else {
        out = cs_app_coll_json(&sc.scenario, r->display, &q, &lab, &res);
    }
    cs_app_coll_fini(&res);
    cs__scen_fini(&sc);
    return out;
}

/* ---- tco ---- */

static cJSON *cs__tco(struct cs__req *r)
{
    static const char *const names[] = {"sensitivity", "samples", "only-priced", "uncertainty",
                                        "no-run-model", NULL};
    if (!cs__check_opts(r, names))
        return NULL;
    double step = NAN;
    const char *sv = cs__opt(r, "sensitivity");
    if (sv) {
        char e[256];
        if (cs_units_parse(sv, CS_UNIT_RATIO, &step, e, sizeof e) != CS_OK || !(step > 0) || step >= 1) {
            cs__req_error(r, "tco: sensitivity: expected a step like 0.2 or 20%%, got \"%s\"", sv);
            return NULL;
        }
    }
    long samples = -1;
    if (!cs__opt_long(r, "samples", 0, 1000000, &samples))
        return NULL;
    struct cs__scen sc;
    if (!cs__load_scenario(r, &sc))
        return NULL;
    const struct cs_scenario *s = &sc.scenario;
    struct cs_app_eval_opts eo; /* cli/cmd_tco.c's tco_eval_opts */
    cs_app_eval_opts_default(&eo);
    eo.goal = CS_APP_GOAL_COST;
    eo.run = cs__opt(r, "no-run-model") == NULL;
    eo.only_priced = cs__opt(r, "only-priced") != NULL;
    eo.threads = 2;
    eo.max_events = cs__max_events();
    struct cs_app_result res;
    cs_status st = cs_app_evaluate(s, &eo, &r->d, &res);
    cJSON *out = NULL;
    if (st != CS_OK) {
        if (res.failed == CS_APP_STAGE_COST && st == CS_ECONFIG)
            cs__req_error(r, "tco: give the missing prices in the scenario's cost: section, or pass "
                             "only_priced=True");
        cs__ensure_error(r, st);
        cs_app_result_fini(&res);
        cs__scen_fini(&sc);
        return NULL;
    }
    struct cs_tco_report *rep = cs_xcalloc(1, sizeof *rep);
    int n_mc = samples >= 0 ? (int)samples : s->cost.ext.monte_carlo;
    if (n_mc > 0 && s->cost.ext.n_ranges == 0)
        cs_diag_add(&r->d, CS_SEV_WARNING, NULL, 0, 0,
                    "tco: Monte Carlo asked for but cost.ranges is empty: skipped");
    cs_app_tco_report(sc.catalog, &sc.prov, s, &res, isfinite(step) ? step : s->cost.ext.sensitivity,
                      n_mc, &r->d, rep);
    struct cs_app_cost_unc *cu = NULL;
    if (cs__opt(r, "uncertainty") && res.has_cost) {
        cu = cs_xcalloc(1, sizeof *cu);
        if (cs_app_cost_uncertainty(s, res.cost_in, res.cost, s->uncertainty.samples, cu) != CS_OK) {
            cs_diag_add(&r->d, CS_SEV_WARNING, NULL, 0, 0, "tco: uncertainty: no priced input to vary");
            free(cu);
            cu = NULL;
        }
    }
    out = cs_app_tco_json(s, r->display, rep, cu, res.cost);
    free(cu);
    free(rep);
    cs_app_result_fini(&res);
    cs__scen_fini(&sc);
    return out;
}

/* ---- plan ---- */

static cJSON *cs__plan(struct cs__req *r)
{
    static const char *const names[] = {"jobs", "replicas", "uncertainty", "all", NULL};
    if (!cs__check_opts(r, names))
        return NULL;
    const char *path = cs__str(r->req, "plan");
    if (!path) {
        cs__req_error(r, "request: plan: give \"plan\", the plan file's path");
        r->bad_request = 1;
        return NULL;
    }
    r->display = cs_path_display(path);
    struct cs_app_plan_opts po;
    cs_app_plan_opts_default(&po);
    long j = po.threads, rep = 0;
    if (!cs__opt_long(r, "jobs", 1, CS_PLAN_MAX_THREADS, &j) || !cs__opt_long(r, "replicas", 1, 100000, &rep))
        return NULL;
    po.threads = (int)j;
    if (rep > 0)
        po.replicas = (int)rep;
    po.uncertainty = cs__opt(r, "uncertainty") != NULL;
    bool all = cs__opt(r, "all") != NULL;
    struct cs__sets sets;
    if (!cs__sets_init(r, &sets))
        return NULL;
    cs_catalog *cat = NULL;
    cs_plan *p = NULL;
    cJSON *out = NULL;
    if (cs__load_catalog(r, &cat) && cs_plan_load(path, sets.ov, sets.n, &r->d, &p) == CS_OK) {
        struct cs_app_plan res;
        cs_status st = cs_app_plan(p, cat, &po, &r->d, &res);
        if (st == CS_OK)
            out = cs_app_plan_json(&res, all);
        else
            cs__ensure_error(r, st);
        cs_app_plan_fini(&res);
    } else {
        cs__ensure_error(r, CS_ECONFIG);
    }
    cs__sets_fini(&sets);
    cs_plan_destroy(p);
    cs_catalog_destroy(cat);
    return out;
}

/* ---- entry points ---- */

static int cs__answer(struct cs__req *r, cJSON *result, char **response_json)
{
    /* A result is a success, as the command line prints its JSON and the
     * diagnostics beside it (a claim that cannot be judged, a price left
     * out); every failure above returns no result. */
    bool ok = result != NULL;
    *response_json = cs__response(r, ok, result);
    return ok ? 0 : r->bad_request ? 2 : 1;
}

static void cs__req_fini(struct cs__req *r)
{
    for (int i = 0; i < CS__MAX_OPTS; i++)
        free(r->optval[i]);
    cJSON_Delete(r->req);
    cs_diags_fini(&r->d);
}

/* Parses the request; false (an error in r->d) when it is not an object. */
static bool cs__req_init(struct cs__req *r, const char *request_json)
{
    memset(r, 0, sizeof *r);
    cs_diags_init(&r->d);
    r->cmd = "request";
    r->req = request_json ? cJSON_Parse(request_json) : NULL;
    if (!cJSON_IsObject(r->req)) {
        cs__req_error(r, "request: expected a JSON object (api.h)");
        r->bad_request = 1;
        return false;
    }
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(r->req, "options");
    r->opts = cJSON_IsNull(o) ? NULL : o;
    return true;
}

int cs_api_call(const char *request_json, char **response_json)
{
    struct cs__req r;
    cJSON *result = NULL;
    if (cs__req_init(&r, request_json)) {
        static const struct {
            const char *name;
            cJSON *(*fn)(struct cs__req *);
        } cmds[] = {{"run", cs__run},   {"search", cs__search}, {"collective", cs__collective},
                    {"tco", cs__tco},   {"plan", cs__plan}};
        const char *c = cs__str(r.req, "command");
        size_t k = 0;
        while (c && k < sizeof cmds / sizeof cmds[0] && strcmp(cmds[k].name, c) != 0)
            k++;
        if (!c || k == sizeof cmds / sizeof cmds[0]) {
            cs__req_error(&r, "request: \"command\": expected run, search, collective, tco or plan%s%s%s",
                          c ? ", got \"" : "", c ? c : "", c ? "\"" : "");
            r.bad_request = 1;
        } else {
            r.cmd = cmds[k].name;
            result = cmds[k].fn(&r);
        }
    }
    int rc = cs__answer(&r, result, response_json);
    cs__req_fini(&r);
    return rc;
}

void cs_api_free(char *s)
{
    free(s);
}

const char *cs_api_version(void)
{
#define CS__STR2(x) #x
#define CS__STR(x) CS__STR2(x)
    return CLUSTERSIM_VERSION " " CS__STR(CS_API_VERSION);
}

/* ---- sweeps ---- */

struct cs_api_sweep {
    cs_catalog *cat;
    cs_sweep *sw;
    struct cs_sweep_table t;
};

int cs_api_sweep_open(const char *request_json, cs_api_sweep **out, char **response_json)
{
    *out = NULL;
    struct cs__req r;
    cJSON *result = NULL;
    if (cs__req_init(&r, request_json)) {
        r.cmd = "sweep";
        const char *path = cs__str(r.req, "sweep");
        if (!path) {
            cs__req_error(&r, "request: sweep: give \"sweep\", the sweep file's path");
            r.bad_request = 1;
        } else {
            r.display = path;
            cs_api_sweep *h = cs_xcalloc(1, sizeof *h);
            if (cs__load_catalog(&r, &h->cat) && cs_sweep_load(path, &r.d, &h->sw) == CS_OK &&
                cs_sweep_check(h->sw, h->cat, &r.d) == CS_OK) {
                cs_sweep_table_init(&h->t, h->sw);
                result = cJSON_CreateObject();
                cJSON_AddStringToObject(result, "sweep", path);
                cJSON_AddNumberToObject(result, "points", (double)h->t.points);
                char hash[20];
                snprintf(hash, sizeof hash, "%016llx", (unsigned long long)h->t.hash);
                cJSON_AddStringToObject(result, "hash", hash);
                cJSON *cols = cJSON_AddArrayToObject(result, "columns");
                for (size_t i = 0; i < h->t.ncols; i++)
                    cJSON_AddItemToArray(cols, cJSON_CreateString(h->t.cols[i]));
                *out = h;
            } else {
                cs__ensure_error(&r, CS_ECONFIG);
                cs_sweep_destroy(h->sw);
                cs_catalog_destroy(h->cat);
                free(h);
            }
        }
    }
    int rc = cs__answer(&r, result, response_json);
    cs__req_fini(&r);
    return rc;
}

char *cs_api_sweep_row(cs_api_sweep *h, uint64_t i)
{
    if (!h || i >= h->t.points)
        return NULL;
    char *row = cs_sweep_eval(h->sw, &h->t, h->cat, i);
    size_t n = row ? strlen(row) : 0;
    if (n && row[n - 1] == '\n')
        row[n - 1] = '\0';
    return row;
}

void cs_api_sweep_close(cs_api_sweep *h)
{
    if (!h)
        return;
    cs_sweep_table_fini(&h->t);
    cs_sweep_destroy(h->sw);
    cs_catalog_destroy(h->cat);
    free(h);
}
