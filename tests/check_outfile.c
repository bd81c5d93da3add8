/* check_outfile.c: atomic output files (base/outfile.c): the target
 * appears whole or not at all, a failed write (ENOSPC from /dev/full dup'd
 * under the stream) leaves the old target and no temporary file, a planted
 * symlink is replaced and never followed, the mode is 0666 less the umask,
 * the end-of-stream check, and the directory lock refuses a second holder. */
#define _DEFAULT_SOURCE
#include "clustersim/base/outfile.h"
#include "test_util.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *mkdir_tmp(void)
{
    char t[] = "/tmp/cs_check_outfile_XXXXXX";
    char *d = mkdtemp(t);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[256];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(test_outfile_commit_and_abort)
{
    char *dir = mkdir_tmp();
    char path[512], why[512];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    cs_outfile *f;
    ck_assert_int_eq(cs_outfile_open(path, &f, why, sizeof why), CS_OK);
    fputs("hello\n", cs_outfile_fp(f));
    ck_assert_int_eq(access(path, F_OK), -1); /* nothing at the target before the commit */
    ck_assert_int_eq(entries(dir), 1);       /* the temporary file, beside it */
    ck_assert_int_eq(cs_outfile_commit(f, why, sizeof why), CS_OK);
    ck_assert_str_eq(slurp(path), "hello\n");
    ck_assert_int_eq(entries(dir), 1);
    /* abort: the old file stays, the temporary file goes */
    ck_assert_int_eq(cs_outfile_open(path, &f, why, sizeof why), CS_OK);
    fputs("half", cs_outfile_fp(f));
    cs_outfile_abort(f);
    ck_assert_str_eq(slurp(path), "hello\n");
    ck_assert_int_eq(entries(dir), 1);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_outfile_write_error_keeps_old_file)
{
    char *dir = mkdir_tmp();
    char path[512], why[512];
    snprintf(path, sizeof path, "%s/page.html", dir);
    ck_assert_int_eq(cs_outfile_write_all(path, "OLD\n", 4, why, sizeof why), CS_OK);
    cs_outfile *f;
    ck_assert_int_eq(cs_outfile_open(path, &f, why, sizeof why), CS_OK);
    /* /dev/full under the stream: every write(2) fails with ENOSPC */
    int full = open("/dev/full", O_WRONLY);
    ck_assert_int_ge(full, 0);
    ck_assert_int_ge(dup2(full, fileno(cs_outfile_fp(f))), 0);
    close(full);
    static char big[100000];
    memset(big, 'x', sizeof big);
    fwrite(big, 1, sizeof big, cs_outfile_fp(f)); /* fails part way */
    clearerr(cs_outfile_fp(f));                   /* even with the flag cleared, */
    fputs("tail", cs_outfile_fp(f));              /* the final flush fails */
    ck_assert_int_eq(cs_outfile_commit(f, why, sizeof why), CS_EIO);
    char want[600];
    snprintf(want, sizeof want, "cannot write %s: No space left on device", path);
    ck_assert_str_eq(why, want);
    ck_assert_str_eq(slurp(path), "OLD\n");
    ck_assert_int_eq(entries(dir), 1); /* the temporary file was removed */
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_outfile_error_flag_alone_fails)
{
    /* A stream whose error flag is set but whose buffer flushes (a write
     * failed earlier and later writes succeeded) must not commit. */
    char *dir = mkdir_tmp();
    char path[512], why[512];
    snprintf(path, sizeof path, "%s/x.dat", dir);
    cs_outfile *f;
    ck_assert_int_eq(cs_outfile_open(path, &f, why, sizeof why), CS_OK);
    fputs("data", cs_outfile_fp(f));
    (void)fgetc(cs_outfile_fp(f)); /* reading a write-only stream sets its error flag */
    ck_assert(ferror(cs_outfile_fp(f)));
    ck_assert_int_eq(cs_outfile_commit(f, why, sizeof why), CS_EIO);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(entries(dir), 0);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_outfile_symlink_replaced_not_followed)
{
    char *dir = mkdir_tmp();
    char path[512], victim[512], why[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    ck_assert_int_eq(cs_outfile_write_all(victim, "victim\n", 7, why, sizeof why), CS_OK);
    ck_assert_int_eq(symlink(victim, path), 0);
    ck_assert_int_eq(cs_outfile_write_all(path, "new\n", 4, why, sizeof why), CS_OK);
    ck_assert_str_eq(slurp(victim), "victim\n");
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_str_eq(slurp(path), "new\n");
    /* mode: 0666 less the umask (022 here), as fopen gives */
    mode_t old = umask(022);
    ck_assert_int_eq((int)(st.st_mode & 0777), (int)(0666 & ~old));
    umask(old);
    unlink(path);
    unlink(victim);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_outfile_bad_targets)
{
    char *dir = mkdir_tmp();
    char path[512], why[512];
    cs_outfile *f;
    /* the target is a directory */
    ck_assert_int_eq(cs_outfile_open(dir, &f, why, sizeof why), CS_EIO);
    ck_assert_ptr_nonnull(strstr(why, "Is a directory"));
    /* no such directory */
    snprintf(path, sizeof path, "%s/missing/x", dir);
    ck_assert_int_eq(cs_outfile_open(path, &f, why, sizeof why), CS_EIO);
    char want[600];
    snprintf(want, sizeof want, "cannot write %s: No such file or directory", path);
    ck_assert_str_eq(why, want);
    /* the diags variants: file = the target, message = the reason */
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_ptr_null(cs_outfile_open_d(path, &d));
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, path);
    ck_assert_str_eq(d.items[0].msg, "No such file or directory");
    cs_diags_fini(&d);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_outfile_stream_finish)
{
    char why[256];
    FILE *f = fopen("/dev/full", "w");
    ck_assert_ptr_nonnull(f);
    fputs("x", f);
    ck_assert(!cs_stream_finish(f, "standard output", why, sizeof why));
    ck_assert_str_eq(why, "cannot write standard output: No space left on device");
    fclose(f);
    f = fopen("/dev/null", "w");
    fputs("x", f);
    ck_assert(cs_stream_finish(f, "standard output", why, sizeof why));
    fclose(f);
}
END_TEST

START_TEST(test_outfile_dirlock)
{
    char *dir = mkdir_tmp();
    char why[512];
    int a = cs_dirlock_acquire(dir, why, sizeof why);
    ck_assert_int_ge(a, 0);
    /* a second holder (another open file description: another process, or
     * this one) is refused at once, naming the directory */
    ck_assert_int_eq(cs_dirlock_acquire(dir, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "is in use by another clustersim process"));
    ck_assert_ptr_nonnull(strstr(why, dir));
    cs_dirlock_release(a);
    int b = cs_dirlock_acquire(dir, why, sizeof why);
    ck_assert_int_ge(b, 0);
    cs_dirlock_release(b);
    /* a symlink planted as the lock file is not followed */
    char lk[512], victim[512];
    snprintf(lk, sizeof lk, "%s/.clustersim.lock", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    unlink(lk);
    ck_assert_int_eq(symlink(victim, lk), 0);
    ck_assert_int_eq(cs_dirlock_acquire(dir, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "cannot lock"));
    ck_assert_int_eq(access(victim, F_OK), -1);
    unlink(lk);
    rmdir(dir);
    free(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("outfile");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_outfile_commit_and_abort);
    tcase_add_test(tc, test_outfile_write_error_keeps_old_file);
    tcase_add_test(tc, test_outfile_error_flag_alone_fails);
    tcase_add_test(tc, test_outfile_symlink_replaced_not_followed);
    tcase_add_test(tc, test_outfile_bad_targets);
    tcase_add_test(tc, test_outfile_stream_finish);
    tcase_add_test(tc, test_outfile_dirlock);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(suite()); }
