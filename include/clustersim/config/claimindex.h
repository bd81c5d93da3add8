/* claimindex.h: scenarios/claims/INDEX.yaml, the list of the seed articles'
 * quantitative claims (their list, CLAIMS.md: N1..N24) that `clustersim claims` puts
 * to the test: for each, its id, the seed's words, and the command and
 * files that reproduce it, or why the model cannot express it. The claimed
 * figures and tolerances live in the scenarios' own claim keys (`claim:`,
 * `cost.claim`, `scheduler.claim`, `cost.reference`), not here. Config
 * layer; docs/claims.md describes the format. */
#ifndef CLUSTERSIM_CLAIMINDEX_H
#define CLUSTERSIM_CLAIMINDEX_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

#include <stddef.h>

/* The command that reproduces an entry, and how it is judged:
 * RUN: `clustersim run` of each file; the claim of the last file, a ratio
 *      to the first when it states one (run-level and data-pipeline
 *      figures, which compare does not simulate).
 * COMPARE: `clustersim compare FILES`; the claim of every file after the
 *      first that carries one, against the first.
 * TCO: `clustersim tco FILE`; its cost.claim.
 * TCO_TABLE: `clustersim tco --table FILES`; each row after the first
 *      against its cost.reference throughput.
 * REPLAY: `clustersim replay TRACE --cluster FILE`; its scheduler.claim.
 * NONE: not expressible (`not_expressible` says why). */
enum cs_claimix_cmd { CS_CLAIMIX_RUN, CS_CLAIMIX_COMPARE, CS_CLAIMIX_TCO, CS_CLAIMIX_TCO_TABLE,
                      CS_CLAIMIX_REPLAY, CS_CLAIMIX_NONE };
/* "run", "compare", "tco", "tco-table", "replay", "none". */
const char *cs_claimix_cmd_name(enum cs_claimix_cmd c);

#define CS_CLAIMIX_MAX_FILES 8
struct cs_claimix_entry {
    char *id;                  /* as in CLAIMS.md: "N4" */
    char *text;                /* the seed's words */
    enum cs_claimix_cmd cmd;
    size_t n_files;
    char *files[CS_CLAIMIX_MAX_FILES]; /* scenario paths, relative to the index's directory */
    char *trace;               /* REPLAY: the trace, relative to the index's directory */
    char *not_expressible;     /* NONE: why (required); else NULL */
    char *note;                /* printed beside the verdict; NULL */
    int line;                  /* where the entry is written */
};

struct cs_claimix {
    char *path;                /* the index file */
    char *dir;                 /* its directory */
    struct cs_claimix_entry *e;
    size_t n;
};

/* Loads an index: a mapping with `claims:`, a list of entries with id,
 * text, command (run | compare | tco | tco-table | replay | none) and
 * files, trace (replay), not_expressible (required with none, refused
 * otherwise), note. Unknown keys, a missing key, a file that does not exist
 * and a count of files the command does not take are errors with
 * file:line:col. CS_OK, CS_EIO (unreadable) or CS_ECONFIG; *out untouched
 * on failure, else freed with cs_claimix_fini. */
cs_status cs_claimix_load(const char *path, cs_diags *d, struct cs_claimix *out);
void cs_claimix_fini(struct cs_claimix *ix);

#endif
