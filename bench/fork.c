/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fork.c - process creation without exec: N times fork, the child _exits
 * with i & 0x7f at once, the parent waits for it and checks the status.
 * Usage: fork N. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000ul;
    for (unsigned long i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0)
            _exit((int)(i & 0x7f));
        int status;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != (int)(i & 0x7f)) {
            fprintf(stderr, "fork: child %lu ended with status %#x\n", i, status);
            return 1;
        }
    }
    printf("fork: %lu fork+_exit+wait\n", n);
    return 0;
}
