/* SPDX-License-Identifier: GPL-2.0-or-later */
/* survive.c - runs `asymu run [OPTIONS] -- fuzz-ISA SEED N` for a range of
 * seeds and fails if asymu itself dies of a signal, reports a broken
 * invariant (status 70) or does not end within a bound: whatever the guest
 * does, the host survives. Usage: survive ASYMU GUEST FIRST_SEED LAST_SEED N */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TIME_LIMIT_S 60

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: survive ASYMU GUEST FIRST_SEED LAST_SEED N\n");
        return 2;
    }
    int failures = 0, first = atoi(argv[3]), last = atoi(argv[4]);
    for (int seed = first; seed <= last; seed++) {
        char seedtext[16];
        snprintf(seedtext, sizeof seedtext, "%d", seed);
        pid_t pid = fork();
        if (pid == 0) {
            freopen("/dev/null", "r", stdin);
            freopen("/dev/null", "w", stdout);
            freopen("/dev/null", "w", stderr);
            alarm(TIME_LIMIT_S); /* a hung asymu dies of SIGALRM: a failure */
            execl(argv[1], argv[1], "run", "--check-invariants", "--max-procs", "8", "--max-mem",
                  "256M", "--", argv[2], seedtext, argv[5], (char *)NULL);
            _exit(127);
        }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) < 0) {
            perror("survive");
            return 2;
        }
        /* The guest's own end is an exit status (128 + N when a signal ended
         * it); a signal here means asymu itself died, 70 that it caught
         * itself breaking an invariant. */
        if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 70)) {
            printf("FAIL: seed %d: asymu %s %d\n", seed,
                   WIFSIGNALED(status) ? "died of signal" : "exited with",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            failures++;
        }
    }
    printf("%d passed, %d failed\n", last - first + 1 - failures, failures);
    return failures ? 1 : 0;
}
