/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzzfound.c - the inputs with which the fuzz harnesses (tests/fuzz/)
 * crashed asymu, replayed from a guest: one case per finding, each printing
 * what Linux answers. Usage: fuzzfound CASE */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef __aarch64__
#define SYS_ppoll_64 SYS_ppoll
#define SYS_sendfile_64 SYS_sendfile
#define SYS_pselect6_64 SYS_pselect6
#else
#define SYS_ppoll_64 SYS_ppoll_time64
#define SYS_sendfile_64 SYS_sendfile64
#define SYS_pselect6_64 SYS_pselect6_time64
#endif

/* The kernel's struct __kernel_timespec on both ISAs. */
struct timespec64 {
    int64_t sec, nsec;
};

/* Prints "NAME RESULT" or "NAME -1 ERRNO" for a raw syscall's result. */
static void report(const char *name, long r)
{
    if (r < 0)
        printf("%s -1 %s\n", name, err_name(errno));
    else
        printf("%s %ld\n", name, r);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *c = argv[1];
    if (strcmp(c, "kill-int-min") == 0) {
        /* fuzz-syscall: -INT_MIN overflowed when naming the process group. */
        report("kill(INT_MIN, 0)", syscall(SYS_kill, INT_MIN, 0));
        report("kill(INT_MIN, SIGKILL)", syscall(SYS_kill, INT_MIN, 9));
        return 0;
    }
    if (strcmp(c, "wait4-int-min") == 0) {
        /* fuzz-syscall: -INT_MIN overflowed when naming the process group. */
        report("wait4(INT_MIN, WNOHANG)", syscall(SYS_wait4, INT_MIN, NULL, 1, NULL));
        return 0;
    }
    if (strcmp(c, "ppoll-far-timeout") == 0) {
        /* fuzz-syscall: a timeout near the end of 64-bit time overflowed
         * when made nanoseconds (pselect6_time64). A ready pipe returns at
         * once; the remaining time written back depends on the clock. */
        int p[2];
        if (pipe(p) != 0 || write(p[1], "x", 1) != 1)
            return 1;
        struct pollfd fd = {.fd = p[0], .events = POLLIN};
        struct timespec64 far = {9223372036, 999999999};
        report("ppoll(ready, {9223372036, 999999999})",
               syscall(SYS_ppoll_64, &fd, 1, &far, NULL, 8));
        struct timespec64 bad = {9223372036, 1000000000};
        report("ppoll(ready, {9223372036, 1000000000})",
               syscall(SYS_ppoll_64, &fd, 1, &bad, NULL, 8));
        return 0;
    }
    if (strcmp(c, "rw-limits") == 0) {
        /* fuzz-syscall: pwritev to /dev/null (which never reads the
         * buffers) summed lengths past INT64_MAX. Linux checks the whole
         * vector first and cuts what one call moves to MAX_RW_COUNT. */
        int null = open("/dev/null", O_WRONLY), zero = open("/dev/zero", O_RDONLY);
        static char buf[16];
        struct iovec big[2] = {{buf, 0x7fff0000}, {buf, 0x7fff0000}};
        report("writev(null, 2 x 0x7fff0000)", writev(null, big, 2));
        report("write(null, 0x80000000)", syscall(SYS_write, null, buf, 0x80000000u));
        struct iovec one = {buf, sizeof buf};
        report("pwritev(null, 16, INT64_MAX - 8)", pwritev64(null, &one, 1, INT64_MAX - 8));
        report("preadv(zero, 16, INT64_MAX - 8)", preadv64(zero, &one, 1, INT64_MAX - 8));
        report("pread(zero, 16, INT64_MAX - 8)", pread64(zero, buf, sizeof buf, INT64_MAX - 8));
        report("pread(zero, 16, INT64_MAX - 16)", pread64(zero, buf, sizeof buf, INT64_MAX - 16));
        struct iovec negative = {buf, (size_t)SSIZE_MAX + 1};
        report("readv(zero, SSIZE_MAX + 1)", readv(zero, &negative, 1));
        report("readv(null, none)", readv(null, NULL, 0));
        int64_t off = INT64_MAX - 8;
        report("sendfile(null, zero, INT64_MAX - 8, 16)",
               syscall(SYS_sendfile_64, null, zero, &off, 16));
        return 0;
    }
    if (strcmp(c, "select-nfds") == 0) {
        /* fuzz-syscall: pselect6 checked nfds as an int but sized its
         * fd_set copies from the whole register (0x100000005 on arm64):
         * a host stack overflow. Linux takes the int (5 here) and cuts one
         * past the descriptor table to the table's size. */
        int p[2];
        if (pipe(p) != 0 || p[0] != 3 || write(p[1], "x", 1) != 1)
            return 1;
        static unsigned long set[2048 / (8 * sizeof(long))];
        struct timespec64 zero = {0, 0};
        volatile uint64_t wide = 0x100000005ull;
        set[0] = 1ul << p[0];
        report("pselect6(0x100000005, {3}, zero timeout)",
               syscall(SYS_pselect6_64, (unsigned long)wide, set, NULL, NULL, &zero, NULL));
        printf("set[0] %#lx\n", set[0]);
        set[0] = 1ul << p[0];
        report("pselect6(2048, {3}, zero timeout)",
               syscall(SYS_pselect6_64, 2048, set, NULL, NULL, &zero, NULL));
        printf("set[0] %#lx\n", set[0]);
        report("pselect6(-1)", syscall(SYS_pselect6_64, -1, set, NULL, NULL, &zero, NULL));
        return 0;
    }
#ifdef __aarch64__
    if (strcmp(c, "shared-huge") == 0) {
        /* fuzz-syscall: a 64 TiB SysV segment attached, then unmapped:
         * Unicorn removes a region page by page, and asymu stalled for
         * hours. Shared mappings of files and segments now add up to at
         * most 16 times --max-mem (this test runs with 256M: 4 GiB). */
        int big = shmget(IPC_PRIVATE, (size_t)1 << 46, IPC_CREAT | SHM_NORESERVE | 0600);
        report("shmget(64 TiB)", big < 0 ? -1 : 0);
        void *at = shmat(big, NULL, SHM_RDONLY);
        report("shmat(64 TiB)", at == (void *)-1 ? -1 : 0);
        int gib = shmget(IPC_PRIVATE, (size_t)1 << 30, IPC_CREAT | 0600);
        at = shmat(gib, NULL, 0);
        report("shmat(1 GiB)", at == (void *)-1 ? -1 : 0);
        report("shmdt(1 GiB)", shmdt(at));
        /* A mapping may reach past the file's end (touching there is SIGBUS). */
        int fd = open("/tmp/small", O_RDWR | O_CREAT | O_TRUNC, 0600);
        report("ftruncate(1 MiB)", ftruncate(fd, 1 << 20));
        void *m = mmap(NULL, ((size_t)4 << 30) + 4096, PROT_READ, MAP_SHARED, fd, 0);
        report("mmap(file, 4 GiB + 4 KiB)", m == MAP_FAILED ? -1 : 0);
        m = mmap(NULL, (size_t)1 << 30, PROT_READ, MAP_SHARED, fd, 0);
        report("mmap(file, 1 GiB)", m == MAP_FAILED ? -1 : 0);
        m = mmap(NULL, ((size_t)3 << 30) + 4096, PROT_NONE, MAP_SHARED, fd, 0);
        report("mmap(file, 3 GiB + 4 KiB, PROT_NONE)", m == MAP_FAILED ? -1 : 0);
        report("mprotect(3 GiB + 4 KiB, PROT_READ)",
               mprotect(m, ((size_t)3 << 30) + 4096, PROT_READ));
        report("mprotect(3 GiB, PROT_READ)", mprotect(m, (size_t)3 << 30, PROT_READ));
        return 0;
    }
#endif
    fprintf(stderr, "fuzzfound: unknown case %s\n", c);
    return 2;
}
