/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pingpong.c - one task of the busy mixed workload
 * (examples/scenarios/busy-mixed.yaml): it forks a partner and the two pass
 * a counter back and forth through a pair of pipes ROUNDS times, yielding
 * the vCPU after each step, so that many of them keep the scheduler busy
 * with wake-ups, migrations and switches. Prints one line, exits 0. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reads the counter from in, sends it on incremented, `rounds` times. */
static int relay(int in, int out, int rounds, int first)
{
    int value = first;
    if (first >= 0 && write(out, &value, sizeof value) != sizeof value)
        return -1;
    for (int i = 0; i < rounds; i++) {
        if (read(in, &value, sizeof value) != sizeof value)
            return -1;
        value++;
        sched_yield();
        if ((first < 0 || i + 1 < rounds) && write(out, &value, sizeof value) != sizeof value)
            return -1;
    }
    return value;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 50;
    int there[2], back[2];
    if (pipe(there) < 0 || pipe(back) < 0)
        return 2;
    pid_t child = fork();
    if (child < 0)
        return 2;
    if (child == 0)
        _exit(relay(there[0], back[1], rounds, -1) < 0 ? 1 : 0);
    int last = relay(back[0], there[1], rounds, 0);
    int status;
    waitpid(child, &status, 0);
    printf("%s: %d round trips, counter %d, partner %s\n",
           sizeof(void *) == 8 ? "aarch64" : "arm", rounds, last,
           WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed");
    return last == 2 * rounds ? 0 : 1;
}
