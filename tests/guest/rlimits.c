/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rlimits.c - resource limits and the private /tmp's size limit
 * (docs/processes.md "Limits", docs/guest-root.md). Subcommands:
 *   nofile    RLIMIT_NOFILE: opens until EMFILE, dup2/dup3 and F_DUPFD
 *             past it, setrlimit's EINVAL and EPERM, fork and exec keep it
 *   show-nofile  prints the NOFILE limits (what exec kept)
 *   fsize     RLIMIT_FSIZE with a SIGXFSZ handler: short write, EFBIG,
 *             ftruncate; then without one: killed by SIGXFSZ (status 153)
 *   cpu       RLIMIT_CPU {0, 1}: SIGXCPU at once, then SIGKILL at 1 s
 *   as        RLIMIT_AS: a mapping past it fails with ENOMEM
 *   stack     RLIMIT_STACK 1 MiB, then exec: the stack mapping's size
 *   show-stack   prints the size of the mapping holding the stack
 *   nproc     RLIMIT_NPROC {1, 1}: root forks all the same, as on Linux
 *   prlimit   prlimit64 on another process and the errors of the calls
 *   tmp       writes to /tmp until ENOSPC, EFBIG past the size, space
 *             freed by unlink is found again */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static const char *self_path;

static const char *res(long r)
{
    return r < 0 ? err_name(errno) : "0";
}

static void print_limit(const char *name, int resource)
{
    struct rlimit r;
    getrlimit(resource, &r);
    printf("%s: ", name);
    if (r.rlim_cur == RLIM_INFINITY)
        printf("unlimited");
    else
        printf("%llu", (unsigned long long)r.rlim_cur);
    if (r.rlim_max == RLIM_INFINITY)
        printf(" / unlimited\n");
    else
        printf(" / %llu\n", (unsigned long long)r.rlim_max);
}

static int set(int resource, rlim_t cur, rlim_t max)
{
    struct rlimit r = {cur, max};
    return setrlimit(resource, &r);
}

static int nofile(void)
{
    print_limit("NOFILE at start", RLIMIT_NOFILE);
    printf("setrlimit NOFILE 20/10: %s\n", res(set(RLIMIT_NOFILE, 20, 10)));
    printf("setrlimit NOFILE hard 2000000: %s\n", res(set(RLIMIT_NOFILE, 10, 2000000)));
    printf("setrlimit NOFILE 10/20: %s\n", res(set(RLIMIT_NOFILE, 10, 20)));
    int n = 0, fd;
    while ((fd = open("/dev/null", O_RDONLY)) >= 0)
        n++;
    printf("opened %d, then %s\n", n, err_name(errno));
    printf("dup2 to 10: %s\n", res(dup2(0, 10)));
    printf("dup2 to 9: %s\n", res(dup2(0, 9) == 9 ? 0 : -1));
    printf("F_DUPFD from 10: %s\n", res(fcntl(0, F_DUPFD, 10)));
    printf("pipe: %s\n", res(pipe((int[2]){0, 0})));
    printf("setrlimit NOFILE 1024/1048576 (root raises the hard limit): %s\n",
           res(set(RLIMIT_NOFILE, 1024, 1048576)));
    printf("F_DUPFD from 10: %d\n", fcntl(0, F_DUPFD, 10));
    set(RLIMIT_NOFILE, 50, 60);
    pid_t pid = fork();
    if (pid == 0) {
        print_limit("NOFILE in the child", RLIMIT_NOFILE);
        fflush(stdout);
        execl(self_path, self_path, "show-nofile", (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("child status %d\n", WEXITSTATUS(status));
    return 0;
}

static volatile int xfsz;

static void on_xfsz(int sig)
{
    (void)sig;
    xfsz++;
}

static int fsize(void)
{
    signal(SIGXFSZ, on_xfsz);
    printf("setrlimit FSIZE 1000: %s\n", res(set(RLIMIT_FSIZE, 1000, RLIM_INFINITY)));
    int fd = open("/tmp/fsize", O_CREAT | O_RDWR | O_TRUNC, 0600);
    static char buf[600];
    printf("write 600: %zd\n", write(fd, buf, 600));
    printf("write 600: %zd\n", write(fd, buf, 600));
    ssize_t r = write(fd, buf, 1);
    printf("write 1: %zd %s, SIGXFSZ %d\n", r, err_name(errno), xfsz);
    printf("pwrite 10 at 995: %zd\n", pwrite(fd, buf, 10, 995));
    r = ftruncate(fd, 2000);
    printf("ftruncate 2000: %s, SIGXFSZ %d\n", res(r), xfsz);
    printf("ftruncate 500: %s, SIGXFSZ %d\n", res(ftruncate(fd, 500)), xfsz);
    int p[2];
    pipe(p);
    printf("write 600 to a pipe (no file size): %zd\n", write(p[1], buf, 600));
    signal(SIGXFSZ, SIG_DFL);
    fflush(stdout);
    pwrite(fd, buf, 1, 1000);
    printf("not reached\n");
    return 1;
}

static volatile int xcpu;
static struct rlimit xcpu_seen;

static void on_xcpu(int sig)
{
    (void)sig;
    if (xcpu++ == 0)
        getrlimit(RLIMIT_CPU, &xcpu_seen);
}

static int cpu(void)
{
    signal(SIGXCPU, on_xcpu);
    printf("setrlimit CPU 0/1: %s\n", res(set(RLIMIT_CPU, 0, 1)));
    fflush(stdout);
    while (xcpu == 0)
        ;
    printf("SIGXCPU; the soft limit moved to %llu\n", (unsigned long long)xcpu_seen.rlim_cur);
    fflush(stdout);
    for (volatile unsigned long i = 0; i != ~0ul; i++)
        ;
    printf("not reached\n");
    return 1;
}

static int as(void)
{
    printf("setrlimit AS 256M: %s\n", res(set(RLIMIT_AS, 256u << 20, RLIM_INFINITY)));
    void *p = mmap(NULL, 512u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap 512M: %s\n", p == MAP_FAILED ? err_name(errno) : "mapped");
    p = mmap(NULL, 16u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap 16M: %s\n", p == MAP_FAILED ? err_name(errno) : "mapped");
    void *big = malloc(300u << 20);
    printf("malloc 300M: %s\n", big ? "got it" : "NULL");
    return 0;
}

static int show_stack(void)
{
    uintptr_t here = (uintptr_t)&here;
    FILE *f = fopen("/proc/self/maps", "r");
    unsigned long lo, hi;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= here && here < hi)
            printf("stack mapping: %lu KiB\n", (hi - lo) >> 10);
    return 0;
}

static int stack(void)
{
    printf("setrlimit STACK 1M: %s\n", res(set(RLIMIT_STACK, 1u << 20, RLIM_INFINITY)));
    fflush(stdout);
    execl(self_path, self_path, "show-stack", (char *)NULL);
    return 127;
}

static int nproc(void)
{
    printf("setrlimit NPROC 1/1: %s\n", res(set(RLIMIT_NPROC, 1, 1)));
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    printf("fork as root: %s\n", pid > 0 ? "a child" : err_name(errno));
    waitpid(pid, NULL, 0);
    return 0;
}

static int prlimits(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    struct rlimit nl = {77, 88}, old;
    printf("prlimit64 on the child: %s\n", res(prlimit(pid, RLIMIT_NOFILE, &nl, &old)));
    printf("its old NOFILE: %llu / %llu\n", (unsigned long long)old.rlim_cur,
           (unsigned long long)old.rlim_max);
    printf("prlimit64 reads back: %s", res(prlimit(pid, RLIMIT_NOFILE, NULL, &old)));
    printf(" %llu / %llu\n", (unsigned long long)old.rlim_cur, (unsigned long long)old.rlim_max);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    printf("prlimit64 on pid 9999: %s\n", res(prlimit(9999, RLIMIT_NOFILE, NULL, &old)));
    printf("prlimit64 resource 16: %s\n", res(prlimit(0, 16, NULL, &old)));
    printf("getrlimit resource 99: %s\n", res(getrlimit(99, &old)));
    printf("setrlimit bad pointer: %s\n", res(syscall(SYS_setrlimit, RLIMIT_CORE, (void *)8)));
    print_limit("STACK", RLIMIT_STACK);
    print_limit("CORE", RLIMIT_CORE);
    print_limit("CPU", RLIMIT_CPU);
    print_limit("FSIZE", RLIMIT_FSIZE);
    print_limit("AS", RLIMIT_AS);
    print_limit("MEMLOCK", RLIMIT_MEMLOCK);
    return 0;
}

/* Writes chunk-byte writes to path until one fails: the bytes written. */
static long fill(const char *path, size_t chunk)
{
    static char buf[100000];
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    long total = 0, writes = 0;
    ssize_t n;
    while ((n = write(fd, buf, chunk)) > 0)
        total += n, writes++;
    printf("%s: %ld bytes in %ld writes, then %s\n", path, total, writes, err_name(errno));
    close(fd);
    return total;
}

static int tmp(void)
{
    fill("/tmp/a", 100000);
    fill("/tmp/b", 100);
    int fd = open("/tmp/c", O_CREAT | O_RDWR, 0600);
    printf("ftruncate 4096 when full: %s\n", res(ftruncate(fd, 4096)));
    printf("unlink /tmp/a: %s\n", res(unlink("/tmp/a")));
    printf("pwrite at 1 TiB: %s\n", res(pwrite(fd, "x", 1, (off_t)1 << 40)));
    printf("ftruncate 2M: %s\n", res(ftruncate(fd, 2u << 20)));
    printf("ftruncate 4096: %s\n", res(ftruncate(fd, 4096)));
    fill("/tmp/d", 65536);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    self_path = argv[0];
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "nofile"))
        return nofile();
    if (!strcmp(cmd, "show-nofile")) {
        print_limit("NOFILE after exec", RLIMIT_NOFILE);
        return 0;
    }
    if (!strcmp(cmd, "fsize"))
        return fsize();
    if (!strcmp(cmd, "cpu"))
        return cpu();
    if (!strcmp(cmd, "as"))
        return as();
    if (!strcmp(cmd, "stack"))
        return stack();
    if (!strcmp(cmd, "show-stack"))
        return show_stack();
    if (!strcmp(cmd, "nproc"))
        return nproc();
    if (!strcmp(cmd, "prlimit"))
        return prlimits();
    if (!strcmp(cmd, "tmp"))
        return tmp();
    fprintf(stderr, "usage: rlimits nofile|fsize|cpu|as|stack|nproc|prlimit|tmp\n");
    return 2;
}
