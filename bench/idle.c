/* SPDX-License-Identifier: GPL-2.0-or-later */
/* idle.c - switch cost with idle tasks around: K tasks that never wake
 * (threads sleeping in nanosleep, processes blocked in read, or both), then
 * N pipe round trips between the parent and a child as in pingpong.c. With
 * wait queues and a timer heap the cost per round trip must not grow with
 * K. Usage: idle N K threads|procs|both (K of each for both). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pipe-xfer.h"

static void *sleeper(void *arg)
{
    (void)arg;
    struct timespec forever = {1000000, 0};
    nanosleep(&forever, NULL);
    return NULL;
}

static void start_sleepers(unsigned long k)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 128 * 1024); /* arm64 glibc's smallest */
    for (unsigned long i = 0; i < k; i++) {
        pthread_t th;
        if (pthread_create(&th, &attr, sleeper, NULL)) {
            fprintf(stderr, "idle: pthread_create failed after %lu threads\n", i);
            exit(1);
        }
    }
}

/* K children blocked reading `hold`, which closes at the end. */
static void start_blocked(unsigned long k, int hold[2])
{
    for (unsigned long i = 0; i < k; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "idle: fork failed after %lu processes\n", i);
            exit(1);
        }
        if (pid == 0) {
            char c;
            close(hold[1]);
            _exit(read(hold[0], &c, 1) == 0 ? 0 : 3);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: idle N K threads|procs|both\n");
        return 1;
    }
    unsigned long n = strtoul(argv[1], NULL, 0), k = strtoul(argv[2], NULL, 0);
    int threads = !strcmp(argv[3], "threads") || !strcmp(argv[3], "both");
    int procs = !strcmp(argv[3], "procs") || !strcmp(argv[3], "both");
    int hold[2], to_child[2], to_parent[2];
    if (pipe(hold) || pipe(to_child) || pipe(to_parent)) {
        perror("pipe");
        return 1;
    }
    if (procs)
        start_blocked(k, hold);
    pid_t pid = fork();
    if (pid == 0) {
        xfer(to_child[0], to_parent[1], 0, n);
        _exit(0);
    }
    if (threads)
        start_sleepers(k);
    xfer(to_parent[0], to_child[1], 1, n);
    close(hold[1]);
    int status, bad = 0;
    pid_t w;
    while ((w = wait(&status)) > 0)
        bad += !WIFEXITED(status) || WEXITSTATUS(status);
    printf("idle: %lu round trips with %lu idle %s, %d failed children\n", n, k, argv[3], bad);
    return bad != 0;
}
