/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outside.c - a task that takes what comes from outside the machine, for
 * scenarios (docs/scenarios.md): prints the file argv[1] (one placed in
 * /tmp by the scenario), echoes each line of stdin until EOF, prints its
 * affinity (which an outside setaffinity or hotplug may have changed), then
 * waits for a signal to end it. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    char line[256];
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    while (f && fgets(line, sizeof line, f))
        printf("file: %s", line);
    while (fgets(line, sizeof line, stdin))
        printf("stdin: %s", line);
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    printf("affinity:");
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            printf(" %d", cpu);
    printf("\n");
    for (;;)
        pause();
}
