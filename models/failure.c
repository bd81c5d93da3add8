/* failure.c: failure classes, their rates and draws (models layer), and the
 * default classes derived from the Llama 3 405B interruption table. See
 * failure.h and docs/run.md. */
#include "clustersim/models/failure.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Dubey et al. 2024, Table 5 (unexpected interruptions in a 54-day snapshot
 * of Llama 3 405B pre-training); the counts sum to 419. GPU classes fail
 * per GPU; the rest per node, as Kokolis et al. (HPCA 2025) model a job's
 * failures (nodes in series). Hardware that takes a server out of service
 * is `replace`; software, network-path and watchdog interruptions restart
 * the job on the same nodes. */
static const struct cs_fail_llama3_row llama3_rows[] = {
    {"Faulty GPU", "gpu", CS_SCOPE_GPU, 148, true},
    {"GPU HBM3 memory", "gpu-hbm", CS_SCOPE_GPU, 72, true},
    {"Software bug", "software", CS_SCOPE_NODE, 54, false},
    {"Network switch/cable", "network", CS_SCOPE_NODE, 35, false},
    {"Host maintenance", "host-maintenance", CS_SCOPE_NODE, 32, true},
    {"GPU SRAM memory", "gpu-sram", CS_SCOPE_GPU, 19, true},
    {"GPU system processor", "gpu-gsp", CS_SCOPE_GPU, 17, true},
    {"NIC", "nic", CS_SCOPE_NODE, 7, true},
    {"NCCL watchdog timeouts", "nccl-watchdog", CS_SCOPE_NODE, 7, false},
    {"Silent data corruption", "gpu-sdc", CS_SCOPE_GPU, 6, true},
    {"GPU thermal interface + sensor", "gpu-thermal", CS_SCOPE_GPU, 6, true},
    {"SSD", "ssd", CS_SCOPE_NODE, 3, true},
    {"Power supply", "power-supply", CS_SCOPE_NODE, 3, true},
    {"Server chassis", "chassis", CS_SCOPE_NODE, 2, true},
    {"IO expansion board", "io-board", CS_SCOPE_NODE, 2, true},
    {"Dependency", "dependency", CS_SCOPE_NODE, 2, false},
    {"CPU", "cpu", CS_SCOPE_NODE, 2, true},
    {"System memory", "host-memory", CS_SCOPE_NODE, 2, true},
};

const struct cs_fail_llama3_row *cs_fail_llama3_table(int *n)
{
    *n = (int)(sizeof llama3_rows / sizeof llama3_rows[0]);
    return llama3_rows;
}

void cs_fail_llama3_defaults(struct cs_failures_cfg *f)
{
    int n;
    const struct cs_fail_llama3_row *t = cs_fail_llama3_table(&n);
    double span_s = CS_FAIL_LLAMA3_DAYS * 86400.0;
    memset(f->components, 0, sizeof f->components);
    for (int i = 0; i < n && i < CS_MAX_FAIL_COMPONENTS; i++) {
        struct cs_fail_component *c = &f->components[i];
        snprintf(c->name, sizeof c->name, "%s", t[i].name);
        c->scope = t[i].scope;
        double units = t[i].scope == CS_SCOPE_GPU ? CS_FAIL_LLAMA3_GPUS : CS_FAIL_LLAMA3_NODES;
        c->mtbf_s = units * span_s / t[i].interruptions;
        c->dist = CS_DIST_EXPONENTIAL;
        c->shape = 1.0;
        c->replace = t[i].replace;
        c->preemption = false;
        c->repair_s = NAN;
    }
    f->n_components = n;
    f->defaults = true;
}

long cs_fail_scope_units(enum cs_fail_scope scope, long gpus, long nodes, long switches)
{
    switch (scope) {
    case CS_SCOPE_GPU: return gpus;
    case CS_SCOPE_NODE: return nodes;
    case CS_SCOPE_SWITCH: return switches;
    case CS_SCOPE_JOB: return 1;
    case CS_SCOPE_RACK: return nodes;
    case CS_SCOPE_LEAF: return switches;
    case CS_SCOPE_SPINE: return 0;
    case CS_SCOPE_STORAGE: return 1;
    }
    return 0;
}

long cs_fail_units(const struct cs_failures_cfg *f, enum cs_fail_scope scope, long gpus, long nodes,
                   long switches)
{
    if (scope == CS_SCOPE_RACK) {
        long npr = f && f->nodes_per_rack > 0 ? f->nodes_per_rack : 1;
        return (nodes + npr - 1) / npr;
    }
    return cs_fail_scope_units(scope, gpus, nodes, switches);
}

long cs_fail_nodes_out(const struct cs_failures_cfg *f, enum cs_fail_scope scope)
{
    if (scope == CS_SCOPE_RACK)
        return f && f->nodes_per_rack > 0 ? f->nodes_per_rack : 1;
    return scope == CS_SCOPE_GPU || scope == CS_SCOPE_NODE ? 1 : 0;
}

double cs_fail_job_mtbi_s(const struct cs_failures_cfg *f, long gpus, long nodes, long switches)
{
    /* the same units as cs_fail_units: no leaves or spines without a
     * topology (0 units), racks of f's nodes_per_rack */
    struct cs_fail_domains d = {gpus, nodes, switches, 0, 0, 0, f->nodes_per_rack};
    return cs_fail_domain_mtbi_s(f, &d);
}

static const char *const scope_names[CS_FAIL_N_SCOPES] = {"gpu",  "node", "switch", "job",
                                                          "rack", "leaf", "spine",  "storage"};

const char *cs_fail_scope_name(enum cs_fail_scope scope)
{
    return (int)scope >= 0 && (int)scope < CS_FAIL_N_SCOPES ? scope_names[scope] : "?";
}

bool cs_fail_interrupts(const struct cs_fail_component *c) { return c->scope != CS_SCOPE_STORAGE; }

long cs_fail_domain_units(const struct cs_fail_domains *d, enum cs_fail_scope scope)
{
    switch (scope) {
    case CS_SCOPE_GPU: return d->gpus;
    case CS_SCOPE_NODE: return d->nodes;
    case CS_SCOPE_SWITCH: return d->switches;
    case CS_SCOPE_JOB: return 1;
    case CS_SCOPE_RACK: {
        long npr = d->nodes_per_rack > 0 ? d->nodes_per_rack : 1;
        return (d->nodes + npr - 1) / npr;
    }
    case CS_SCOPE_LEAF: return d->leaves;
    case CS_SCOPE_SPINE: return d->spines;
    case CS_SCOPE_STORAGE: return 1;
    }
    return 0;
}

long cs_fail_domain_nodes_out(const struct cs_fail_domains *d, enum cs_fail_scope scope)
{
    long n = 0;
    if (scope == CS_SCOPE_GPU || scope == CS_SCOPE_NODE)
        n = 1;
    else if (scope == CS_SCOPE_RACK)
        n = d->nodes_per_rack > 0 ? d->nodes_per_rack : 1;
    else if (scope == CS_SCOPE_LEAF)
        n = d->nodes_per_leaf > 0 ? d->nodes_per_leaf : 1;
    return n > d->nodes && d->nodes > 0 ? d->nodes : n;
}

double cs_fail_domain_mtbi_s(const struct cs_failures_cfg *f, const struct cs_fail_domains *d)
{
    if (!f->enabled)
        return INFINITY;
    double rate = 0;
    for (int i = 0; i < f->n_components; i++) {
        const struct cs_fail_component *c = &f->components[i];
        if (cs_fail_interrupts(c))
            rate += (double)cs_fail_domain_units(d, c->scope) / c->mtbf_s;
    }
    return rate > 0 ? 1.0 / rate : INFINITY;
}

double cs_fail_weibull_scale_s(double mtbf_s, double shape)
{
    /* Mean of Weibull(scale l, shape k) is l * Gamma(1 + 1/k). */
    return mtbf_s / gsl_sf_gamma(1.0 + 1.0 / shape);
}

double cs_fail_draw_s(const struct cs_fail_component *c, gsl_rng *r)
{
    if (c->dist == CS_DIST_WEIBULL && c->shape != 1.0)
        return gsl_ran_weibull(r, cs_fail_weibull_scale_s(c->mtbf_s, c->shape), c->shape);
    return gsl_ran_exponential(r, c->mtbf_s);
}
