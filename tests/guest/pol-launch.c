/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pol-launch.c - the launcher of the policy tests: sets its own affinity,
 * then becomes (or, with "fork", starts and waits for) another program.
 *
 *   pol-launch CPULIST PROG ARGS...       sched_setaffinity(0, CPULIST), then
 *                                         execv(PROG, PROG ARGS...)
 *   pol-launch CPULIST fork PROG ARGS...  the same in a child; the parent
 *                                         prints how the child ended
 *
 * CPULIST is a cpulist ("4-7", "2,5") or "-" to keep the inherited affinity.
 * The launcher prints nothing else unless something fails, so a test's
 * stdout is the target's plus, with "fork", one "launch:" line. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pol-common.h"

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3) {
        printf("usage: pol-launch CPULIST [fork] PROG ARGS...\n");
        return 2;
    }
    if (strcmp(argv[1], "-") != 0) {
        cpu_set_t set;
        if (parse_cpulist(argv[1], &set) != 0) {
            printf("launch: bad cpulist \"%s\"\n", argv[1]);
            return 2;
        }
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            printf("launch: sched_setaffinity %s: %s\n", argv[1], err_name(errno));
            return 1;
        }
    }
    char **prog = argv + 2;
    int forking = strcmp(prog[0], "fork") == 0;
    if (forking)
        prog++;
    if (!prog[0]) {
        printf("launch: no program\n");
        return 2;
    }
    pid_t pid = forking ? fork() : 0;
    if (pid < 0) {
        printf("launch: fork: %s\n", err_name(errno));
        return 1;
    }
    if (pid == 0) {
        execv(prog[0], prog);
        printf("launch: execve %s: %s\n", prog[0], err_name(errno));
        _exit(1);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) {
        printf("launch: waitpid: %s\n", err_name(errno));
        return 1;
    }
    if (WIFSIGNALED(status))
        printf("launch: child killed by signal %d (WTERMSIG)\n", WTERMSIG(status));
    else
        printf("launch: child exited %d\n", WEXITSTATUS(status));
    return 0;
}
