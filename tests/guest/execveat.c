/* SPDX-License-Identifier: GPL-2.0-or-later */
/* execveat.c - execveat (emu/kernel/sys_task.c): fexecve (AT_EMPTY_PATH),
 * a path relative to a directory descriptor, the name the new program gets
 * ("/dev/fd/N", "/dev/fd/N/path": its AT_EXECFN and comm), and the errors
 * of do_execveat_common(). Run without arguments; the exec'd copies get
 * "child". */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static char *const envp[] = {"EXECVEAT=1", NULL};

static int child(int argc, char **argv)
{
    char comm[32] = "", exe[4096] = "";
    FILE *f = fopen("/proc/self/comm", "r");
    if (f && fgets(comm, sizeof comm, f))
        comm[strcspn(comm, "\n")] = '\0';
    if (f)
        fclose(f);
    const char *execfn = (const char *)getauxval(AT_EXECFN);
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) < 0)
        snprintf(exe, sizeof exe, "%s", err_name(errno));
    printf("  child: argc %d argv[1] %s execfn %s comm %s exe %s env %s\n", argc, argv[1],
           execfn ? execfn : "(none)", comm, exe, getenv("EXECVEAT") ? getenv("EXECVEAT") : "-");
    return 0;
}

/* Runs execveat in a child and reports how the child ended. */
static void run(const char *what, int dirfd, const char *path, int flags)
{
    printf("%s:\n", what);
    pid_t c = fork();
    if (c == 0) {
        char *argv[] = {"execveat", "child", NULL};
        syscall(SYS_execveat, dirfd, path, argv, envp, flags);
        printf("  execveat: %s\n", err_name(errno));
        _exit(0);
    }
    int st = 0;
    waitpid(c, &st, 0);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child(argc, argv);
    /* A copy of this program in /tmp: the build directory it lies in is
     * not in the guest's tree. */
    const char *self = "/tmp/execveat-prog", *base = "execveat-prog";
    int in = open("/proc/self/exe", O_RDONLY), out = open(self, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            return 1;
    close(in);
    close(out);
    int fd = open(self, O_RDONLY);
    int dfd = open("/tmp", O_RDONLY | O_DIRECTORY);
    printf("program fd %d, its directory fd %d\n", fd, dfd);
    run("fexecve (AT_EMPTY_PATH)", fd, "", AT_EMPTY_PATH);
    run("relative to a directory", dfd, base, 0);
    /* fexecve of a memfd: no path to open again. */
    int mfd = memfd_create("prog", 0);
    int in2 = open(self, O_RDONLY);
    while ((n = read(in2, buf, sizeof buf)) > 0)
        if (write(mfd, buf, (size_t)n) != n)
            return 5;
    close(in2);
    run("fexecve of a memfd", mfd, "", AT_EMPTY_PATH);
    close(mfd);
    run("absolute, dirfd ignored", 99, self, 0);
    run("empty path without AT_EMPTY_PATH", fd, "", 0);
    run("unknown flag", fd, "", AT_EMPTY_PATH | 0x2);
    run("bad dirfd", 99, base, 0);
    run("dirfd not a directory", fd, base, 0);
    run("missing file", dfd, "no-such-program", 0);
    symlink(self, "/tmp/execveat-link");
    int tfd = dfd;
    run("symlink, AT_SYMLINK_NOFOLLOW", tfd, "execveat-link", AT_SYMLINK_NOFOLLOW);
    run("symlink followed", tfd, "execveat-link", 0);
    int data = open("/tmp/execveat-data", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (write(data, "data\n", 5) != 5)
        return 3;
    run("not executable", data, "", AT_EMPTY_PATH);
    /* A script through a close-on-exec descriptor: its interpreter could not
     * open /dev/fd/N after the exec. */
    int script = open("/tmp/execveat-script", O_RDWR | O_CREAT | O_TRUNC, 0755);
    if (write(script, "#!/bin/sh\nexit 0\n", 17) != 17)
        return 4;
    close(script);
    script = open("/tmp/execveat-script", O_RDONLY | O_CLOEXEC);
    run("script through a close-on-exec fd", script, "", AT_EMPTY_PATH);
    int dirce = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    run("script relative to a close-on-exec dirfd", dirce, "execveat-script", 0);
    return 0;
}
