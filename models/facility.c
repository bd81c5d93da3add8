/* facility.c: nodes into racks, rack power and cooling, the power chain
 * (contract in clustersim/models/facility.h; equations and sources in
 * docs/run.md, "Facility"). */
#include "clustersim/models/facility.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *cs_cooling_name(enum cs_cooling c)
{
    static const char *const n[CS_COOLING_COUNT] = {"air", "rear-door", "liquid"};
    return (unsigned)c < CS_COOLING_COUNT ? n[c] : "?";
}

double cs_facility_default_rack_limit_w(enum cs_cooling c)
{
    switch (c) {
    case CS_COOLING_AIR: return 20e3;       /* conventional air: 15-20 kW per rack */
    case CS_COOLING_REAR_DOOR: return 55e3; /* active rear-door heat exchanger: 35-55 kW band */
    case CS_COOLING_LIQUID: return 130e3;   /* direct liquid: NVL72 racks ~120-132 kW */
    case CS_COOLING_COUNT: break;
    }
    return NAN;
}

/* PUE by cooling kind (docs/cost.md "PUE by cooling kind"). The site's
 * figure (scenarios/catalog/site.yaml: us-average 1.3, Uptime Institute
 * Global Data Center Survey 2024, new large builds; hyperscale 1.1) is an
 * air-cooled hall's. Rear-door heat exchangers reject the rack's heat into
 * the same chilled-water plant: the site figure (their published savings
 * are vendor figures without an independent measurement). Direct liquid
 * cooling takes the power chain's losses (1/eta - 1 + distribution) plus
 * a cooling overhead of 0.04: NREL's ESIF HPC data center, chiller-less
 * warm-water liquid cooling, trailing-twelve-month PUE 1.04 (Van Geet,
 * Sickinger, Carter, NREL/PR-2C00-70433, 2018), its whole overhead taken
 * as cooling; never above the site's air figure. */
#define CS_FAC_LIQUID_COOLING_OVERHEAD 0.04
double cs_facility_default_pue(enum cs_cooling c, double site_pue, double ups_efficiency,
                               double distribution_loss)
{
    double site = isfinite(site_pue) && site_pue >= 1 ? site_pue : 1.3;
    if (c != CS_COOLING_LIQUID)
        return site;
    double eta = isfinite(ups_efficiency) && ups_efficiency > 0 ? ups_efficiency : 0.96;
    double dist = isfinite(distribution_loss) && distribution_loss >= 0 ? distribution_loss : 0.02;
    double liquid = 1 + (1 / eta - 1) + dist + CS_FAC_LIQUID_COOLING_OVERHEAD;
    return liquid < site ? liquid : site;
}

/* Lumped thermal model of a rack over its cooling limit (docs/run.md,
 * "Thermal transient"). Constants and their sources: */
#define CS_FAC_INLET_C 25.0          /* supply air: NVIDIA/Vertiv ASME PUE study's 25 C, inside
                                      * ASHRAE TC9.9's recommended 18-27 C */
#define CS_FAC_THROTTLE_INLET_C 30.0 /* DGX H100 operating temperature 5-30 C (user guide):
                                      * full clocks are specified up to a 30 C inlet */
#define CS_FAC_KG_PER_GPU (130.45 / 8) /* DGX H100 130.45 kg (DGX B200 142.4 kg) */
#define CS_FAC_HW_J_PER_KG_K 600.0   /* estimate: a server's mix of steel (490), aluminium
                                      * (897), copper (385) and FR-4 */
#define CS_FAC_ROOM_HEIGHT_M 3.0     /* air above the rack's floor share */
#define CS_FAC_AIR_J_PER_M3_K (1.2 * 1005.0) /* air at 20 C: 1.2 kg/m^3 x 1,005 J/(kg K) */

void cs_facility_evaluate(const struct cs_cluster_cfg *c, struct cs_facility_cfg *f,
                          double server_power_multiplier, double pue)
{
    struct cs_facility_result *r = &f->res;
    memset(r, 0, sizeof *r);
    r->gpu_power_cap_w = NAN;
    int g = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
    double gpu_w = c->gpu.tdp_w;
    if (isfinite(c->gpu.power_limit_w) && c->gpu.power_limit_w > 0 && c->gpu.power_limit_w < gpu_w)
        gpu_w = c->gpu.power_limit_w;
    double mult = isfinite(server_power_multiplier) && server_power_multiplier >= 1 ? server_power_multiplier : 1.8;
    double node_w = isfinite(f->node_power_w) && f->node_power_w > 0 ? f->node_power_w : g * gpu_w * mult;
    if (!(isfinite(node_w) && node_w > 0))
        node_w = 0; /* no power figure: the cooling does not bind */
    double non_gpu_w = node_w - g * gpu_w;
    if (non_gpu_w < 0)
        non_gpu_w = 0;
    r->node_power_w = node_w;
    double limit = isfinite(f->rack_power_w) && f->rack_power_w > 0
                       ? f->rack_power_w
                       : cs_facility_default_rack_limit_w((enum cs_cooling)f->cooling);
    if (!(isfinite(limit) && limit > 0))
        limit = cs_facility_default_rack_limit_w(CS_COOLING_AIR);
    r->rack_limit_w = limit;
    int ru = f->rack_units > 0 ? f->rack_units : 42;
    int nu = f->node_units > 0 ? f->node_units : (g >= 8 ? 8 : g >= 4 ? 4 : 2);
    int nodes = c->nodes > 0 ? c->nodes : 1;
    int by_space = ru / nu;
    double fit = node_w > 0 ? limit / node_w : INFINITY;
    int by_cool = fit < 1e6 ? (int)floor(fit + 1e-9) : 1000000;
    int domain = c->gpu.scaleup_domain_gpus;
    bool rack_scale = domain > g && domain % g == 0;
    r->nodes_per_rack_space = rack_scale ? domain / g : by_space;
    r->nodes_per_rack_cooling = by_cool;
    int npr;
    if (rack_scale) {
        /* A rack-scale NVLink system (NVL72): the domain's nodes share one
         * rack by design, whatever the cooling allows. */
        npr = domain / g;
        snprintf(r->why, sizeof r->why, "%d-GPU NVLink domain: %d nodes per rack by design", domain, npr);
    } else if (f->racks > 0) {
        npr = (nodes + f->racks - 1) / f->racks;
        snprintf(r->why, sizeof r->why, "%d nodes over the %d racks available", nodes, f->racks);
    } else {
        npr = by_space < by_cool ? by_space : by_cool;
        if (npr < 1)
            npr = 1;
        snprintf(r->why, sizeof r->why, "%d node%s per rack: %s (space %d, cooling %d)", npr, npr == 1 ? "" : "s",
                 by_cool < by_space ? "the cooling limit" : "rack space", by_space, by_cool);
    }
    if (npr > nodes)
        npr = nodes;
    r->nodes_per_rack = npr;
    r->racks = (nodes + npr - 1) / npr;
    double rack_w = npr * node_w;
    /* A rack-scale system ships with the liquid cooling its rack needs
     * (GB200 NVL72: ~120-132 kW): unless a limit is given, liquid cooling
     * of such a rack is sized to it. */
    if (rack_scale && f->cooling == CS_COOLING_LIQUID && !(isfinite(f->rack_power_w) && f->rack_power_w > 0) &&
        limit < rack_w) {
        limit = rack_w;
        r->rack_limit_w = limit;
    }
    r->kw_per_rack = rack_w / 1000.0;
    r->it_power_w = nodes * node_w;
    r->cooling_ok = rack_w <= limit * (1 + 1e-9);
    r->time_to_throttle_s = r->time_to_throttle_air_s = INFINITY;
    r->sustained_clock_factor = 1;
    double kg = isfinite(f->node_mass_kg) && f->node_mass_kg > 0 ? f->node_mass_kg : g * CS_FAC_KG_PER_GPU;
    double fl0 = isfinite(f->floor_m2_per_rack) && f->floor_m2_per_rack > 0 ? f->floor_m2_per_rack : 2.8;
    double air_j_per_k = fl0 * CS_FAC_ROOM_HEIGHT_M * CS_FAC_AIR_J_PER_M3_K;
    r->thermal_mass_j_per_k = npr * kg * CS_FAC_HW_J_PER_KG_K + air_j_per_k;
    if (!r->cooling_ok) {
        /* The rack sheds at most `limit`: its GPUs settle at the power
         * that fits, the rest of each node drawing as before. */
        double per_node = limit / npr;
        double cap = (per_node - non_gpu_w) / g;
        r->gpu_power_cap_w = cap > 0 ? cap : 0;
        /* Before they do, the excess heat warms the rack and its air:
         * C dT/dt = P_rack - L from the supply temperature until the
         * inlet reaches the throttle inlet temperature. */
        r->excess_heat_w = rack_w - limit;
        double t0 = isfinite(f->inlet_temp_c) ? f->inlet_temp_c : CS_FAC_INLET_C;
        double t1 = isfinite(f->throttle_inlet_c) ? f->throttle_inlet_c : CS_FAC_THROTTLE_INLET_C;
        double margin = t1 - t0 > 0 ? t1 - t0 : 0;
        r->time_to_throttle_s = r->thermal_mass_j_per_k * margin / r->excess_heat_w;
        /* Khankari (ASHRAE Trans. 117(1), 2011): the room heats first at
         * the air's rate, then, as the racks' solid mass takes up heat,
         * decays towards the whole mass's rate: the two bound the time. */
        r->time_to_throttle_air_s = air_j_per_k * margin / r->excess_heat_w;
        r->sustained_clock_factor = gpu_w > 0 ? cbrt(r->gpu_power_cap_w / gpu_w) : 1;
    }
    double p = isfinite(pue) && pue >= 1 ? pue : 1.0;
    r->facility_power_w = r->it_power_w * p;
    double eta = isfinite(f->ups_efficiency) && f->ups_efficiency > 0 ? f->ups_efficiency : 0.96;
    double dist = isfinite(f->distribution_loss) && f->distribution_loss >= 0 ? f->distribution_loss : 0.02;
    r->ups_loss_w = r->it_power_w * (1 / eta - 1);
    r->distribution_loss_w = r->it_power_w * dist;
    r->cooling_power_w = r->facility_power_w - r->it_power_w - r->ups_loss_w - r->distribution_loss_w;
    if (r->cooling_power_w < 0)
        r->cooling_power_w = 0;
    double fl = isfinite(f->floor_m2_per_rack) && f->floor_m2_per_rack > 0 ? f->floor_m2_per_rack : 2.8;
    r->floor_m2 = r->racks * fl;
}
