"""clustersim: the simulator's commands from Python, with the standard library only.

    import clustersim
    r = clustersim.run("scenarios/default.yaml", set={"cluster.nodes": 8})
    print(r["step"]["tokens_per_s"])

run, search, collective, tco and plan return the object that
``clustersim CMD --format json`` prints (parsed: dicts, lists, numbers);
sweep yields one dict per point, the rows of the command line's
results.jsonl. A scenario is a path (str or os.PathLike) or a dict (the
scenario's keys, as YAML would give them). ``set`` is ``--set KEY=VALUE``:
a dict of key paths and values. The other keyword arguments are the
command's flags by long name, a hyphen written as an underscore
(``only_priced=True`` for ``--only-priced``); True for a flag. A failure
raises clustersim.Error, whose ``diagnostics`` are dicts with file, line,
column, key, severity and message. Diagnostics of a command that
succeeded (warnings) are issued as clustersim.ClustersimWarning.

The package calls libclustersim.so through ctypes (include/clustersim/api/api.h):
the copy installed beside this file, else the one $CLUSTERSIM_LIB names (a
build tree: build/libclustersim.so). docs/python.md has the details.
"""

import ctypes
import json
import os
import threading
import warnings
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor

__all__ = ["run", "search", "collective", "tco", "sweep", "plan", "Error", "ClustersimWarning",
           "library_path", "version"]

API_VERSION = 1


class Error(Exception):
    """A command failed: its diagnostics (a list of dicts) say why."""

    def __init__(self, message, diagnostics=None):
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])


class ClustersimWarning(UserWarning):
    """A diagnostic of a command that succeeded (a price left out, a skipped interval)."""


def _diag_text(d):
    """'file:line:col: message' as the command line prints a diagnostic."""
    where = ""
    if d.get("file"):
        where = str(d["file"])
        if d.get("line"):
            where += ":%d" % d["line"]
            if d.get("column"):
                where += ":%d" % d["column"]
        where += ": "
    sev = d.get("severity")
    return "%s%s%s" % (where, "" if sev in (None, "error") else sev + ": ", d.get("message", ""))


_lib = None
_lib_path = None
_lib_lock = threading.Lock()


def _find_library():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libclustersim.so")
    if os.path.isfile(here):
        return here
    env = os.environ.get("CLUSTERSIM_LIB")
    if env:
        if not os.path.isfile(env):
            raise Error("CLUSTERSIM_LIB=%s: no such file (it names the libclustersim.so to load, "
                        "e.g. build/libclustersim.so)" % env)
        return env
    raise Error("libclustersim.so not found: it is installed beside the package (make install), "
                "or CLUSTERSIM_LIB names it (in a build tree: CLUSTERSIM_LIB=build/libclustersim.so)")


def _load():
    global _lib, _lib_path
    with _lib_lock:
        if _lib is not None:
            return _lib
        path = _find_library()
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise Error("cannot load %s: %s" % (path, e)) from None
        lib.cs_api_call.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.cs_api_call.restype = ctypes.c_int
        lib.cs_api_free.argtypes = [ctypes.c_void_p]
        lib.cs_api_free.restype = None
        lib.cs_api_version.argtypes = []
        lib.cs_api_version.restype = ctypes.c_char_p
        lib.cs_api_sweep_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                          ctypes.POINTER(ctypes.c_void_p)]
        lib.cs_api_sweep_open.restype = ctypes.c_int
        lib.cs_api_sweep_row.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
        lib.cs_api_sweep_row.restype = ctypes.c_void_p
        lib.cs_api_sweep_close.argtypes = [ctypes.c_void_p]
        lib.cs_api_sweep_close.restype = None
        ver = lib.cs_api_version().decode().split()
        if len(ver) != 2 or ver[1] != str(API_VERSION):
            raise Error("%s speaks request version %s; this package speaks %d" %
                        (path, ver[-1] if ver else "?", API_VERSION))
        _lib, _lib_path = lib, path
        return lib


def library_path():
    """The libclustersim.so this package loaded (loading it if need be)."""
    _load()
    return _lib_path


def version():
    """clustersim's version, as `clustersim --version` gives it."""
    return _load().cs_api_version().decode().split()[0]


def _take_string(lib, ptr):
    """The C string at ptr, freed."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.cs_api_free(ptr)


def _answer(text, stacklevel=4):
    """The response's result; raises Error on failure, warns about the rest
    (stacklevel: the warning names the caller of the public function)."""
    resp = json.loads(text)
    diags = resp.get("diagnostics") or []
    if not resp.get("ok"):
        lines = [_diag_text(d) for d in diags] or ["the command failed without a message"]
        raise Error("\n".join(lines), diags)
    for d in diags:
        warnings.warn(_diag_text(d), ClustersimWarning, stacklevel=stacklevel)
    return resp.get("result")


def _scenario_fields(scenario, what="scenario"):
    if isinstance(scenario, dict):
        return {what + "_text": json.dumps(scenario), "name": "<dict>"}
    if isinstance(scenario, (str, os.PathLike)):
        return {what: os.fspath(scenario)}
    raise TypeError("%s: expected a path or a dict, got %s" % (what, type(scenario).__name__))


def _options(options):
    out = {}
    for k, v in options.items():
        if isinstance(v, (list, tuple)):  # fix=["tp", "pp"]
            v = ",".join(str(x) for x in v)
        out[k.replace("_", "-")] = v
    return out


def _set_field(set):
    if set is None:
        return None
    if not isinstance(set, dict):
        raise TypeError("set: expected a dict of key paths and values, got %s" % type(set).__name__)
    return {str(k): v for k, v in set.items()}


def _call(command, fields, set, catalog, options):
    req = {"command": command, "options": _options(options)}
    req.update(fields)
    s = _set_field(set)
    if s is not None:
        req["set"] = s
    if catalog is not None:
        req["catalog"] = os.fspath(catalog)
    lib = _load()
    resp = ctypes.c_void_p()
    lib.cs_api_call(json.dumps(req).encode("utf-8"), ctypes.byref(resp))
    return _answer(_take_string(lib, resp))


def run(scenario, set=None, *, catalog=None, **options):
    """`clustersim run`: one training step (and the run, when the scenario asks).

    Options: uncertainty=True, jobs=N."""
    return _call("run", _scenario_fields(scenario), set, catalog, options)


def search(scenario, set=None, *, catalog=None, **options):
    """`clustersim search`: the parallel configurations ranked by throughput.

    Options: top=N (default 20; 0 all), unfit=True, fix="tp,pp" (or a list), jobs=N."""
    return _call("search", _scenario_fields(scenario), set, catalog, options)


def collective(scenario, set=None, *, catalog=None, **options):
    """`clustersim collective`: an nccl-tests run on the scenario's cluster.

    Options (nccl-tests' flags by long name): minbytes, maxbytes, stepfactor,
    stepbytes, ngpus, nthreads, ranks, op, redop, datatype, root, algo,
    placement, flow=True."""
    return _call("collective", _scenario_fields(scenario), set, catalog, options)


def tco(scenario, set=None, *, catalog=None, **options):
    """`clustersim tco`: the total cost of ownership of every option.

    Options: sensitivity="20%", samples=N, only_priced=True, uncertainty=True,
    no_run_model=True."""
    return _call("tco", _scenario_fields(scenario), set, catalog, options)


def plan(plan, set=None, *, catalog=None, **options):
    """`clustersim plan`: the cheapest and fastest clusters for a plan file (a path).

    Options: jobs=N, replicas=N, uncertainty=True, all=True."""
    if not isinstance(plan, (str, os.PathLike)):
        raise TypeError("plan: expected the plan file's path (its includes are relative to it), got %s"
                        % type(plan).__name__)
    return _call("plan", {"plan": os.fspath(plan)}, set, catalog, options)


def sweep(sweep, *, catalog=None, jobs=1):
    """`clustersim sweep`: yields each point's row (a dict), in point order.

    sweep is the sweep file's path. jobs=N evaluates N points at once on
    threads (the rows, and their order, do not depend on it). Nothing is
    written to disk; the rows are those of the command line's results.jsonl."""
    if not isinstance(sweep, (str, os.PathLike)):
        raise TypeError("sweep: expected the sweep file's path, got %s" % type(sweep).__name__)
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError("sweep: jobs: expected a whole number >= 1, got %r" % (jobs,))
    req = {"sweep": os.fspath(sweep)}
    if catalog is not None:
        req["catalog"] = os.fspath(catalog)
    lib = _load()
    handle = ctypes.c_void_p()
    resp = ctypes.c_void_p()
    lib.cs_api_sweep_open(json.dumps(req).encode("utf-8"), ctypes.byref(handle), ctypes.byref(resp))
    if not handle:  # a failure: its diagnostics
        _answer(_take_string(lib, resp), 3)
        raise Error("sweep: the library returned no sweep")
    state = {"handle": handle}

    def close():  # once: at the end, on an early break, or when never iterated
        h = state.pop("handle", None)
        if h:
            lib.cs_api_sweep_close(h)

    try:
        info = _answer(_take_string(lib, resp), 3)
    except BaseException:
        close()
        raise
    rows = _sweep_rows(lib, handle, int(info["points"]), jobs, close)
    weakref.finalize(rows, close)
    return rows


def _sweep_rows(lib, handle, points, jobs, close):
    def row(i):
        return json.loads(_take_string(lib, lib.cs_api_sweep_row(handle, i)))

    try:
        if jobs == 1:
            for i in range(points):
                yield row(i)
            return
        # a bounded window of points in flight (ctypes releases the GIL
        # during each call); rows come back in point order
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            pending = deque()
            nxt = 0
            while nxt < points or pending:
                while nxt < points and len(pending) < 4 * jobs:
                    pending.append(ex.submit(row, nxt))
                    nxt += 1
                yield pending.popleft().result()
    finally:
        close()
