/* gnuplot.c: starts gnuplot on a script with fork + execvp (no shell) and
 * copies the bundled templates of plots/ next to their data files. Shared by
 * every command that draws figures (see include/clustersim/report/gnuplot.h). */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/base/datadir.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Forks, optionally enters dir, execs gnuplot with argv and waits. */
static int cs__gnuplot_exec(const char *dir, char *const argv[], bool quiet)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* Only async-signal-safe calls between fork and exec. */
        if (dir && chdir(dir) != 0)
            _exit(126);
        if (quiet) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
        }
        execvp("gnuplot", argv);
        _exit(errno == ENOENT ? CS_GNUPLOT_MISSING : 126);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int cs_gnuplot_run(const char *dir, const char *script)
{
    char *const argv[] = {"gnuplot", (char *)script, NULL};
    return cs__gnuplot_exec(dir, argv, false);
}

bool cs_gnuplot_available(void)
{
    char *const argv[] = {"gnuplot", "--version", NULL};
    return cs__gnuplot_exec(NULL, argv, true) == 0;
}

const char *cs_gnuplot_template_dir(void)
{
    return cs_data_plots_dir();
}

cs_status cs_gnuplot_copy_template(const char *dir, const char *name, cs_diags *d)
{
    char src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/%s", cs_gnuplot_template_dir(), name);
    snprintf(dst, sizeof dst, "%s/%s", dir, name);
    FILE *in = fopen(src, "r");
    if (!in) {
        cs_diag_error(d, src, 0, 0, "%s", strerror(errno));
        return CS_EIO;
    }
    cs_outfile *of = cs_outfile_open_d(dst, d);
    if (!of) {
        fclose(in);
        return CS_EIO;
    }
    FILE *out = cs_outfile_fp(of);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    bool rd = !ferror(in);
    fclose(in);
    if (!rd) {
        cs_outfile_abort(of);
        cs_diag_error(d, src, 0, 0, "cannot read the template");
        return CS_EIO;
    }
    return cs_outfile_commit_d(of, d);
}
