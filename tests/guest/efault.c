/* SPDX-License-Identifier: GPL-2.0-or-later */
/* efault.c - hostile pointers and bad arguments handed straight to the
 * kernel with syscall(2): each case prints "NAME = RESULT" (a number, or -1
 * and the errno's name) and the program then exits 0, which shows the host
 * survived. With arguments, runs only the cases named, in the order given;
 * "list" prints the case names. The results are Linux's on every
 * architecture, so the expected output is the same for both ISAs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *)8) /* in the never-mapped first page */
#define PAGE 4096

#ifdef SYS_mmap2
#define SYS_MMAP SYS_mmap2 /* ARM: the offset is in 4096-byte units */
#else
#define SYS_MMAP SYS_mmap
#endif
#ifdef SYS_fstat64
#define SYS_FSTAT SYS_fstat64
#else
#define SYS_FSTAT SYS_fstat
#endif

/* Two pages: the first read-write, the second unmapped. */
static char *half_mapped(void)
{
    char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || munmap(p + PAGE, PAGE) != 0)
        return NULL;
    return p;
}

static int dev_zero(void)
{
    return open("/dev/zero", O_RDONLY);
}

static long write_bad_buf(void)
{
    return syscall(SYS_write, 1, BAD, 10);
}

static long writev_bad_iov(void)
{
    return syscall(SYS_writev, 1, BAD, 1);
}

static long writev_bad_base(void)
{
    struct iovec iov = {BAD, 10};
    return syscall(SYS_writev, 1, &iov, 1);
}

/* Nothing is read from the buffer: /dev/null drops the bytes unseen. */
static long write_devnull_bad_buf(void)
{
    return syscall(SYS_write, open("/dev/null", O_WRONLY), BAD, 10);
}

static long read_bad_buf(void)
{
    return syscall(SYS_read, dev_zero(), BAD, 10);
}

static long read_readonly_page(void)
{
    void *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return syscall(SYS_read, dev_zero(), p, 10);
}

/* Linux copies what fits before the fault and returns that count. */
static long read_partial_fault(void)
{
    return syscall(SYS_read, dev_zero(), half_mapped(), 2 * PAGE);
}

/* /dev/null gives nothing, so nothing is copied and nothing faults. */
static long read_devnull_bad_buf(void)
{
    return syscall(SYS_read, open("/dev/null", O_RDONLY), BAD, 10);
}

static long openat_bad_path(void)
{
    return syscall(SYS_openat, AT_FDCWD, BAD, O_RDONLY);
}

/* A path that runs into an unmapped page before its NUL. */
static long openat_unterminated_path(void)
{
    char *p = half_mapped();
    memset(p, 'a', PAGE);
    p[0] = '/';
    return syscall(SYS_openat, AT_FDCWD, p + PAGE - 100, O_RDONLY);
}

/* "/x/x/.../x" of len bytes: a path of missing directories. */
static long openat_path_of(size_t len)
{
    static char path[PAGE + 2];
    for (size_t i = 0; i < len; i++)
        path[i] = i % 2 ? 'x' : '/';
    path[len] = '\0';
    return syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
}

/* PATH_MAX (4096) includes the NUL: 4095 bytes is the longest path. */
static long openat_path_4095(void)
{
    return openat_path_of(PAGE - 1);
}

static long openat_path_4096(void)
{
    return openat_path_of(PAGE);
}

static long fstat_bad_buf(void)
{
    return syscall(SYS_FSTAT, 1, BAD);
}

static long getcwd_bad_buf(void)
{
    return syscall(SYS_getcwd, BAD, 256);
}

static long readlinkat_bad_buf(void)
{
    return syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", BAD, 256);
}

static long uname_bad_buf(void)
{
    return syscall(SYS_uname, BAD);
}

static long clock_gettime_bad_buf(void)
{
    return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, BAD);
}

static long clock_gettime_bad_clock(void)
{
    struct timespec ts;
    return syscall(SYS_clock_gettime, 12345, &ts);
}

static long getrandom_bad_buf(void)
{
    return syscall(SYS_getrandom, BAD, 8, 0);
}

static long getrandom_partial_fault(void)
{
    return syscall(SYS_getrandom, half_mapped(), 2 * PAGE, 0);
}

static long mmap_len_0(void)
{
    return syscall(SYS_MMAP, 0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static long mmap_fixed_unaligned(void)
{
    return syscall(SYS_MMAP, 0x20000001, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                   -1, 0);
}

static long mmap_no_type(void)
{
    return syscall(SYS_MMAP, 0, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0);
}

static long mmap_bad_fd(void)
{
    return syscall(SYS_MMAP, 0, PAGE, PROT_READ, MAP_PRIVATE, 999, 0);
}

static long munmap_len_0(void)
{
    return syscall(SYS_munmap, half_mapped(), 0);
}

static long munmap_unaligned(void)
{
    return syscall(SYS_munmap, half_mapped() + 1, PAGE);
}

/* Unmapping what is not mapped is not an error. */
static long munmap_unmapped(void)
{
    return syscall(SYS_munmap, half_mapped() + PAGE, PAGE);
}

static long mprotect_unaligned(void)
{
    return syscall(SYS_mprotect, half_mapped() + 1, PAGE, PROT_READ);
}

/* An empty range is a successful no-op. */
static long mprotect_len_0(void)
{
    return syscall(SYS_mprotect, half_mapped(), 0, PROT_READ);
}

static long mprotect_unmapped(void)
{
    return syscall(SYS_mprotect, half_mapped() + PAGE, PAGE, PROT_READ);
}

static long mremap_unaligned(void)
{
    return syscall(SYS_mremap, half_mapped() + 1, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
}

/* The break is somewhere above the program: print only that it is not 0. */
static long brk_0(void)
{
    return syscall(SYS_brk, 0) != 0;
}

static const struct test {
    const char *name;
    long (*fn)(void);
} tests[] = {
    {"write-bad-buf", write_bad_buf},
    {"writev-bad-iov", writev_bad_iov},
    {"writev-bad-base", writev_bad_base},
    {"write-devnull-bad-buf", write_devnull_bad_buf},
    {"read-bad-buf", read_bad_buf},
    {"read-readonly-page", read_readonly_page},
    {"read-partial-fault", read_partial_fault},
    {"read-devnull-bad-buf", read_devnull_bad_buf},
    {"openat-bad-path", openat_bad_path},
    {"openat-unterminated-path", openat_unterminated_path},
    {"openat-path-4095", openat_path_4095},
    {"openat-path-4096", openat_path_4096},
    {"fstat-bad-buf", fstat_bad_buf},
    {"getcwd-bad-buf", getcwd_bad_buf},
    {"readlinkat-bad-buf", readlinkat_bad_buf},
    {"uname-bad-buf", uname_bad_buf},
    {"clock_gettime-bad-buf", clock_gettime_bad_buf},
    {"clock_gettime-bad-clock", clock_gettime_bad_clock},
    {"getrandom-bad-buf", getrandom_bad_buf},
    {"getrandom-partial-fault", getrandom_partial_fault},
    {"mmap-len-0", mmap_len_0},
    {"mmap-fixed-unaligned", mmap_fixed_unaligned},
    {"mmap-no-type", mmap_no_type},
    {"mmap-bad-fd", mmap_bad_fd},
    {"munmap-len-0", munmap_len_0},
    {"munmap-unaligned", munmap_unaligned},
    {"munmap-unmapped", munmap_unmapped},
    {"mprotect-unaligned", mprotect_unaligned},
    {"mprotect-len-0", mprotect_len_0},
    {"mprotect-unmapped", mprotect_unmapped},
    {"mremap-unaligned", mremap_unaligned},
    {"brk-0-nonzero", brk_0},
};

#define NTESTS (sizeof tests / sizeof *tests)

static void run(const struct test *t)
{
    errno = 0;
    long r = t->fn();
    if (r == -1) {
        const char *name = strerrorname_np(errno);
        printf("%s = -1 %s\n", t->name, name ? name : "unknown errno");
    } else {
        printf("%s = %ld\n", t->name, r);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        for (size_t i = 0; i < NTESTS; i++)
            run(&tests[i]);
        return 0;
    }
    for (int a = 1; a < argc; a++) {
        size_t i = 0;
        if (strcmp(argv[a], "list") == 0) {
            for (i = 0; i < NTESTS; i++)
                printf("%s\n", tests[i].name);
            continue;
        }
        while (i < NTESTS && strcmp(argv[a], tests[i].name) != 0)
            i++;
        if (i == NTESTS) {
            printf("unknown case %s\n", argv[a]);
            return 2;
        }
        run(&tests[i]);
    }
    return 0;
}
