/* api.h: the library's request entry point (api layer, api/api.c), the
 * stable C interface of libclustersim.so that the Python package
 * (python/clustersim) loads with ctypes; docs/python.md has the request
 * and response formats.
 *
 * A request is a JSON object:
 *   {"command": "run" | "search" | "collective" | "tco" | "plan",
 *    "scenario": "PATH"                         (a file, as on the command line)
 *      or "scenario_text": "YAML or JSON text", "name": "<dict>"  (in memory;
 *                                                its includes relative to the
 *                                                current directory),
 *    "set": {"cluster.nodes": 4, ...}          (as --set KEY=VALUE, in order),
 *    "options": {"top": 5, "unfit": true, ...} (the command's flags by long
 *                                                name; true for a flag),
 *    "catalog": "DIR"}                         (as --catalog)
 * (plan: "plan": "PATH" instead of the scenario.) The response is a JSON
 * object {"ok": bool, "result": <what `clustersim CMD --format json`
 * prints> or null, "diagnostics": [{"file", "line", "column", "key",
 * "severity", "message"}]}; file, line, column and key are null where
 * unknown. A sweep is run point by point through cs_api_sweep_*.
 *
 * Every function is reentrant: a call shares no state with another call,
 * and every string returned is the caller's to free with cs_api_free. */
#ifndef CLUSTERSIM_API_H
#define CLUSTERSIM_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CS_API_EXPORT __attribute__((visibility("default")))
#else
#define CS_API_EXPORT
#endif

/* The request format's version (docs/python.md); 1. */
#define CS_API_VERSION 1

/* Runs one request. *response_json (always set, never NULL) is the
 * response. Returns 0 when it has "ok": true, 1 when the command failed
 * (its diagnostics say why), 2 when the request itself is malformed (not
 * JSON, an unknown command or option). */
CS_API_EXPORT int cs_api_call(const char *request_json, char **response_json);

/* Frees a string returned by this interface; NULL is ignored. */
CS_API_EXPORT void cs_api_free(char *s);

/* "clustersim_version api_version", e.g. "0.1.0 1"; static, not to free. */
CS_API_EXPORT const char *cs_api_version(void);

/* A sweep, one point at a time. The request: {"sweep": "PATH", "catalog":
 * "DIR"}. *response_json as cs_api_call's, its result {"points": N,
 * "columns": [...], "sweep": "PATH", "hash": "..."}; *out NULL on failure. */
typedef struct cs_api_sweep cs_api_sweep;
CS_API_EXPORT int cs_api_sweep_open(const char *request_json, cs_api_sweep **out, char **response_json);
/* Point i (0 .. points-1) evaluated: its row of results.jsonl (a JSON
 * object, without the newline), or NULL when i is out of range. Thread-safe
 * for one handle: several threads may evaluate points at once. */
CS_API_EXPORT char *cs_api_sweep_row(cs_api_sweep *h, uint64_t i);
CS_API_EXPORT void cs_api_sweep_close(cs_api_sweep *h);

#ifdef __cplusplus
}
#endif

#endif
