/* outfile.c: atomic output files (temporary beside the target, then
 * rename), the end-of-stream check and directory locks (base layer; see
 * include/clustersim/base/outfile.h). POSIX: mkstemp, fsync, rename, flock. */
#define _DEFAULT_SOURCE /* flock, mkstemp, fchmod */
#include "clustersim/base/outfile.h"

#include "clustersim/base/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct cs_outfile {
    FILE *fp;
    char *path;
    char *tmp;
};

/* The process's umask, read once. umask(2) cannot be read without being
 * set, so reading it twice from two threads could leave it changed; the
 * first call comes before any sweep thread starts (the command line opens
 * its outputs from the main thread), and a race would only change the
 * mode of the output file, never its content. */
static mode_t cs__umask(void)
{
    static int have;
    static mode_t mask;
    if (!have) {
        mask = umask(022);
        umask(mask);
        have = 1;
    }
    return mask;
}

static void cs__why(char *why, size_t whylen, const char *path, int err)
{
    if (why && whylen)
        snprintf(why, whylen, "cannot write %s: %s", path, strerror(err));
}

static int cs__open(const char *path, cs_outfile **out);
static int cs__commit(cs_outfile *f);

cs_status cs_outfile_open(const char *path, cs_outfile **out, char *why, size_t whylen)
{
    int err = cs__open(path, out);
    if (err)
        cs__why(why, whylen, path, err);
    return err ? CS_EIO : CS_OK;
}

/* 0, or the errno value of the failure. */
static int cs__open(const char *path, cs_outfile **out)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return EISDIR;
    const char *slash = strrchr(path, '/');
    char *tmp;
    if (slash)
        tmp = cs_xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
    else
        tmp = cs_xasprintf(".%s.XXXXXX", path);
    int fd = mkstemp(tmp); /* O_CREAT | O_EXCL, mode 0600 */
    if (fd < 0) {
        int err = errno;
        free(tmp);
        return err;
    }
    FILE *fp = NULL;
    if (fchmod(fd, 0666 & ~cs__umask()) != 0 || !(fp = fdopen(fd, "w"))) {
        int err = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        return err;
    }
    cs_outfile *f = cs_xmalloc(sizeof *f);
    f->fp = fp;
    f->path = cs_xstrdup(path);
    f->tmp = tmp;
    *out = f;
    return 0;
}

FILE *cs_outfile_fp(cs_outfile *f)
{
    return f->fp;
}

const char *cs_outfile_path(const cs_outfile *f)
{
    return f->path;
}

/* The error of a stream's writes so far and of flushing the rest: 0 or an
 * errno. After a write failed earlier errno may be another call's by now,
 * so the stream is flushed again for the write's own reason (what stdio
 * still buffers fails the same way); EIO when that says nothing. */
static int cs__stream_err(FILE *fp)
{
    if (ferror(fp)) {
        int before = errno;
        clearerr(fp);
        errno = 0;
        if (fflush(fp) != 0 && errno)
            return errno;
        /* the flush went through: the data written before it is lost all the same */
        return before ? before : EIO;
    }
    if (fflush(fp) != 0)
        return errno ? errno : EIO;
    return 0;
}

static void cs__free(cs_outfile *f)
{
    free(f->path);
    free(f->tmp);
    free(f);
}

cs_status cs_outfile_commit(cs_outfile *f, char *why, size_t whylen)
{
    char *path = cs_xstrdup(f->path);
    int err = cs__commit(f);
    if (err)
        cs__why(why, whylen, path, err);
    free(path);
    return err ? CS_EIO : CS_OK;
}

static int cs__commit(cs_outfile *f)
{
    /* ferror first: a write that failed earlier (a full disk) may be
     * followed by a flush that succeeds, which would leave a short file. */
    int err = cs__stream_err(f->fp);
    if (!err && ferror(f->fp))
        err = EIO;
    if (!err && fsync(fileno(f->fp)) != 0 && errno != EINVAL && errno != EROFS)
        err = errno; /* EINVAL/EROFS: a file system without fsync (nothing to sync) */
    if (fclose(f->fp) != 0 && !err)
        err = errno;
    if (!err && rename(f->tmp, f->path) != 0)
        err = errno;
    if (err)
        unlink(f->tmp);
    cs__free(f);
    return err;
}

void cs_outfile_abort(cs_outfile *f)
{
    if (!f)
        return;
    fclose(f->fp);
    unlink(f->tmp);
    cs__free(f);
}

cs_outfile *cs_outfile_open_d(const char *path, cs_diags *d)
{
    cs_outfile *f = NULL;
    int err = cs__open(path, &f);
    if (err) {
        cs_diag_error(d, path, 0, 0, "%s", strerror(err));
        return NULL;
    }
    return f;
}

cs_status cs_outfile_commit_d(cs_outfile *f, cs_diags *d)
{
    char *path = cs_xstrdup(f->path);
    int err = cs__commit(f);
    if (err)
        cs_diag_error(d, path, 0, 0, "%s", strerror(err));
    free(path);
    return err ? CS_EIO : CS_OK;
}

cs_status cs_outfile_write_all(const char *path, const void *buf, size_t len, char *why,
                               size_t whylen)
{
    cs_outfile *f;
    cs_status st = cs_outfile_open(path, &f, why, whylen);
    if (st != CS_OK)
        return st;
    if (len > 0 && fwrite(buf, 1, len, f->fp) != len) {
        int err = errno ? errno : EIO;
        cs_outfile_abort(f);
        cs__why(why, whylen, path, err);
        return CS_EIO;
    }
    return cs_outfile_commit(f, why, whylen);
}

bool cs_stream_finish(FILE *fp, const char *name, char *why, size_t whylen)
{
    int err = cs__stream_err(fp);
    if (!err && ferror(fp))
        err = EIO;
    if (err)
        cs__why(why, whylen, name, err);
    return !err;
}

int cs_dirlock_acquire(const char *dir, char *why, size_t whylen)
{
    char *p = cs_xasprintf("%s/.clustersim.lock", dir);
    int fd = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (why && whylen)
            snprintf(why, whylen, "cannot lock %s: %s: %s", dir, p, strerror(errno));
        free(p);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (why && whylen)
            snprintf(why, whylen, "cannot lock %s: %s is not a regular file", dir, p);
        close(fd);
        free(p);
        return -1;
    }
    while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR)
            continue;
        if (why && whylen) {
            if (errno == EWOULDBLOCK)
                snprintf(why, whylen, "%s is in use by another clustersim process (it holds %s); "
                         "wait for it or use another directory", dir, p);
            else
                snprintf(why, whylen, "cannot lock %s: %s: %s", dir, p, strerror(errno));
        }
        close(fd);
        free(p);
        return -1;
    }
    free(p);
    return fd;
}

void cs_dirlock_release(int fd)
{
    if (fd >= 0)
        close(fd); /* closing the only descriptor releases the flock */
}
