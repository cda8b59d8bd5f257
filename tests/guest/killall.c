/* SPDX-License-Identifier: GPL-2.0-or-later */
/* killall.c - kill(-1, sig) reaches every process but pid 1 and the
 * caller, as Linux's kill_something_info: with no such process it fails
 * with ESRCH. pid 1 prints what each process saw (from their exit codes,
 * so the output does not depend on scheduling). Runs only as pid 1 of the
 * emulated machine: never run it on a host (under qemu-user) as root. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int exit_code_of(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

static int pending_usr1(void)
{
    sigset_t set;
    sigpending(&set);
    return sigismember(&set, SIGUSR1);
}

int main(void)
{
    /* Outside the emulator kill(-1) would signal every process of the host
     * the user may signal: run only as the machine's pid 1. */
    if (getpid() != 1) {
        fprintf(stderr, "killall: not pid 1; refusing to kill(-1) on this host\n");
        return 2;
    }
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL); /* inherited: a stray SIGUSR1 stays pending */

    pid_t alone = fork();
    if (alone == 0)
        _exit(kill(-1, 0) < 0 && errno == ESRCH ? 0 : 1);
    printf("kill(-1, 0) with only pid 1 and the caller: %s\n",
           exit_code_of(alone) == 0 ? "ESRCH" : "something else");

    int ready[2];
    if (pipe(ready) < 0)
        return 1;
    pid_t target = fork();
    if (target == 0) {
        struct timespec timeout = {5, 0};
        if (write(ready[1], "r", 1) != 1)
            _exit(2);
        _exit(sigtimedwait(&usr1, NULL, &timeout) == SIGUSR1 ? 0 : 1);
    }
    char c;
    if (read(ready[0], &c, 1) != 1)
        return 1;
    pid_t sender = fork();
    if (sender == 0) {
        int r = kill(-1, SIGUSR1);
        _exit((r == 0 ? 0 : 1) | (pending_usr1() ? 2 : 0));
    }
    int sent = exit_code_of(sender);
    printf("kill(-1, SIGUSR1): %s, the caller %s\n", sent & 1 ? "failed" : "0",
           sent & 2 ? "got it" : "was spared");
    printf("another process %s\n", exit_code_of(target) == 0 ? "got it" : "did not get it");
    printf("pid 1 %s\n", pending_usr1() ? "got it" : "was spared");
    return 0;
}
