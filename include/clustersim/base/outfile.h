/* outfile.h: the one way clustersim writes an output file (base layer).
 * A file is written to a temporary file created beside its target with
 * mkstemp (a fresh name, O_EXCL: a planted file or symlink of that name is
 * never opened, let alone followed) and renamed over the target only when
 * every byte was written, flushed and synced; on any failure the temporary
 * file is removed, so a reader sees either the old file or the whole new
 * one, never a truncated one. Also: the end-of-output check of a stream
 * (standard output), and the lock of a sweep output directory. */
#ifndef CLUSTERSIM_BASE_OUTFILE_H
#define CLUSTERSIM_BASE_OUTFILE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct cs_outfile cs_outfile;

/* Creates DIR/.NAME.XXXXXX beside `path` (DIR/NAME; mode 0666 less the
 * umask, as fopen would give) and returns a handle whose stream
 * (cs_outfile_fp) the caller writes. CS_EIO with "cannot write PATH: REASON"
 * in why[whylen] (REASON the system's message) when it cannot be created
 * (no such directory, not writable, `path` names a directory...). The
 * caller ends it with cs_outfile_commit or cs_outfile_abort. */
cs_status cs_outfile_open(const char *path, cs_outfile **out, char *why, size_t whylen);

/* The stream to write; borrowed, valid until commit or abort. */
FILE *cs_outfile_fp(cs_outfile *f);

/* The target path; borrowed, valid until commit or abort. */
const char *cs_outfile_path(const cs_outfile *f);

/* Checks the stream's error flag (a write that failed at any point, even
 * one whose later writes succeeded), flushes, fsyncs, closes and renames the
 * temporary file over the target; frees f. On any failure removes the
 * temporary file, leaves the target as it was and returns CS_EIO with
 * "cannot write PATH: REASON" in why. */
cs_status cs_outfile_commit(cs_outfile *f, char *why, size_t whylen);

/* Discards the output: closes and removes the temporary file, frees f.
 * Accepts NULL. */
void cs_outfile_abort(cs_outfile *f);

/* The same two, with the error added to d (may be NULL) instead: its file
 * the target path, its message the system's reason ("No space left on
 * device"). NULL / CS_EIO on failure. */
cs_outfile *cs_outfile_open_d(const char *path, cs_diags *d);
cs_status cs_outfile_commit_d(cs_outfile *f, cs_diags *d);

/* Writes `len` bytes to `path` through cs_outfile_open/commit. */
cs_status cs_outfile_write_all(const char *path, const void *buf, size_t len, char *why,
                               size_t whylen);

/* The end of output on stream fp (standard output: `name` is what messages
 * call it): true when no write to it failed (its error flag is clear) and
 * it flushes; else false with "cannot write NAME: REASON" in why. */
bool cs_stream_finish(FILE *fp, const char *name, char *why, size_t whylen);

/* An exclusive lock on directory dir (flock on DIR/.clustersim.lock,
 * created if missing, opened without following a symlink), held until
 * cs_dirlock_release or the process exits. Returns a descriptor >= 0, or
 * -1 with why: "DIR is in use by another clustersim process (it holds
 * DIR/.clustersim.lock)" when another holds it, "cannot lock DIR: REASON"
 * otherwise. Never blocks. */
int cs_dirlock_acquire(const char *dir, char *why, size_t whylen);
/* Releases a lock taken by cs_dirlock_acquire; accepts -1. */
void cs_dirlock_release(int fd);

#endif
