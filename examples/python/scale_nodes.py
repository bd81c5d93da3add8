#!/usr/bin/env python3
"""scale_nodes.py: a sweep's points one by one, as they are simulated.

    PYTHONPATH=python CLUSTERSIM_LIB=build/libclustersim.so \
        python3 examples/python/scale_nodes.py scenarios/sweeps/scale-70b.yaml

Prints, per point of the sweep file, the nodes, GPUs, tokens/s, tokens/s
per GPU and the scaling efficiency against the first point (per-GPU
throughput relative to it), then the point where it falls below 90%.
"""
import sys

import clustersim


def main(path):
    first = None
    print("%6s %6s %12s %10s %7s" % ("nodes", "gpus", "tokens/s", "per GPU", "eff"))
    below = None
    for row in clustersim.sweep(path, jobs=2):
        if row["status"] != "ok":
            print("point %d: %s (%s)" % (row["point"], row["status"], row["reason"]))
            continue
        per_gpu = row["tokens_per_s_per_gpu"]
        first = first or per_gpu
        eff = per_gpu / first
        print("%6d %6d %12.0f %10.1f %6.1f%%" % (row["cluster.nodes"], row["gpus"], row["tokens_per_s"],
                                                 per_gpu, 100 * eff))
        if below is None and eff < 0.9:
            below = row["cluster.nodes"]
    if below is not None:
        print("scaling efficiency falls below 90%% at %d nodes" % below)
    else:
        print("scaling efficiency stays at or above 90% on every point")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: scale_nodes.py SWEEP.yaml")
    try:
        main(sys.argv[1])
    except clustersim.Error as e:
        sys.exit("scale_nodes.py: %s" % e)
