/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tls.c - thread-local storage: an initialised __thread variable (.tdata),
 * a zeroed array (.tbss), the thread pointer, and errno, which lives in TLS.
 * On AArch32 this exercises set_tls and TPIDRURO; on AArch64 TPIDR_EL0.
 * With "threads", also four pthreads that each see their own copies. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static __thread int value = 42;
static __thread char zeroed[64];

static int zeroed_ok(void)
{
    for (size_t i = 0; i < sizeof(zeroed); i++)
        if (zeroed[i])
            return 0;
    return 1;
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    int fresh = value == 42 && zeroed_ok();
    value = 100 + id;
    memset(zeroed, id, sizeof(zeroed));
    /* Another thread's writes must not show here: read back after a yield. */
    usleep(1000);
    return (void *)(long)(fresh && value == 100 + id && zeroed[63] == id);
}

int main(int argc, char **argv)
{
    printf("initial %d\n", value);
    printf("tbss zero %s\n", zeroed_ok() ? "yes" : "no");
    value = 7;
    zeroed[10] = 1;
    printf("after set %d\n", value);
    printf("tbss[10] %d\n", zeroed[10]);
    printf("thread pointer %s\n", __builtin_thread_pointer() ? "nonzero" : "zero");
    errno = 0;
    int r = close(-1);
    printf("close(-1) %d errno %s\n", r, errno == EBADF ? "EBADF" : "other");
    if (argc > 1 && strcmp(argv[1], "threads") == 0) {
        pthread_t t[4];
        for (long i = 0; i < 4; i++)
            if (pthread_create(&t[i], NULL, worker, (void *)(i + 1)) != 0) {
                printf("pthread_create failed\n");
                return 1;
            }
        for (int i = 0; i < 4; i++) {
            void *ok;
            pthread_join(t[i], &ok);
            printf("thread %d %s\n", i + 1, ok ? "ok" : "BAD");
        }
        printf("main still %d\n", value);
    }
    return 0;
}
