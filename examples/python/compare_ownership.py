#!/usr/bin/env python3
"""compare_ownership.py: the TCO of every ownership option of a scenario,
cheapest first, and how the ranking moves with the utilization.

    PYTHONPATH=python CLUSTERSIM_LIB=build/libclustersim.so \
        python3 examples/python/compare_ownership.py scenarios/default.yaml

Each utilization is one `clustersim tco --set cost.utilization=U` call.
"""
import sys
import warnings

import clustersim


def ranking(scenario, utilization):
    r = clustersim.tco(scenario, set={"cost.utilization": utilization}, samples=0)
    opts = [o for o in r["tco"]["options"] if o.get("total_usd") is not None]
    return sorted(opts, key=lambda o: o["total_usd"])


def main(scenario):
    # unpriced catalog items are warnings (the command line prints them on
    # standard error); this summary leaves them out
    warnings.simplefilter("ignore", clustersim.ClustersimWarning)
    for u in (0.3, 0.7, 0.95):
        opts = ranking(scenario, u)
        print("utilization %.0f%%:" % (100 * u))
        for o in opts:
            print("  %-20s $%14.0f  $%.2f per utilized GPU-hour" % (o["name"], o["total_usd"],
                                                                  o["usd_per_utilized_gpu_hour"]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: compare_ownership.py SCENARIO.yaml")
    try:
        main(sys.argv[1])
    except clustersim.Error as e:
        sys.exit("compare_ownership.py: %s" % e)
