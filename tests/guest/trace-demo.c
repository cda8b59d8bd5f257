/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-demo.c - a small deterministic run for the trace tests
 * (tests/e2e/trace_check.py): the parent forks a child that asks for the
 * 64-bit-only vCPUs 6-7 and execs the 32-bit PROG32 (the article's case:
 * upstream overrides its affinity with 0-3, kill SIGKILLs it), waits for it,
 * offlines and onlines vCPU 3, and moves itself to vCPUs 2-3.
 *   trace-demo PROG32       the parent
 *   trace-demo child        what PROG32 runs: prints its affinity, exits 3 */
#include "pol-common.h"

#include <fcntl.h>
#include <sys/wait.h>

static void show_affinity(const char *who)
{
    cpu_set_t set;
    char list[256];
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        printf("%s %s: affinity %s\n", ISA, who, format_cpulist(&set, list, sizeof list));
    fflush(stdout);
}

static void set_affinity(const char *who, const char *cpus)
{
    cpu_set_t set;
    parse_cpulist(cpus, &set);
    int r = sched_setaffinity(0, sizeof set, &set);
    printf("%s %s: sched_setaffinity(%s) = %s\n", ISA, who, cpus, r == 0 ? "0" : err_name(errno));
    fflush(stdout);
}

static void cpu_online(int cpu, int online)
{
    char path[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/online", cpu);
    int fd = open(path, O_WRONLY);
    ssize_t n = fd < 0 ? -1 : write(fd, online ? "1" : "0", 1);
    printf("%s parent: cpu%d online=%d: %s\n", ISA, cpu, online, n == 1 ? "ok" : err_name(errno));
    fflush(stdout);
    if (fd >= 0)
        close(fd);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "child") == 0) {
        show_affinity("child");
        spin(20000);
        return 3;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: trace-demo PROG32 | child\n");
        return 2;
    }
    show_affinity("parent");
    pid_t pid = fork();
    if (pid == 0) {
        set_affinity("child", "6-7");
        execl(argv[1], argv[1], "child", (char *)NULL);
        printf("%s child: exec: %s\n", ISA, err_name(errno));
        return 1;
    }
    int status;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status))
        printf("%s parent: child exited %d\n", ISA, WEXITSTATUS(status));
    else
        printf("%s parent: child killed by signal %d\n", ISA, WTERMSIG(status));
    fflush(stdout);
    cpu_online(3, 0);
    cpu_online(3, 1);
    set_affinity("parent", "2-3");
    spin(20000);
    return 0;
}
