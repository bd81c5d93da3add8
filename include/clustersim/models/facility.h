/* facility.h: the cluster in the building (models layer, models/facility.c;
 * equations and sources in docs/run.md, "Facility"): nodes into racks by
 * rack space and the rack's cooling limit (air, rear-door heat exchanger or
 * direct liquid), rack count and floor space, IT and facility power through
 * the power chain, and the GPU power cap a rack over its cooling limit
 * imposes (its clocks then follow cs_gpu_clock_factor). Pure functions of
 * the cluster and the facility's settings. */
#ifndef CLUSTERSIM_MODELS_FACILITY_H
#define CLUSTERSIM_MODELS_FACILITY_H

#include "clustersim/models/scenario.h"

enum cs_cooling { CS_COOLING_AIR, CS_COOLING_REAR_DOOR, CS_COOLING_LIQUID, CS_COOLING_COUNT };
/* "air", "rear-door", "liquid" (the contract's facility.cooling names). */
const char *cs_cooling_name(enum cs_cooling c);

/* Sourced default heat a rack of each cooling kind removes (W): air 20 kW
 * (conventional raised floor or containment-free hall, 15-20 kW), rear-door
 * 55 kW (active RDHx, HPE/Motivair 35-55 kW band), direct liquid 130 kW
 * (GB200 NVL72 racks at about 120-132 kW). docs/run.md "Facility". */
double cs_facility_default_rack_limit_w(enum cs_cooling c);

/* The PUE a site of cooling kind c has when cost.pue is not given:
 * site_pue (the catalog site's air-cooled figure) for air and rear-door,
 * for direct liquid 1 + (1/ups_efficiency - 1) + distribution_loss + 0.04
 * (NREL ESIF's measured liquid-cooled overhead), never above site_pue.
 * NAN arguments take the defaults (1.3, 0.96, 0.02). docs/cost.md. */
double cs_facility_default_pue(enum cs_cooling c, double site_pue, double ups_efficiency,
                               double distribution_loss);

/* Evaluates facility f (settings; NAN/0 fields take the defaults) for
 * cluster c: server_power_multiplier is the server watts per GPU watt
 * (cost.server_power_multiplier), pue the site's. Fills f->res. The
 * fabric's switches sit in network racks that are not counted. A rack over
 * its limit also gets its thermal transient: thermal mass C = nodes x
 * node_mass x 600 J/(kg K) + floor_m2_per_rack x 3 m of air, time to
 * throttle C (throttle_inlet - inlet) / (P_rack - L), and the clock factor
 * it sustains after, (gpu_power_cap / P_gpu)^(1/3). */
void cs_facility_evaluate(const struct cs_cluster_cfg *c, struct cs_facility_cfg *f,
                          double server_power_multiplier, double pue);

#endif
