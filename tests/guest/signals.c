/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signals.c - dies of the signal its argument names ("segv": store through
 * a null pointer, "ill": an undefined instruction, "abort": abort(3),
 * "term": raise(SIGTERM), "kill": kill(getpid(), SIGKILL)), or with
 * "usr1" catches SIGUSR1 in a handler and exits 0. Prints one line first so
 * a test sees output written before the death. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
    caught = sig;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    printf("mode %s\n", mode);
    fflush(stdout);
    if (strcmp(mode, "segv") == 0) {
        /* Both volatiles: the compiler must load the pointer and must store,
         * not turn the store into a trap instruction or drop it. */
        volatile int *volatile p = NULL;
        *p = 1;
    } else if (strcmp(mode, "ill") == 0) {
        __asm__ volatile("udf #0");
    } else if (strcmp(mode, "abort") == 0) {
        abort();
    } else if (strcmp(mode, "term") == 0) {
        raise(SIGTERM);
    } else if (strcmp(mode, "kill") == 0) {
        kill(getpid(), SIGKILL);
    } else if (strcmp(mode, "usr1") == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_usr1;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGUSR1, &sa, NULL) != 0) {
            printf("sigaction failed\n");
            return 1;
        }
        raise(SIGUSR1);
        printf("caught %d\n", (int)caught);
        return caught == SIGUSR1 ? 0 : 1;
    }
    printf("still alive\n");
    return 1;
}
