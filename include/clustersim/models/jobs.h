/* jobs.h: a list of cluster jobs as plain data (models layer): what a trace
 * importer (config/trace.h) fills and the scheduler (scheduler.h) replays.
 * Jobs are in submission order; times are seconds relative to the first
 * submission of the trace. Strings that repeat (users, partitions, GPU
 * types, workloads) are interned in small tables; a job refers to them by
 * index, -1 meaning "not given". */
#ifndef CLUSTERSIM_MODELS_JOBS_H
#define CLUSTERSIM_MODELS_JOBS_H

#include <stdbool.h>
#include <stddef.h>

/* The file format the jobs were read from (names: config/trace.h). */
enum cs_trace_format {
    CS_TRACE_AUTO,      /* detect from the header line (or the file name) */
    CS_TRACE_NATIVE,    /* job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload */
    CS_TRACE_ITP,       /* microsoft/elasticflow-traces: job_id,submission_time,duration,num_gpu */
    CS_TRACE_OPENB,     /* alibaba clusterdata gpu-v2023 openb_pod_list_*.csv */
    CS_TRACE_HELIOS,    /* S-Lab HeliosData cluster_log.csv */
    CS_TRACE_ACME,      /* InternLM AcmeTrace trace_seren.csv / trace_kalos.csv */
    CS_TRACE_PAI,       /* alibaba clusterdata gpu-v2020 pai_task_table.csv (no header) */
    CS_TRACE_PHILLY,    /* msr-fiddle philly-traces cluster_job_log (JSON array) */
    CS_TRACE_FORMAT_COUNT
};

/* "auto", "native", "itp", "openb", "helios", "acme", "pai", "philly". */
const char *cs_trace_format_name(enum cs_trace_format f);

/* An interned string table; lookups are hashed (FNV-1a, open addressing). */
struct cs_strtab {
    char **names;       /* owned; n entries in first-seen order */
    size_t n, cap;
    int *slots;         /* hash slots: index into names, -1 empty */
    size_t nslots;
};
void cs_strtab_init(struct cs_strtab *t);
void cs_strtab_fini(struct cs_strtab *t);
/* Index of `s` (len bytes, need not be NUL-terminated), adding it if new. */
int cs_strtab_intern(struct cs_strtab *t, const char *s, size_t len);
/* Index of s, or -1. */
int cs_strtab_find(const struct cs_strtab *t, const char *s);

#define CS_TRACE_ID_MAX 40

struct cs_trace_job {
    char id[CS_TRACE_ID_MAX];  /* the trace's job id, truncated to 39 bytes */
    double submit_s;           /* relative to the trace origin (see above) */
    double gpus;               /* GPUs asked for; < 1 for a GPU-sharing task */
    double duration_s;         /* run time observed in the trace (> 0) */
    double queue_s;            /* queueing delay the trace recorded; NAN if none */
    int priority;              /* larger runs first; 0 when not given */
    int user, partition, gpu_type, workload;  /* string-table indices or -1 */
    long line;                 /* 1-based line of the row in its file (0: JSON) */
};

/* What the importer saw. Every row read is either a job or counted once in
 * exactly one of the skipped_* counters, so rows == jobs + skipped_*. */
struct cs_trace_counts {
    long rows;                 /* data rows (or JSON objects) read */
    long jobs;                 /* kept */
    long skipped_never_ran;    /* no start time / Pending / no attempts */
    long skipped_cpu_only;     /* asked for 0 GPUs */
    long skipped_zero_duration;/* ran for 0 s (or end before start) */
    long skipped_window;       /* outside --from/--to */
    long skipped_limit;        /* past --limit */
    long missing_values;       /* optional fields left empty (kept, default used) */
    bool no_final_newline;     /* the last line had no '\n' (accepted) */
    long failed;               /* kept jobs whose recorded state was a failure */
    long cancelled;            /* kept jobs the user cancelled */
};

struct cs_trace {
    enum cs_trace_format format;
    char *file;                /* owned copy of the path */
    struct cs_trace_job *jobs; /* owned; n entries sorted by submit_s (stable) */
    size_t n, cap;
    struct cs_strtab users, partitions, gpu_types, workloads;
    struct cs_trace_counts counts;
    double origin_s;           /* the absolute time (trace units) that maps to 0 */
};

void cs_trace_init(struct cs_trace *t);
/* Frees everything; the struct may be init'ed again. Accepts a zeroed one. */
void cs_trace_fini(struct cs_trace *t);

/* Appends a job (copied). Interning is the caller's business. */
void cs_trace_add(struct cs_trace *t, const struct cs_trace_job *j);

/* Total GPU-hours of the kept jobs: sum(gpus x duration) / 3600. */
double cs_trace_gpu_hours(const struct cs_trace *t);

#endif
