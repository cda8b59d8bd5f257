/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pol-many.c - many tasks at once: forks N children, all alive together;
 * the odd ones exec a 32-bit program, the even ones stay 64-bit; each
 * spins with yields. The parent reaps them all and prints how many of each
 * kind exited 0, were killed by SIGKILL, or ended otherwise.
 *
 *   pol-many N PROG32 CPULIST SPIN
 *
 * The 32-bit children run `PROG32 spin:SPIN` (pol-show), after setting
 * their affinity to CPULIST ("-": keep all CPUs); the 64-bit ones spin SPIN
 * iterations themselves and exit 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pol-common.h"

#define MAX_CHILDREN 1000


int main(int argc, char **argv)
{
    static pid_t pids[MAX_CHILDREN];
    cpu_set_t set32;
    if (argc != 5) {
        printf("usage: pol-many N PROG32 CPULIST SPIN\n");
        return 2;
    }
    int n = atoi(argv[1]);
    const char *prog32 = argv[2];
    int set_affinity = strcmp(argv[3], "-") != 0;
    char spin_arg[32];
    snprintf(spin_arg, sizeof spin_arg, "spin:%s", argv[4]);
    if (n < 1 || n > MAX_CHILDREN || (set_affinity && parse_cpulist(argv[3], &set32) != 0)) {
        printf("pol-many: bad arguments\n");
        return 2;
    }
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        if (pids[i] < 0) {
            printf("fork %d: %s\n", i, err_name(errno));
            return 1;
        }
        if (pids[i] > 0)
            continue;
        if (i % 2 == 0) {
            spin(atol(argv[4]));
            _exit(0);
        }
        if (set_affinity && sched_setaffinity(0, sizeof set32, &set32) != 0)
            _exit(100);
        execl(prog32, prog32, spin_arg, (char *)NULL);
        _exit(101);
    }
    int exited0[2] = {0, 0}, killed9[2] = {0, 0}, other[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        int status;
        if (waitpid(pids[i], &status, 0) != pids[i]) {
            printf("waitpid %d: %s\n", (int)pids[i], err_name(errno));
            return 1;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            exited0[i % 2]++;
        else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
            killed9[i % 2]++;
        else
            other[i % 2]++;
    }
    printf("%d children\n", n);
    for (int k = 0; k < 2; k++)
        printf("%s: %d exited 0, %d killed by SIGKILL, %d other\n", k ? "32-bit" : "64-bit",
               exited0[k], killed9[k], other[k]);
    return 0;
}
