/* SPDX-License-Identifier: GPL-2.0-or-later */
/* churn.c - thread creation: N threads created (128 KiB stacks, glibc's
 * smallest on arm64 (PTHREAD_STACK_MIN), each with its
 * guard page), all alive at once, then joined. Usage: churn N. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *body(void *arg)
{
    return arg;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000ul;
    pthread_t *th = calloc(n, sizeof *th);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 128 * 1024);
    for (unsigned long i = 0; i < n; i++)
        if (!th || pthread_create(&th[i], &attr, body, (void *)i)) {
            fprintf(stderr, "churn: pthread_create failed after %lu threads\n", i);
            return 1;
        }
    for (unsigned long i = 0; i < n; i++) {
        void *r;
        if (pthread_join(th[i], &r) || r != (void *)i) {
            fprintf(stderr, "churn: join %lu failed\n", i);
            return 1;
        }
    }
    printf("churn: %lu threads created and joined\n", n);
    return 0;
}
