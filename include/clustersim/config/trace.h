/* trace.h: the trace importers (config layer): they read a job trace file
 * into the job list of models/jobs.h. One struct cs_trace holds the jobs of one file in submission order, whatever
 * the source format: the native CSV of DESIGN.md, or a published trace
 * (Microsoft ITP 2021, Alibaba openb 2023, Philly 2017, Helios 2020, Acme
 * 2023, Alibaba PAI 2020 task table). Times are seconds relative to the
 * first submission of the file (so the first job submits at 0 unless a
 * --from window cut earlier ones). Strings that repeat (users, partitions,
 * GPU types, workloads) are interned in small tables; a job refers to them
 * by index, -1 meaning "not given". The column mapping of every format is
 * documented in docs/replay.md. */
#ifndef CLUSTERSIM_CONFIG_TRACE_H
#define CLUSTERSIM_CONFIG_TRACE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/jobs.h"

#include <stdbool.h>
#include <stddef.h>

/* CS_EINVAL (out untouched) for an unknown name. */
cs_status cs_trace_format_parse(const char *s, enum cs_trace_format *out);

struct cs_trace_options {
    enum cs_trace_format format;  /* CS_TRACE_AUTO by default */
    double from_s, to_s;          /* keep jobs with from <= submit < to (relative, s); to NAN = no end */
    long limit;                   /* keep at most this many jobs (after the window); 0 = all */
};
void cs_trace_options_default(struct cs_trace_options *o);

/* Reads trace `path` streaming (one line in memory at a time; Philly JSON
 * is read whole). Bad rows are errors naming the file, line and column;
 * reading stops after the diagnostics list is full. Returns CS_OK, CS_EIO
 * (cannot open/read), CS_ECONFIG (malformed content; *out holds what was
 * read so far and must still be finalized). `out` must be init'ed. */
cs_status cs_trace_load(const char *path, const struct cs_trace_options *o, struct cs_trace *out,
                        cs_diags *d);

/* The same from a memory buffer; `name` is used in diagnostics. */
cs_status cs_trace_load_buffer(const char *name, const char *buf, size_t len,
                               const struct cs_trace_options *o, struct cs_trace *out, cs_diags *d);

/* A list of nodes with their GPU type, for heterogeneous clusters: the
 * Alibaba openb node list (sn,cpu_milli,memory_mib,gpu,model) or the PAI
 * 2020 machine spec (machine,gpu_type,cap_cpu,cap_mem,cap_gpu; no header).
 * Nodes with no GPU are counted and left out. Groups are formed per
 * (GPU type, GPUs per node) in first-seen order. */
struct cs_trace_node_group {
    char gpu_type[64];
    int gpus_per_node;
    int nodes;
};
#define CS_TRACE_MAX_NODE_GROUPS 32
struct cs_trace_nodes {
    int n_groups;
    struct cs_trace_node_group groups[CS_TRACE_MAX_NODE_GROUPS];
    long nodes, gpus, cpu_only_nodes;
};
cs_status cs_trace_load_nodes(const char *path, struct cs_trace_nodes *out, cs_diags *d);
/* The same from a memory buffer; `name` is used in diagnostics. */
cs_status cs_trace_load_nodes_buffer(const char *name, const char *buf, size_t len, struct cs_trace_nodes *out,
                                     cs_diags *d);

/* Parses "YYYY-MM-DD HH:MM:SS" with an optional "+HH:MM"/"-HH:MM"/"Z" zone
 * (also 'T' as separator) into seconds since 1970-01-01 UTC (proleptic
 * Gregorian, Howard Hinnant's days_from_civil). CS_EINVAL if malformed. */
cs_status cs_trace_parse_datetime(const char *s, size_t len, double *out);

#endif
