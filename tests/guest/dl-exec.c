/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dl-exec.c - rule U9: `dl-exec PROG32 PROG64` makes itself SCHED_DEADLINE
 * (1 ms every 100 ms) and execs PROG32, then (if that failed) PROG64, each
 * with the argument `show`; `dl-exec show` prints the ISA, the policy and
 * the affinity it runs with. Upstream refuses the 32-bit exec of a 64-bit
 * deadline task with ENOEXEC when the root domain has 64-bit-only CPUs; a
 * 32-bit task cannot become a deadline task there (its affinity, narrowed
 * to M, does not span the root domain: EPERM). */
#define _GNU_SOURCE
#include "guest.h"
#include "sched-attr.h"

#include <sched.h>
#include <sys/syscall.h>

static void show(void)
{
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    printf("%s: policy %d cpus", ISA, sched_getscheduler(0));
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            printf(" %d", cpu);
    printf("\n");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 2 && strcmp(argv[1], "show") == 0) {
        show();
        return 0;
    }
    if (argc != 3)
        return 2;
    struct attr a = {.size = sizeof a,
                     .policy = SCHED_DEADLINE,
                     .runtime = 1 * MS,
                     .deadline = 100 * MS,
                     .period = 100 * MS};
    if (setattr(0, &a, 0) < 0) {
        printf("%s: sched_setattr: %s\n", ISA, err_name(errno));
        return 1;
    }
    for (int i = 1; i <= 2; i++) {
        execl(argv[i], argv[i], "show", (char *)NULL);
        printf("%s: exec %s: %s\n", ISA, i == 1 ? "32-bit" : "64-bit", err_name(errno));
    }
    return 1;
}
