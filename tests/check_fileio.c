/* check_fileio.c: the one input reader (config/fileio.c): plain files pass
 * through unchanged, gzip is decompressed, a truncated or corrupt .gz is an
 * error (never a short file), the size cap holds, "-" reads standard input,
 * and a missing file names itself. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, mkdtemp, mkfifo, dup2, fileno */
#include "clustersim/config/fileio.h"
#include "test_util.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Writes bytes to a fresh temporary file; returns its path (static). */
static const char *tmp_with(const void *bytes, size_t n)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/cs_fileio_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq((long)write(fd, bytes, n), (long)n);
    close(fd);
    return path;
}

/* gzip of `text` made with zlib (a gzip header: windowBits 15 + 16). */
static unsigned char *gz_of(const char *text, size_t *n)
{
    size_t len = strlen(text);
    unsigned char *out = malloc(len + 128);
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)(uintptr_t)text;
    z.avail_in = (unsigned)len;
    z.next_out = out;
    z.avail_out = (unsigned)(len + 128);
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *n = z.total_out;
    deflateEnd(&z);
    return out;
}

START_TEST(test_fileio_plain_passthrough)
{
    const char *text = "a,b\n1,2\n";
    const char *p = tmp_with(text, strlen(text));
    char *buf;
    size_t len;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_file_slurp(p, 1024, &buf, &len, &d), CS_OK);
    ck_assert_uint_eq(len, 8);
    ck_assert_str_eq(buf, text);  /* NUL-terminated */
    free(buf);
    cs_infile *f;
    ck_assert_int_eq(cs_infile_open(p, &d, &f), CS_OK);
    ck_assert(!cs_infile_compressed(f));
    cs_infile_close(f);
    unlink(p);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_fileio_gzip_decompressed)
{
    /* 3,000 lines so the stream spans several internal buffers */
    size_t cap = 3000 * 12 + 1, o = 0;
    char *text = malloc(cap);
    for (int i = 0; i < 3000; i++)
        o += (size_t)snprintf(text + o, cap - o, "%d,%d\n", i, 2 * i);
    size_t gn;
    unsigned char *gz = gz_of(text, &gn);
    ck_assert_uint_lt(gn, o);  /* it is compressed */
    const char *p = tmp_with(gz, gn);
    char *buf;
    size_t len;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_file_slurp(p, 1 << 20, &buf, &len, &d), CS_OK);
    ck_assert_uint_eq(len, o);
    ck_assert(memcmp(buf, text, o) == 0);
    free(buf);
    cs_infile *f;
    ck_assert_int_eq(cs_infile_open(p, &d, &f), CS_OK);
    ck_assert(cs_infile_compressed(f));
    cs_infile_close(f);
    unlink(p);
    free(gz);
    free(text);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_fileio_truncated_gzip_is_error)
{
    const char *text = "job_id,submit_s,gpus,duration_s\n1,0,8,3600\n2,10,16,7200\n";
    size_t gn;
    unsigned char *gz = gz_of(text, &gn);
    /* cut the 8-byte trailer (CRC and length) and some data */
    const char *p = tmp_with(gz, gn - 12);
    char *buf = NULL;
    size_t len = 77;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_file_slurp(p, 1 << 20, &buf, &len, &d), CS_EIO);
    ck_assert_ptr_null(buf);  /* outputs untouched on failure */
    ck_assert_uint_eq(len, 77);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert_str_eq(d.items[0].file, p);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "cannot read"));
    unlink(p);
    free(gz);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_fileio_size_cap)
{
    const char *text = "0123456789";
    const char *p = tmp_with(text, 10);
    char *buf = NULL;
    size_t len;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_file_slurp(p, 10, &buf, &len, &d), CS_OK);  /* exactly the cap */
    ck_assert_uint_eq(len, 10);
    free(buf);
    buf = NULL;
    ck_assert_int_eq(cs_file_slurp(p, 9, &buf, &len, &d), CS_ERANGE);
    ck_assert_ptr_null(buf);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "larger than 9 bytes"));
    unlink(p);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_fileio_missing_names_file)
{
    char *buf = NULL;
    size_t len;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_file_slurp("/nonexistent/dir/x.yaml", 100, &buf, &len, &d), CS_EIO);
    ck_assert_str_eq(d.items[0].file, "/nonexistent/dir/x.yaml");
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "No such file"));
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_fileio_stdin)
{
    const char *text = "schema_version: 1\n";
    const char *p = tmp_with(text, strlen(text));
    FILE *in = freopen(p, "r", stdin);
    ck_assert_ptr_nonnull(in);
    ck_assert(cs_path_is_stdin("-"));
    ck_assert(!cs_path_is_stdin("-x"));
    ck_assert_str_eq(cs_path_display("-"), "<stdin>");
    char *buf;
    size_t len;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_file_slurp("-", 1024, &buf, &len, &d), CS_OK);
    ck_assert_str_eq(buf, text);
    free(buf);
    unlink(p);
    cs_diags_fini(&d);
}
END_TEST

/* A named input must be a regular file: a FIFO once blocked in open()
 * until a writer came (the test would hit Check's timeout), a directory
 * gave "Is a directory" only at the first read, a device could be read
 * forever. Standard input stays allowed, pipe or not. */
START_TEST(test_fileio_refuses_non_regular)
{
    char dir[] = "/tmp/cs_fileio_fifo_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/in.fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *paths[] = {fifo, dir, "/dev/null"};
    const char *kinds[] = {"a FIFO, expected a regular file", "a directory, expected a regular file",
                           "a character device, expected a regular file"};
    for (int i = 0; i < 3; i++) {
        cs_infile *f = NULL;
        char why[256] = "";
        ck_assert_int_eq(cs_infile_open_why(paths[i], &f, why, sizeof why), CS_EIO);
        ck_assert_ptr_null(f);
        ck_assert_msg(strstr(why, kinds[i]), "%s: %s", paths[i], why);
        cs_diags d;
        cs_diags_init(&d);
        char *buf = NULL;
        size_t len = 0;
        ck_assert_int_eq(cs_file_slurp(paths[i], 1024, &buf, &len, &d), CS_EIO);
        ck_assert_str_eq(d.items[0].file, paths[i]);
        cs_diags_fini(&d);
    }
    unlink(fifo);
    rmdir(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fileio");
    TCase *tc = tcase_create("read");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_fileio_plain_passthrough);
    tcase_add_test(tc, test_fileio_gzip_decompressed);
    tcase_add_test(tc, test_fileio_truncated_gzip_is_error);
    tcase_add_test(tc, test_fileio_size_cap);
    tcase_add_test(tc, test_fileio_missing_names_file);
    tcase_add_test(tc, test_fileio_stdin);
    tcase_add_test(tc, test_fileio_refuses_non_regular);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(suite()); }
