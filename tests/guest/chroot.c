/* SPDX-License-Identifier: GPL-2.0-or-later */
/* chroot.c - chroot(2) (issue 26 item 5). `chroot errors`: ENOENT,
 * ENOTDIR, EACCES and EPERM as a user, EFAULT. `chroot jail`: a root in
 * /tmp/jail with symlinks that try to leave it, its cwd inside and
 * outside ("(unreachable)"), ".." at the root, /proc/PID/root seen from
 * both sides, fork keeping the root and exec of /prog inside it.
 * `chroot inside`: what /prog prints once run inside the jail (also by
 * coreutils' chroot: `chroot /tmp/jail /prog inside`). `chroot coreutils
 * SELF` makes the jail, its /prog a copy of SELF (this program as the guest
 * reaches it: through -L under a --sysroot), and runs the sysroot's
 * /usr/sbin/chroot so. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *err_name(int e)
{
    switch (e) {
    case 0: return "ok";
    case ENOENT: return "ENOENT";
    case ENOTDIR: return "ENOTDIR";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EFAULT: return "EFAULT";
    case ELOOP: return "ELOOP";
    default: return "other";
    }
}

static const char *res(int r)
{
    return err_name(r < 0 ? errno : 0);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The first line of path, or its error. */
static void cat(const char *what, const char *path)
{
    char buf[128] = "";
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    if (!fgets(buf, sizeof buf, f))
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    printf("%s: %s\n", what, buf);
}

/* The getcwd system call: glibc's wrapper turns "(unreachable)..." into
 * ENOENT. */
static void cwd(const char *what)
{
    char buf[256];
    long n = syscall(SYS_getcwd, buf, sizeof buf);
    printf("%s: %s\n", what, n > 0 ? buf : err_name(errno));
}

static void link_of(const char *what, int dir, const char *path)
{
    char buf[256];
    ssize_t n = readlinkat(dir, path, buf, sizeof buf - 1);
    if (n < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    buf[n] = '\0';
    printf("%s: %s\n", what, buf);
}

/* Copies this program (found at self) to path (the jail's /prog). */
static int copy_self(const char *self, const char *path)
{
    int in = open(self, O_RDONLY);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    char buf[65536];
    ssize_t n;
    while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            return -1;
    close(in);
    close(out);
    return in >= 0 && out >= 0 ? 0 : -1;
}

static int setup(const char *self)
{
    mkdir("/tmp/jail", 0755);
    mkdir("/tmp/jail/sub", 0755);
    mkdir("/tmp/jail/tmp", 0755);
    put("/tmp/jail/hello", "hello from inside\n");
    put("/tmp/outside", "outside\n");
    symlink("/hello", "/tmp/jail/abs");
    symlink("../../../../../hello", "/tmp/jail/sub/up");
    symlink("/tmp/outside", "/tmp/jail/escape");
    return copy_self(self, "/tmp/jail/prog");
}

/* Run inside the jail (by exec of /prog or by coreutils' chroot). */
static int inside(int argc, char **argv)
{
    cwd("inside: getcwd");
    printf("inside: AT_EXECFN: %s\n", (const char *)getauxval(AT_EXECFN));
    cat("inside: /hello", "/hello");
    cat("inside: /abs", "/abs");
    cat("inside: /sub/up", "/sub/up");
    cat("inside: /../../hello", "/../../hello");
    cat("inside: /escape", "/escape");
    cat("inside: /tmp/outside", "/tmp/outside");
    printf("inside: chdir ..: %s\n", res(chdir("..")));
    cwd("inside: getcwd after ..");
    printf("inside: /proc exists: %s\n", access("/proc/self", F_OK) == 0 ? "yes" : "no");
    if (argc > 2) { /* a /proc descriptor from before the chroot */
        int proc = atoi(argv[2]);
        link_of("inside+fd: self/exe", proc, "self/exe");
        int maps = openat(proc, "self/maps", O_RDONLY);
        FILE *f = maps >= 0 ? fdopen(maps, "r") : NULL;
        char line[512];
        while (f && fgets(line, sizeof line, f))
            if (strstr(line, "prog")) {
                printf("inside+fd: maps names %s", strchr(line, '/'));
                break;
            }
        if (f)
            fclose(f);
    }
    return 0;
}

static int errors(void)
{
    mkdir("/tmp/d", 0755);
    mkdir("/tmp/noexec", 0600);
    put("/tmp/file", "x\n");
    printf("missing: %s\n", res(chroot("/tmp/missing")));
    printf("file: %s\n", res(chroot("/tmp/file")));
    printf("file/: %s\n", res(chroot("/tmp/file/")));
    printf("empty: %s\n", res(chroot("")));
    printf("NULL: %s\n", res((int)syscall(SYS_chroot, NULL)));
    pid_t pid = fork();
    if (pid == 0) {
        if (setuid(1000) < 0)
            return 1;
        printf("user missing: %s\n", res(chroot("/tmp/missing")));
        printf("user noexec: %s\n", res(chroot("/tmp/noexec")));
        printf("user dir: %s\n", res(chroot("/tmp/d")));
        return 0;
    }
    int status;
    waitpid(pid, &status, 0);
    printf("root dir: %s\n", res(chroot("/tmp/d")));
    cwd("root getcwd after");
    return 0;
}

static int jail(void)
{
    if (setup("/proc/self/exe") < 0) {
        printf("setup failed\n");
        return 1;
    }
    int proc = open("/proc", O_RDONLY | O_DIRECTORY);
    if (chdir("/tmp") < 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        /* cwd stays outside the new root */
        printf("chroot: %s\n", res(chroot("/tmp/jail")));
        cwd("outside cwd: getcwd");
        cat("outside cwd: outside (relative)", "outside");
        cat("outside cwd: /hello", "/hello");
        link_of("readlinkat(/proc, self/root)", proc, "self/root");
        link_of("readlinkat(/proc, self/cwd)", proc, "self/cwd");
        printf("outside cwd: chdir ../..: %s\n", res(chdir("../..")));
        cwd("outside cwd: getcwd after ../..");
        printf("chdir /: %s\n", res(chdir("/")));
        cwd("getcwd after chdir /");
        link_of("readlinkat(/proc, self/cwd) after", proc, "self/cwd");
        pid_t child = fork();
        if (child == 0) {
            cat("forked child: /hello", "/hello");
            cwd("forked child: getcwd");
            return 0;
        }
        waitpid(child, NULL, 0);
        printf("chroot again to /sub: %s\n", res(chroot("/sub")));
        cat("in /sub root: /up", "/up");
        printf("chroot /..: %s\n", res(chroot("/..")));
        cwd("getcwd in /sub root");
        execl("/../prog", "prog", "inside", (char *)NULL);
        printf("exec /../prog in /sub root: %s\n", err_name(errno));
        return 0;
    }
    int status;
    waitpid(pid, &status, 0);
    printf("child status: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    pid = fork();
    if (pid == 0) {
        if (chroot("/tmp/jail") < 0 || chdir("/") < 0)
            return 1;
        char fd[16];
        snprintf(fd, sizeof fd, "%d", proc);
        execl("/prog", "prog", "inside", fd, (char *)NULL);
        printf("exec /prog: %s\n", err_name(errno));
        return 1;
    }
    waitpid(pid, &status, 0);
    printf("exec child status: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    /* the parent's own root is untouched */
    cat("parent: /tmp/outside", "/tmp/outside");
    char path[64];
    int ready[2];
    if (pipe(ready) < 0)
        return 1;
    pid = fork();
    if (pid == 0) {
        if (chroot("/tmp/jail") < 0 || write(ready[1], "", 1) != 1)
            return 1;
        pause();
        return 0;
    }
    char byte;
    if (read(ready[0], &byte, 1) != 1)
        return 1;
    snprintf(path, sizeof path, "/proc/%d/root", (int)pid);
    link_of("parent: readlink /proc/CHILD/root", AT_FDCWD, path);
    kill(pid, 9);
    waitpid(pid, NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (strcmp(c, "errors") == 0)
        return errors();
    if (strcmp(c, "jail") == 0)
        return jail();
    if (strcmp(c, "inside") == 0)
        return inside(argc, argv);
    if (strcmp(c, "coreutils") == 0 && argc > 2 && setup(argv[2]) == 0) {
        /* the sysroot's chroot(8): chroot(2), chdir("/"), exec */
        execl("/usr/sbin/chroot", "chroot", "/tmp/jail", "/prog", "inside", (char *)NULL);
        printf("exec /usr/sbin/chroot: %s\n", err_name(errno));
        return 1;
    }
    fprintf(stderr, "usage: chroot errors|jail|inside|coreutils SELF\n");
    return 2;
}
