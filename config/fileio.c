/* fileio.c: input files for every reader (config layer): plain or
 * gzip-compressed, from a path or standard input, through zlib's gz* stream,
 * which passes uncompressed input through unchanged. */
#define _POSIX_C_SOURCE 200809L /* open, dup, O_CLOEXEC */
#include "clustersim/config/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "clustersim/base/xmalloc.h"

struct cs_infile {
    gzFile gz;
    char *name;  /* for messages: the path, or "<stdin>" */
};

bool cs_path_is_stdin(const char *path)
{
    return path && strcmp(path, "-") == 0;
}

const char *cs_path_display(const char *path)
{
    return cs_path_is_stdin(path) ? "<stdin>" : path;
}

/* What a file that is not a regular one is, for the message. */
static const char *cs__kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
           : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : "not a regular file";
}

cs_status cs_infile_open_why(const char *path, cs_infile **out, char *why, size_t whylen)
{
    /* A named input must be a regular file: a FIFO would block in open()
     * until a writer comes (O_NONBLOCK returns at once, and fstat tells),
     * a device could be read forever. Standard input ("-") may be a pipe. */
    int fd = cs_path_is_stdin(path) ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return CS_EIO;
    }
    if (!cs_path_is_stdin(path)) {
        struct stat sb;
        if (fstat(fd, &sb) != 0) {
            snprintf(why, whylen, "%s", strerror(errno));
            close(fd);
            return CS_EIO;
        }
        if (!S_ISREG(sb.st_mode)) {
            snprintf(why, whylen, "%s, expected a regular file (a pipe can be read as - on standard input)",
                     cs__kind(sb.st_mode));
            close(fd);
            return CS_EIO;
        }
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
            snprintf(why, whylen, "%s", strerror(errno));
            close(fd);
            return CS_EIO;
        }
    }
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        close(fd);
        snprintf(why, whylen, "out of memory in zlib");
        return CS_EIO;
    }
    gzbuffer(gz, 128 * 1024);
    cs_infile *f = cs_xmalloc(sizeof *f);
    f->gz = gz;
    f->name = cs_xstrdup(cs_path_display(path));
    *out = f;
    return CS_OK;
}

cs_status cs_infile_open(const char *path, cs_diags *d, cs_infile **out)
{
    char why[256];
    cs_status st = cs_infile_open_why(path, out, why, sizeof why);
    if (st != CS_OK)
        cs_diag_error(d, cs_path_display(path), 0, 0, "cannot open: %s", why);
    return st;
}

cs_status cs_infile_read_why(cs_infile *f, void *buf, size_t cap, size_t *got, char *why, size_t whylen)
{
    if (cap > (size_t)INT_MAX)
        cap = (size_t)INT_MAX;
    errno = 0;
    int r = gzread(f->gz, buf, (unsigned)cap);
    int e = errno; /* before gzerror, which may change it */
    int zerr = Z_OK;
    const char *msg = gzerror(f->gz, &zerr);
    /* gzread returns 0 both at a clean end and after a truncated member;
     * only gzerror tells them apart. */
    if (r < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
        snprintf(why, whylen, "%s",
                 zerr == Z_ERRNO ? (e ? strerror(e) : "read error") : (msg && *msg ? msg : "decompression error"));
        return CS_EIO;
    }
    *got = (size_t)r;
    return CS_OK;
}

cs_status cs_infile_read(cs_infile *f, void *buf, size_t cap, size_t *got, cs_diags *d)
{
    char why[256];
    cs_status st = cs_infile_read_why(f, buf, cap, got, why, sizeof why);
    if (st != CS_OK)
        cs_diag_error(d, f->name, 0, 0, "read error: %s", why);
    return st;
}

bool cs_infile_compressed(const cs_infile *f)
{
    return f && gzdirect(f->gz) == 0;
}

void cs_infile_close(cs_infile *f)
{
    if (!f)
        return;
    gzclose_r(f->gz);
    free(f->name);
    free(f);
}

cs_status cs_file_slurp_why(const char *path, size_t max_bytes, char **buf_out, size_t *len_out,
                            char *why, size_t whylen)
{
    cs_infile *f;
    cs_status st = cs_infile_open_why(path, &f, why, whylen);
    if (st != CS_OK)
        return st;
    /* An uncompressed regular file larger than the limit is refused from
     * its size, unread (a compressed one can only be judged by reading). */
    struct stat sb;
    if (!cs_path_is_stdin(path) && !cs_infile_compressed(f) && stat(path, &sb) == 0 &&
        S_ISREG(sb.st_mode) && (unsigned long long)sb.st_size > (unsigned long long)max_bytes) {
        cs_infile_close(f);
        snprintf(why, whylen, "larger than %zu bytes", max_bytes);
        return CS_ERANGE;
    }
    size_t cap = 64 * 1024, len = 0;
    if (cap > max_bytes + 1)
        cap = max_bytes + 1;
    char *buf = cs_xmalloc(cap + 1);
    for (;;) {
        if (len == cap) {
            if (len > max_bytes)
                break;
            cap = cap > max_bytes / 2 ? max_bytes + 1 : 2 * cap;
            buf = cs_xrealloc(buf, cap + 1, 1);
        }
        size_t got = 0;
        st = cs_infile_read_why(f, buf + len, cap - len, &got, why, whylen);
        if (st != CS_OK) {
            free(buf);
            cs_infile_close(f);
            return st;
        }
        if (got == 0)
            break;
        len += got;
    }
    cs_infile_close(f);
    if (len > max_bytes) {
        snprintf(why, whylen, "larger than %zu bytes", max_bytes);
        free(buf);
        return CS_ERANGE;
    }
    buf[len] = '\0';
    *buf_out = buf;
    *len_out = len;
    return CS_OK;
}

cs_status cs_file_slurp(const char *path, size_t max_bytes, char **buf, size_t *len, cs_diags *d)
{
    char why[256];
    cs_status st = cs_file_slurp_why(path, max_bytes, buf, len, why, sizeof why);
    if (st != CS_OK)
        cs_diag_error(d, cs_path_display(path), 0, 0, "cannot read: %s", why);
    return st;
}
