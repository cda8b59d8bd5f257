/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pingpong.c - process switches: parent and child pass one byte back and forth
 * over two pipes N times (each round trip blocks both once). Usage:
 * pingpong [N] (default 100k). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pipe-xfer.h"

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000ul;
    int to_child[2], to_parent[2];
    if (pipe(to_child) || pipe(to_parent)) {
        perror("pipe");
        return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        xfer(to_child[0], to_parent[1], 0, n);
        _exit(0);
    }
    xfer(to_parent[0], to_child[1], 1, n);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
        fprintf(stderr, "pingpong: child failed (status %#x)\n", status);
        return 1;
    }
    printf("pingpong: %lu round trips\n", n);
    return 0;
}
