/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control-workload.c - a workload to steer through the control socket
 * (tests/e2e/control.py): `control-workload OTHER` forks a child that execs
 * OTHER (this program built for the other ISA) with "child", which names
 * itself "wl-\xff-child" (a byte the control socket's JSON shows as '?');
 * both loop on sched_yield. The child ends when it gets SIGUSR1 (sent with `asymu ctl
 * PATH signal PID SIGUSR1`), the parent once the child has ended. */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
    (void)sig;
    got_usr1 = 1;
}

static int child(void)
{
    signal(SIGUSR1, on_usr1);
    prctl(PR_SET_NAME, "wl-\xff-child");
    while (!got_usr1)
        sched_yield();
    printf("child: SIGUSR1 (%zu-bit)\n", sizeof(void *) * 8);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "child") == 0)
        return child();
    if (argc != 2) {
        fprintf(stderr, "usage: control-workload OTHER-ISA-PROGRAM\n");
        return 2;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(argv[1], argv[1], "child", (char *)NULL);
        perror("execl");
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0)
        sched_yield();
    printf("parent: child exited with %d (%zu-bit)\n", WEXITSTATUS(status), sizeof(void *) * 8);
    return 0;
}
