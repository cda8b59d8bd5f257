/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record-reader.c - host input for the recording tests (tests/e2e/record.py):
 *   record-reader read    polls stdin with a 50 ms timeout and prints each
 *                         read (its bytes, escaped) with the virtual clock and
 *                         the timeouts since the last one, until end of input;
 *   record-reader spin    busy for up to 100 s of virtual time, printing the
 *                         clock every 10 ms (the run is stopped from outside).
 * stdout is unbuffered: a run stopped by a host signal loses nothing. */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void print_bytes(const char *buf, ssize_t n)
{
    for (ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c < 0x20 || c > 0x7e || c == '\\')
            printf("\\x%02x", c);
        else
            putchar(c);
    }
}

static int read_loop(void)
{
    char buf[256];
    unsigned timeouts = 0;
    for (;;) {
        struct pollfd p = {.fd = 0, .events = POLLIN};
        int r = poll(&p, 1, 50);
        if (r == 0) {
            timeouts++;
            continue;
        }
        ssize_t n = read(0, buf, sizeof buf);
        printf("at %lld ns after %u timeouts: ", now_ns(), timeouts);
        timeouts = 0;
        if (n <= 0) {
            printf("end of input (%zd)\n", n);
            return 0;
        }
        printf("read %zd bytes \"", n);
        print_bytes(buf, n);
        printf("\"\n");
    }
}

static int spin(void)
{
    long long start = now_ns(), next = start;
    volatile unsigned long sink = 0;
    while (now_ns() - start < 100000000000ll) {
        for (int i = 0; i < 1000; i++)
            sink += (unsigned long)i;
        if (now_ns() >= next) {
            printf("clock %lld ns\n", now_ns());
            next += 10000000;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 2 && strcmp(argv[1], "read") == 0)
        return read_loop();
    if (argc == 2 && strcmp(argv[1], "spin") == 0)
        return spin();
    fprintf(stderr, "usage: record-reader read | spin\n");
    return 2;
}
