/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawn.c - process creation: N times fork, exec PROG ARGS... in the child,
 * and wait for it. Usage: spawn N PROG [ARGS...]. Under qemu-user (no
 * binfmt_misc here) PROG is qemu itself with the guest program as argument,
 * which is what binfmt_misc would run. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: spawn N PROG [ARGS...]\n");
        return 2;
    }
    unsigned long n = strtoul(argv[1], NULL, 0);
    for (unsigned long i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            execv(argv[2], argv + 2);
            perror("execv");
            _exit(127);
        }
        int status;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
            fprintf(stderr, "spawn: child %lu failed (status %#x)\n", i, status);
            return 1;
        }
    }
    printf("spawn: %lu fork+exec+wait of %s\n", n, argv[2]);
    return 0;
}
