/* SPDX-License-Identifier: GPL-2.0-or-later */
/* whereami.c - what the emulated kernel did to this task: its ISA, its
 * affinity, and the vCPUs it ran on over a few hundred yields. Built for
 * both ISAs; the demo runs it under each policy. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

static void print_cpus(const char *what, const cpu_set_t *set)
{
    printf(" %s", what);
    const char *sep = " ";
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, set)) {
            printf("%s%d", sep, cpu);
            sep = ",";
        }
    }
}

int main(void)
{
    cpu_set_t allowed, ran;
    CPU_ZERO(&ran);
    sched_getaffinity(0, sizeof allowed, &allowed);
    for (int i = 0; i < 300; i++) {
        CPU_SET(sched_getcpu(), &ran);
        sched_yield();
    }
    printf("%s task:", sizeof(void *) == 8 ? "64-bit" : "32-bit");
    print_cpus("affinity", &allowed);
    print_cpus("ran on", &ran);
    printf("\n");
    return 0;
}
