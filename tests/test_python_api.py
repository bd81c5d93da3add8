"""test_python_api.py: the Python API (python/clustersim) against the command line.

Run by tests/python_api.sh (ctest -R python_api) with $CLUSTERSIM_LIB naming
the build tree's libclustersim.so and $CLUSTERSIM_BIN its clustersim binary,
from the source directory. Every result is compared with what the binary
prints for the same scenario and flags (`--format json`, parsed: the objects
must be equal; nothing in them depends on the time or the host), and the
figures that can be derived by hand are checked against that derivation.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

import clustersim

BIN = os.environ.get("CLUSTERSIM_BIN")
DEFAULT = "scenarios/default.yaml"

# scenarios/default.yaml written out by hand as a dict (the file's keys and
# values, comments left out): run() on it must give the file's figures.
DEFAULT_DICT = {
    "schema_version": 1,
    "name": "seed004-4x8-h100-hdr",
    "seed": 42,
    "cluster": {
        "gpu": "H100-SXM5-80GB",
        "nodes": 4,
        "gpus_per_node": 8,
        "intra_node": "nvswitch",
        "fabric": {"topology": "fat-tree", "link": "ib-hdr", "nics_per_node": 8,
                   "oversubscription": 1, "in_network_reduction": False},
        "storage": ["nvme-gen4", "lustre", "s3"],
    },
    "workload": {
        "model": {"preset": "llama3.1-70b"},
        "parallelism": {"tp": 8, "pp": 4, "dp": 1, "cp": 1, "vp": 1, "sp": True, "fsdp": "none"},
        "global_batch": 128,
        "micro_batch": 1,
        "recompute": "full",
        "precision": "bf16",
        "tokens": "20B",
    },
    "failures": {
        "components": [
            {"name": "gpu", "scope": "gpu", "mtbf": "79000h", "distribution": "exponential"},
            {"name": "host", "scope": "node", "mtbf": "50000h", "distribution": "exponential"},
        ],
        "detection": "5min",
        "restart": "15min",
    },
    "checkpoint": {"interval": "optimal", "mode": "async", "tier": "nvme"},
    "cost": {"years": 3, "utilization": 0.7, "site": "us-average"},
    "run": {"replicas": 200},
}

# default.yaml's tokens per step: global_batch 128 x sequence 8192 (the
# llama3.1-70b preset's sequence, scenarios/catalog and docs/workload.md).
TOKENS_PER_STEP = 128 * 8192


def cli(*args, ok_codes=(0,)):
    """The binary's --format json output, parsed."""
    p = subprocess.run([BIN] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in ok_codes:
        raise AssertionError("clustersim %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return json.loads(p.stdout)


def quiet(fn, *a, **k):
    """fn(*a, **k) with the warnings the command line prints on stderr kept."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(*a, **k)
    return r, w


class PythonApi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not BIN or not os.access(BIN, os.X_OK):
            raise RuntimeError("CLUSTERSIM_BIN must name the clustersim binary (got %r)" % BIN)
        lib = os.environ.get("CLUSTERSIM_LIB")
        if not lib or not os.path.isfile(lib):
            raise RuntimeError("CLUSTERSIM_LIB must name the build tree's libclustersim.so (got %r)" % lib)
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_loads_the_named_library(self):
        self.assertEqual(os.path.realpath(clustersim.library_path()),
                         os.path.realpath(os.environ["CLUSTERSIM_LIB"]))
        self.assertEqual(clustersim.version(), cli("run", "--format", "json", DEFAULT)["clustersim_version"])

    def test_run_path_equals_cli(self):
        r = clustersim.run(DEFAULT)
        self.assertEqual(r, cli("run", "--format", "json", DEFAULT))
        # tokens/s x step time = the tokens of one step (hand-derived above)
        self.assertAlmostEqual(r["throughput"]["tokens_per_s"] * r["step"]["time_s"] / TOKENS_PER_STEP, 1.0,
                               places=9)
        self.assertEqual(r["cluster"]["gpus"], 4 * 8)

    def test_run_dict_equals_the_file(self):
        d = clustersim.run(DEFAULT_DICT)
        f = clustersim.run(DEFAULT)
        self.assertEqual(d["file"], "<dict>")
        d.pop("file")
        f.pop("file")
        self.assertEqual(d, f)

    def test_set_equals_cli_set(self):
        sets = {"cluster.nodes": 8, "workload.parallelism.dp": 2}
        r = clustersim.run(DEFAULT, set=sets)
        self.assertEqual(r, cli("run", "--format", "json", "--set", "cluster.nodes=8",
                                "--set", "workload.parallelism.dp=2", DEFAULT))
        self.assertEqual(r["cluster"]["gpus"], 8 * 8)
        self.assertEqual(r["workload"]["parallelism"]["dp"], 2)
        base = clustersim.run(DEFAULT)
        # twice the data-parallel replicas on the same global batch: each
        # replica runs half the microbatches, so the step is faster
        self.assertLess(r["step"]["time_s"], base["step"]["time_s"])
        self.assertAlmostEqual(r["throughput"]["tokens_per_s"] * r["step"]["time_s"] / TOKENS_PER_STEP, 1.0,
                               places=9)
        # a string value is the same as the number (as --set's text)
        self.assertEqual(clustersim.run(DEFAULT, set={"cluster.nodes": "8", "workload.parallelism.dp": "2"}), r)

    def test_run_uncertainty_equals_cli(self):
        r = clustersim.run(DEFAULT, uncertainty=True, jobs=2)
        self.assertEqual(r, cli("run", "--format", "json", "--uncertainty", "-j", "2", DEFAULT))
        u = r["uncertainty"]["time_to_train_s"]
        self.assertLessEqual(u["p05"], u["p50"])
        self.assertLessEqual(u["p50"], u["p95"])

    def test_bad_scenario_file_line_key(self):
        path = self.write("bad.yaml", "schema_version: 1\ncluster:\n  gpu: H100-SXM5-80GB\n  nodes: four\n")
        with self.assertRaises(clustersim.Error) as cm:
            clustersim.run(path)
        e = cm.exception
        errs = [d for d in e.diagnostics if d["severity"] == "error"]
        self.assertEqual(len(errs), 1, e.diagnostics)
        self.assertEqual(errs[0]["file"], path)
        self.assertEqual(errs[0]["line"], 4)
        self.assertEqual(errs[0]["column"], 10)
        self.assertEqual(errs[0]["key"], "cluster.nodes")
        self.assertIn("%s:4:10: cluster.nodes: expected an integer" % path, str(e))

    def test_unknown_key_in_dict(self):
        bad = json.loads(json.dumps(DEFAULT_DICT))
        bad["cluster"]["nodez"] = 4
        with self.assertRaises(clustersim.Error) as cm:
            clustersim.run(bad)
        d = cm.exception.diagnostics[0]
        self.assertEqual((d["file"], d["line"], d["key"]), ("<dict>", 1, "cluster.nodez"))
        self.assertIn("unknown key", d["message"])

    def test_bad_set(self):
        with self.assertRaises(clustersim.Error) as cm:
            clustersim.run(DEFAULT, set={"cluster.nodes": "x"})
        d = cm.exception.diagnostics[0]
        self.assertEqual((d["file"], d["key"]), ("set cluster.nodes=x", "cluster.nodes"))

    def test_bad_request(self):
        with self.assertRaises(clustersim.Error) as cm:
            clustersim.run(DEFAULT, bogus=1)
        self.assertIn('unknown option "bogus"', str(cm.exception))
        with self.assertRaises(clustersim.Error):
            clustersim.collective(DEFAULT, minbytes="8X")
        with self.assertRaises(clustersim.Error):
            clustersim.run("no/such/file.yaml")
        with self.assertRaises(TypeError):
            clustersim.run(42)

    def test_search_equals_cli(self):
        r = clustersim.search(DEFAULT, top=3, fix=["cp", "vp"])
        self.assertEqual(r, cli("search", "--format", "json", "-n", "3", "--fix", "cp,vp", DEFAULT))
        self.assertEqual(len(r["search"]["configs"]), 3)
        tps = [c["throughput"]["tokens_per_s"] for c in r["search"]["configs"]]
        self.assertEqual(tps, sorted(tps, reverse=True))

    def test_collective_equals_cli(self):
        r = clustersim.collective(DEFAULT, minbytes="8", maxbytes="1M", stepfactor=4)
        self.assertEqual(r, cli("collective", "--format", "json", "-b", "8", "-e", "1M", "-f", "4", DEFAULT))
        n = r["ranks"]
        self.assertEqual(n, 32)
        # sizes 8, 32, ..., 2^19 (x4 while <= 1M): 9 rows; nccl-tests' all_reduce busbw
        # = algbw x 2(n-1)/n (src/all_reduce.cu AllReduceGetBw)
        self.assertEqual([row["size_bytes"] for row in r["rows"]], [8 * 4 ** i for i in range(9)])
        for row in r["rows"]:
            self.assertAlmostEqual(row["busbw_gb_per_s"], row["algbw_gb_per_s"] * 2 * (n - 1) / n, places=9)
        r2 = clustersim.collective(DEFAULT, op="all_gather", datatype="half", ranks=16, minbytes="1K",
                                   maxbytes="64K", stepfactor=2, flow=True)
        self.assertEqual(r2, cli("collective", "--format", "json", "-o", "all_gather", "-d", "half", "--ranks",
                                 "16", "-b", "1K", "-e", "64K", "-f", "2", "--flow", DEFAULT))
        self.assertEqual((r2["ranks_from"], r2["model"], r2["datatype"]), ("--ranks", "flow", "half"))

    def test_tco_equals_cli(self):
        r, w = quiet(clustersim.tco, DEFAULT, sensitivity="10%", samples=100)
        self.assertEqual(r, cli("tco", "--format", "json", "--sensitivity", "10%", "--samples", "100", DEFAULT))
        # the command line's warnings (unpriced network items) came as warnings
        self.assertTrue(any("no price" in str(x.message) for x in w))
        u, _ = quiet(clustersim.tco, DEFAULT, uncertainty=True, no_run_model=True)
        self.assertEqual(u, cli("tco", "--format", "json", "--uncertainty", "--no-run-model", DEFAULT))
        self.assertIn("uncertainty", u)

    def test_plan_equals_cli(self):
        path = "tests/data/plan-small.yaml"
        r = clustersim.plan(path, all=True)
        self.assertEqual(r, cli("plan", "--format", "json", "--all", path))
        self.assertEqual(r["plan"]["candidates"]["clusters"], 2 * 3)  # 2 GPUs x 3 node counts x 1 fabric
        r2 = clustersim.plan(path, set={"deadline": "30d"}, replicas=4)
        self.assertEqual(r2, cli("plan", "--format", "json", "--set", "deadline=30d", "--replicas", "4", path))
        self.assertEqual(r2["plan"]["deadline_s"], 30 * 86400)

    def test_sweep_rows_equal_results_jsonl(self):
        base = os.path.abspath(DEFAULT)
        sw = self.write("sweep.yaml", "base: %s\nmode: grid\naxes:\n  cluster.nodes: [4, 8, 16]\n"
                                      "derive:\n  workload.parallelism.dp: \"gpus / (tp * pp)\"\n" % base)
        out = os.path.join(self.tmp.name, "sweep-out")
        p = subprocess.run([BIN, "sweep", "-q", "-o", out, sw], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "results.jsonl")) as f:
            want = [json.loads(line) for line in f]
        self.assertEqual(len(want), 3)
        rows = clustersim.sweep(sw)
        self.assertEqual(list(rows), want)
        self.assertEqual(list(clustersim.sweep(sw, jobs=3)), want)
        self.assertEqual([r["gpus"] for r in want], [32, 64, 128])
        it = clustersim.sweep(sw)
        self.assertEqual(next(it), want[0])  # an early stop releases the sweep
        it.close()
        with self.assertRaises(clustersim.Error):
            clustersim.sweep(self.write("badsweep.yaml", "base: %s\naxes: {cluster.nodez: [1]}\n" % base))

    def test_many_calls_in_one_process(self):
        first = clustersim.collective(DEFAULT, minbytes="1K", maxbytes="1M", stepfactor=8)
        run0 = clustersim.run(DEFAULT)
        for _ in range(30):
            self.assertEqual(clustersim.collective(DEFAULT, minbytes="1K", maxbytes="1M", stepfactor=8), first)
            with self.assertRaises(clustersim.Error):
                clustersim.run(DEFAULT, set={"cluster.nodes": 0})
        for _ in range(5):
            self.assertEqual(clustersim.run(DEFAULT), run0)

    def test_examples_run(self):
        env = dict(os.environ, PYTHONPATH=os.path.abspath("python"), PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run([sys.executable, "examples/python/scale_nodes.py", "scenarios/sweeps/scale-70b.yaml"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [l.split() for l in p.stdout.splitlines() if l.split() and l.split()[0].isdigit()]
        # scale-70b.yaml: cluster.nodes 4, 8, ..., 512 (x2), 8 GPUs per node
        self.assertEqual([(int(r[0]), int(r[1])) for r in rows], [(4 << i, 32 << i) for i in range(8)], p.stdout)
        p = subprocess.run([sys.executable, "examples/python/compare_ownership.py", DEFAULT],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("on-prem", p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
