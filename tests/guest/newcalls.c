/* SPDX-License-Identifier: GPL-2.0-or-later */
/* newcalls.c - the syscalls of issue 26 item 5 that programs asked for:
 * mlock and its family with RLIMIT_MEMLOCK and VmLck (cyclictest -m and
 * rt-tests call mlockall), get_robust_list, membarrier, vhangup, unshare
 * and setns on a kernel without namespaces (tests/e2e/newcalls.cmake).
 * Each line is one call and its result. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define PAGE 4096

static void show(const char *what, long r)
{
    printf("%s: %s\n", what, r < 0 ? err_name(errno) : r == 0 ? "0" : "ok");
}

static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':')
            kb = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

static void mlocks(void)
{
    char *buf = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("VmLck before: %ld kB\n", status_kb("VmLck"));
    show("mlock 3 pages from inside the first", mlock(buf + 100, 2 * PAGE));
    printf("VmLck: %ld kB\n", status_kb("VmLck"));
    show("mlock again", mlock(buf, 3 * PAGE));
    printf("VmLck: %ld kB\n", status_kb("VmLck"));
    munmap(buf + 6 * PAGE, PAGE);
    show("mlock over a hole", mlock(buf + 5 * PAGE, 2 * PAGE));
    printf("VmLck: %ld kB\n", status_kb("VmLck"));
    show("mlock2 with flags 2", syscall(SYS_mlock2, buf, PAGE, 2));
    show("mlock2 MLOCK_ONFAULT", syscall(SYS_mlock2, buf + 7 * PAGE, PAGE, MLOCK_ONFAULT));
    printf("VmLck: %ld kB\n", status_kb("VmLck"));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("child VmLck: %ld kB\n", status_kb("VmLck"));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    show("munlock", munlock(buf, 8 * PAGE));
    printf("VmLck: %ld kB\n", status_kb("VmLck"));
    show("mlockall 0", mlockall(0));
    show("mlockall MCL_ONFAULT", mlockall(MCL_ONFAULT));
    show("mlockall MCL_CURRENT|MCL_FUTURE", mlockall(MCL_CURRENT | MCL_FUTURE));
    printf("VmLck equals VmSize: %s\n", status_kb("VmLck") == status_kb("VmSize") ? "yes" : "no");
    show("munlockall", munlockall());
    printf("VmLck: %ld kB\n", status_kb("VmLck"));
}

/* A user without CAP_IPC_LOCK, RLIMIT_MEMLOCK 64 KiB (the default). */
static void mlocks_as_user(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0) {
        waitpid(pid, NULL, 0);
        return;
    }
    show("setuid 65534", setuid(65534));
    char *buf = mmap(NULL, 32 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    show("user: mlock 64 KiB", mlock(buf, 16 * PAGE));
    show("user: mlock the same again", mlock(buf, 16 * PAGE));
    show("user: mlock one page more", mlock(buf + 16 * PAGE, PAGE));
    show("user: mlockall MCL_CURRENT", mlockall(MCL_CURRENT));
    show("user: mlockall MCL_FUTURE", mlockall(MCL_FUTURE));
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_MEMLOCK, &none);
    show("user: munlock", munlock(buf, 16 * PAGE));
    show("user: mlock with RLIMIT_MEMLOCK 0", mlock(buf, PAGE));
    show("user: get_robust_list of pid 1", syscall(SYS_get_robust_list, 1, &buf, &(size_t){0}));
    show("user: vhangup", syscall(SYS_vhangup));
    fflush(stdout);
    _exit(0);
}

static void robust(void)
{
    struct robust_list_head head = {.list = {&head.list}};
    show("set_robust_list", syscall(SYS_set_robust_list, &head, sizeof head));
    void *got = NULL;
    size_t len = 0;
    show("get_robust_list 0", syscall(SYS_get_robust_list, 0, &got, &len));
    printf("head is ours: %s, len %zu\n", got == &head ? "yes" : "no", len);
    show("get_robust_list of no such pid", syscall(SYS_get_robust_list, 99999, &got, &len));
    show("get_robust_list to a bad address", syscall(SYS_get_robust_list, 0, (void *)8, &len));
}

static void barriers(void)
{
    printf("membarrier QUERY: %ld\n", syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0));
    show("membarrier GLOBAL", syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0));
    show("membarrier PRIVATE_EXPEDITED unregistered",
         syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
    show("membarrier REGISTER_PRIVATE_EXPEDITED",
         syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0));
    show("membarrier PRIVATE_EXPEDITED",
         syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
    show("membarrier PRIVATE_EXPEDITED_SYNC_CORE unregistered",
         syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
    show("membarrier PRIVATE_EXPEDITED_RSEQ",
         syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, 0, 0));
    show("membarrier with flags 1", syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 1, 0));
    show("membarrier 999", syscall(SYS_membarrier, 999, 0, 0));
}

static void files(void)
{
    int fd = open("/tmp/newcalls", O_CREAT | O_RDWR, 0644), wo = open("/tmp/newcalls", O_WRONLY);
    int p[2];
    pipe(p);
    show("readahead of a file", syscall(SYS_readahead, fd, 0, 4096));
    show("readahead of a pipe", syscall(SYS_readahead, p[0], 0, 4096));
    show("readahead of a write-only file", syscall(SYS_readahead, wo, 0, 4096));
    show("sync_file_range", sync_file_range(fd, 0, 4096, SYNC_FILE_RANGE_WRITE));
    show("sync_file_range flags 8", sync_file_range(fd, 0, 4096, 8));
    show("sync_file_range offset -1", sync_file_range(fd, -1, 4096, 0));
    show("sync_file_range of a pipe", sync_file_range(p[1], 0, 0, 0));
    int pidfd = syscall(SYS_pidfd_open, getpid(), 0);
    int copy = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
    printf("pidfd_getfd: %s, close-on-exec %d\n", copy >= 0 ? "a descriptor" : err_name(errno),
           copy >= 0 ? fcntl(copy, F_GETFD) : -1);
    show("pidfd_getfd flags 1", syscall(SYS_pidfd_getfd, pidfd, fd, 1));
    show("pidfd_getfd of a closed descriptor", syscall(SYS_pidfd_getfd, pidfd, 999, 0));
    show("pidfd_getfd of a descriptor that is no pidfd", syscall(SYS_pidfd_getfd, fd, 1, 0));
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    int childfd = syscall(SYS_pidfd_open, child, 0);
    siginfo_t si;
    waitid(P_PID, child, &si, WEXITED | WNOWAIT);
    show("pidfd_getfd of an exited process", syscall(SYS_pidfd_getfd, childfd, 0, 0));
    waitpid(child, NULL, 0);
}

static void namespaces(void)
{
    show("unshare 0", unshare(0));
    show("unshare CLONE_NEWUSER", unshare(CLONE_NEWUSER));
    show("unshare CLONE_NEWNS", unshare(CLONE_NEWNS));
    show("unshare CLONE_FILES", unshare(CLONE_FILES));
    show("unshare CLONE_FS|CLONE_SYSVSEM", unshare(CLONE_FS | CLONE_SYSVSEM));
    show("unshare 0x1", unshare(1));
    show("setns -1", setns(-1, 0));
    show("setns 0", setns(0, CLONE_NEWNET));
    show("vhangup", syscall(SYS_vhangup));
}

int main(void)
{
    mlocks();
    mlocks_as_user();
    robust();
    barriers();
    files();
    namespaces();
    return 0;
}
