/* fileio.h: the one way clustersim reads an input file. A path of "-" is
 * standard input; gzip-compressed input (any file, detected by its magic
 * bytes, not its name) is decompressed on the fly through zlib, so every
 * reader of scenarios, traces, logs and tables takes .gz files too. */
#ifndef CLUSTERSIM_FILEIO_H
#define CLUSTERSIM_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

typedef struct cs_infile cs_infile;

/* True when `path` names standard input ("-"). */
bool cs_path_is_stdin(const char *path);

/* The name messages use for `path`: "<stdin>" for "-", else the path. */
const char *cs_path_display(const char *path);

/* The *_why variants put the reason for a failure (the system's message,
 * zlib's, or "larger than N bytes") into why[whylen] instead of a diagnostic,
 * for callers that word the message themselves. */
cs_status cs_infile_open_why(const char *path, cs_infile **out, char *why, size_t whylen);
cs_status cs_infile_read_why(cs_infile *f, void *buf, size_t cap, size_t *got, char *why, size_t whylen);
cs_status cs_file_slurp_why(const char *path, size_t max_bytes, char **buf, size_t *len,
                            char *why, size_t whylen);

/* Opens `path` for reading ("-": standard input; the command line refuses a
 * second "-", which would read nothing). On failure adds an error naming the
 * file and the system's reason to `d` (may be NULL) and returns CS_EIO.
 * Caller closes with cs_infile_close. */
cs_status cs_infile_open(const char *path, cs_diags *d, cs_infile **out);

/* Reads up to `cap` bytes; *got is 0 at end of input. CS_EIO on a read or
 * decompression error (a truncated .gz is an error, not a short file),
 * with a diagnostic naming the file. */
cs_status cs_infile_read(cs_infile *f, void *buf, size_t cap, size_t *got, cs_diags *d);

/* True when the input was gzip-compressed. */
bool cs_infile_compressed(const cs_infile *f);

/* Closes; accepts NULL. */
void cs_infile_close(cs_infile *f);

/* Reads a whole file (decompressed) of at most `max_bytes` bytes into a heap
 * buffer with a terminating NUL (not counted in *len); caller frees.
 * CS_EIO (cannot open or read) or CS_ERANGE (larger than max_bytes), each with
 * a diagnostic naming the file in `d` (may be NULL); outputs untouched on
 * failure. */
cs_status cs_file_slurp(const char *path, size_t max_bytes, char **buf, size_t *len, cs_diags *d);

#endif
