/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stub-target.c - the program the gdb stub's tests debug
 * (tests/e2e/gdbstub.cmake), built with symbols and without optimisation:
 * a global to print, a call to step over, an exit code to see. With
 * `fork-exec PROGRAM` the child of a fork executes PROGRAM (the other
 * ISA's build) and the parent waits for it; with `signal` it raises
 * SIGUSR1, which a handler catches; with `fault` it writes to address 8. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int counter = 41;

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
    caught = sig;
}

static int add(int a, int b)
{
    return a + b;
}

int main(int argc, char **argv)
{
    counter = add(counter, 1);
    printf("counter %d (%d-bit)\n", counter, (int)sizeof(long) * 8);
    if (argc == 3 && strcmp(argv[1], "fork-exec") == 0) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            execl(argv[2], argv[2], (char *)NULL);
            _exit(127);
        }
        int status;
        waitpid(pid, &status, 0);
        printf("child exited with %d\n", WEXITSTATUS(status));
        return 5;
    }
    if (argc == 2 && strcmp(argv[1], "signal") == 0) {
        signal(SIGUSR1, on_usr1);
        raise(SIGUSR1);
        printf("handler caught %d\n", (int)caught);
    }
    if (argc == 2 && strcmp(argv[1], "fault") == 0) {
        fflush(stdout);
        *(volatile int *)8 = 1;
    }
    return 3;
}
