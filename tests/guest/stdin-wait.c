/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stdin-wait.c - the parent reads stdin while its child works: the child
 * must finish first when the input comes late, because a task waiting for
 * the console does not stop the machine. Used by tests/e2e/stdin-wait.sh. */
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 1000; i++)
            sched_yield();
        printf("child done\n");
        fflush(stdout);
        _exit(0);
    }
    char buf[64];
    ssize_t n = read(0, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    printf("parent read: %s", buf);
    int status;
    waitpid(pid, &status, 0);
    printf("child exited %d\n", WEXITSTATUS(status));
    return 0;
}
