/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stdio.c - a mixed libc workload with deterministic output: malloc/free
 * (brk and mmap sizes), printf of doubles and a vector-typed integer sum
 * (FP/SIMD), qsort, strtod, CLOCK_MONOTONIC, getrandom, a thread-local
 * variable, the size of the file argv[1] read with fopen/fread, and the
 * number of bytes on stdin. With "random" as argv[2], also prints the
 * getrandom bytes (fixed by asymu's --seed). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static __thread unsigned counter = 5;

/* A 32-bit LCG: the same sequence everywhere. */
static uint32_t lcg_state = 12345;
static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return lcg_state >> 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void test_malloc(void)
{
    enum { N = 4096 };
    static unsigned char *blocks[N];
    uint32_t sum = 0;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++) {
            size_t size = 1 + lcg() % 512;
            blocks[i] = malloc(size);
            if (!blocks[i]) {
                printf("malloc failed\n");
                exit(1);
            }
            memset(blocks[i], i & 0xff, size);
            sum += blocks[i][size - 1];
        }
        for (int i = 0; i < N; i += 2)
            free(blocks[i]);
        for (int i = 0; i < N; i += 2)
            blocks[i] = NULL;
        for (int i = 1; i < N; i += 2)
            free(blocks[i]);
    }
    /* Large enough for glibc to use mmap, then realloc to grow it. */
    size_t big = 4u << 20;
    unsigned char *p = malloc(big);
    if (!p) {
        printf("big malloc failed\n");
        exit(1);
    }
    memset(p, 0x5a, big);
    p = realloc(p, 2 * big);
    if (!p) {
        printf("realloc failed\n");
        exit(1);
    }
    memset(p + big, 0xa5, big);
    sum += p[0] + p[2 * big - 1];
    free(p);
    printf("malloc checksum %u\n", (unsigned)sum);
}

static void test_float(void)
{
    volatile double x = 2.0;
    double r = sqrt(x);
    double acc = 0;
    for (int i = 1; i <= 1000; i++)
        acc += 1.0 / ((double)i * i);
    printf("sqrt(2) %.15f\n", r);
    printf("basel %.12f pi^2/6 %.12f\n", acc, M_PI * M_PI / 6);
    printf("formats %e %g %.3f %a\n", 1234.5678, 0.0001, -2.5, 1.0);
    printf("float %.7g\n", (double)(1.0f / 3.0f));
    /* GCC vector types: NEON on AArch64; scalar code on armhf, whose
     * baseline (armv7-a+fp) has VFP but not NEON. */
    typedef int32_t v4si __attribute__((vector_size(16)));
    v4si acc4 = {0, 0, 0, 0};
    for (int i = 0; i < 64; i++) {
        v4si v = {(int32_t)(lcg() % 1000) - 500, (int32_t)(lcg() % 1000) - 500,
                  (int32_t)(lcg() % 1000) - 500, (int32_t)(lcg() % 1000) - 500};
        acc4 += v * 3;
    }
    printf("int sum %d\n", (int)(acc4[0] + acc4[1] + acc4[2] + acc4[3]));
}

static void test_qsort(void)
{
    enum { N = 1000 };
    static uint32_t a[N];
    for (int i = 0; i < N; i++)
        a[i] = lcg() % 100000;
    qsort(a, N, sizeof(a[0]), cmp_u32);
    int sorted = 1;
    for (int i = 1; i < N; i++)
        if (a[i - 1] > a[i])
            sorted = 0;
    printf("qsort %s first %u median %u last %u\n", sorted ? "sorted" : "NOT sorted",
           (unsigned)a[0], (unsigned)a[N / 2], (unsigned)a[N - 1]);
}

static void test_strtod(void)
{
    static const char *const in[] = {"3.14159", "1e-300", "0x1p-3", "-inf", "2.5e+10xyz"};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        char *end;
        double d = strtod(in[i], &end);
        printf("strtod \"%s\" %.17g rest \"%s\"\n", in[i], d, end);
    }
}

static void test_clock(void)
{
    struct timespec a, b;
    int ok = clock_gettime(CLOCK_MONOTONIC, &a) == 0 && clock_gettime(CLOCK_MONOTONIC, &b) == 0;
    ok = ok && a.tv_sec >= 0 && a.tv_nsec >= 0 && a.tv_nsec < 1000000000L;
    ok = ok && (b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));
    printf("monotonic %s\n", ok ? "ok" : "BAD");
    struct timespec rt;
    printf("realtime %s\n",
           clock_gettime(CLOCK_REALTIME, &rt) == 0 && rt.tv_sec >= 0 ? "ok" : "BAD");
}

static void test_random(int show)
{
    unsigned char buf[8];
    ssize_t n = getrandom(buf, sizeof(buf), 0);
    printf("getrandom %zd\n", n);
    if (show && n == (ssize_t)sizeof(buf)) {
        printf("random ");
        for (size_t i = 0; i < sizeof(buf); i++)
            printf("%02x", buf[i]);
        printf("\n");
    }
}

static void test_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("fopen %s failed\n", path);
        return;
    }
    char buf[1000];
    size_t total = 0, n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        total += n;
    printf("file %s %zu bytes\n", path, total);
    fclose(f);
}

static void test_stdin(void)
{
    char buf[300];
    size_t total = 0, n;
    while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
        total += n;
    printf("stdin %zu bytes%s\n", total, ferror(stdin) ? " (error)" : "");
}

int main(int argc, char **argv)
{
    counter += 10;
    printf("tls counter %u\n", counter);
    test_malloc();
    test_float();
    test_qsort();
    test_strtod();
    test_clock();
    test_random(argc > 2 && strcmp(argv[2], "random") == 0);
    if (argc > 1)
        test_file(argv[1]);
    test_stdin();
    return 0;
}
