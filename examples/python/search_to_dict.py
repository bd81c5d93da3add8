#!/usr/bin/env python3
"""search_to_dict.py: a scenario built in Python (a dict, no file): as
written it does not fit in memory (plain data parallelism keeps a whole
model state per GPU); the search finds the fastest configurations that do,
and the best one is run with set= overrides.

    PYTHONPATH=python CLUSTERSIM_LIB=build/libclustersim.so \
        python3 examples/python/search_to_dict.py

An error in the dict raises clustersim.Error naming the key; its file is
"<dict>" (the dict is read as one line of JSON).
"""
import sys

import clustersim

SCENARIO = {
    "schema_version": 1,
    "name": "llama3.1-8b-on-2x8-h100",
    "cluster": {"gpu": "H100-SXM5-80GB", "nodes": 2, "gpus_per_node": 8, "intra_node": "nvswitch",
                "fabric": {"topology": "fat-tree", "link": "ib-ndr", "nics_per_node": 8}},
    "workload": {"model": {"preset": "llama3.1-8b"}, "parallelism": {"tp": 1, "pp": 1, "dp": 16},
                 "global_batch": 256, "micro_batch": 1, "precision": "bf16"},
}


def main():
    mine = clustersim.run(SCENARIO)
    print("as written: %.0f GB per GPU of %.0f GB: %s" % (mine["memory"]["bytes_per_gpu"] / 1e9,
                                                        mine["memory"]["capacity_bytes"] / 1e9,
                                                        "fits" if mine["memory"]["fits"] else "does not fit"))
    found = clustersim.search(SCENARIO, top=5)["search"]
    print("%d configurations considered, %d simulated" % (found["considered"], found["simulated"]))
    for c in found["configs"]:
        p = c["workload"]["parallelism"]
        print("  #%d tp%d pp%d dp%d cp%d: %.0f tokens/s, MFU %.1f%%" % (c["rank"], p["tp"], p["pp"], p["dp"], p["cp"],
                                                                 c["throughput"]["tokens_per_s"],
                                                                 100 * c["throughput"]["mfu"]))
    best = found["configs"][0]["workload"]
    sets = {"workload.parallelism.%s" % k: v for k, v in best["parallelism"].items()}
    sets.update({"workload.micro_batch": best["micro_batch"], "workload.recompute": best["recompute"]})
    r = clustersim.run(SCENARIO, set=sets)
    print("#1 run: fsdp %s, %.0f GB per GPU, step %.3f s, %.0f tokens/s" % (
        best["parallelism"]["fsdp"], r["memory"]["bytes_per_gpu"] / 1e9, r["step"]["time_s"],
        r["throughput"]["tokens_per_s"]))


if __name__ == "__main__":
    try:
        main()
    except clustersim.Error as e:
        sys.exit("search_to_dict.py: %s" % e)
