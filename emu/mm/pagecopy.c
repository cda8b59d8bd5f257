/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pagecopy.c - copies only the host pages of a private mapping that hold
 * data: untouched pages of the fresh destination already read as zero and
 * cost the host nothing, so a forked child takes only the memory its parent
 * really uses.
 *
 * Comparing every page with zero made a fork of a static program read all
 * 2,048 pages of its 8 MiB stack: a host page fault (the zero page mapped)
 * and a memcmp each, more than half of fork+_exit+wait (bench/README.md,
 * "Process creation"). The host knows which pages were never touched:
 * /proc/self/pagemap has an entry per page, neither present nor swapped
 * for those, and one pread covers 2 MiB of guest memory. Pages the host
 * does hold are still compared with zero (a page only ever read is the
 * shared zero page), so what is copied is exactly what was copied before. */
#include "pagecopy.h"
#include "page.h"

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)
/* Pagemap entries read at once: 4 KiB of stack, 2 MiB of memory. */
#define PM_BATCH 512u

/* A pagemap file describes the process that opened it: a host process
 * forked after pagecopy_open (none does today) must not trust it.
 * Process-wide: the host process's page table, opened before the sandbox
 * and shared by every machine of the process. */
static int pagemap_fd = -1;
static pid_t pagemap_pid;

void pagecopy_open(void)
{
    if (pagemap_fd >= 0)
        return;
    pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    pagemap_pid = getpid();
}

/* Copies pages [from, to) of src, which hold data, to dst. The fresh
 * destination is populated by one madvise first: a host page fault per page
 * costs several times the copy on a virtualised host. */
static void copy_run(uint8_t *dst, const uint8_t *src, uint64_t from, uint64_t to)
{
    if (from == to)
        return;
    madvise(dst + from * PAGE, (to - from) * PAGE, MADV_POPULATE_WRITE);
    memcpy(dst + from * PAGE, src + from * PAGE, (to - from) * PAGE);
}

static bool page_is_zero(const uint8_t *page)
{
    static const uint8_t zero[PAGE];
    return memcmp(page, zero, PAGE) == 0;
}

bool pagecopy_sees_pages(void)
{
    return pagemap_fd >= 0 && getpid() == pagemap_pid;
}

/* Reads the pagemap entries of n pages from p on: false when it cannot. */
static bool read_pagemap(const uint8_t *p, uint64_t n, uint64_t *entries)
{
    off_t at = (off_t)((uintptr_t)p / PAGE * sizeof entries[0]);
    return pread(pagemap_fd, entries, n * sizeof entries[0], at) == (ssize_t)(n * sizeof entries[0]);
}

static bool held(uint64_t entry)
{
    return entry & (PM_PRESENT | PM_SWAPPED);
}

/* Linux 6.7's PAGEMAP_SCAN (fs/proc/task_mmu.c do_pagemap_scan), which
 * Debian 12's headers lack: the runs of pages that hold something, found
 * without an entry per page. A 16 TiB MAP_NORESERVE reservation (ASan's
 * shadow) took about 50 s to fork by reading the pagemap of every page. */
struct scan_region {
    uint64_t start, end, categories;
};
struct scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
_Static_assert(sizeof(struct scan_arg) == 96, "PAGEMAP_SCAN_REQUEST's size");
#define SCAN_IS_PRESENT (1u << 3)
#define SCAN_IS_SWAPPED (1u << 4)
#define SCAN_REGIONS 64u
/* Smaller ranges are read from the pagemap as before. */
#define SCAN_MIN (64ull << 20)

static void copy_held_pages(uint8_t *dst, const uint8_t *src, uint64_t len);

/* Copies the held runs of [src, src+len) through copy_held_pages: false
 * when the host kernel has no PAGEMAP_SCAN (nothing copied then). */
static bool copy_scanned(uint8_t *dst, const uint8_t *src, uint64_t len)
{
    struct scan_region regions[SCAN_REGIONS];
    uint64_t at = (uintptr_t)src, end = at + len;
    while (at < end) {
        struct scan_arg arg = {
            .size = sizeof arg, .start = at, .end = end, .vec = (uintptr_t)regions,
            .vec_len = SCAN_REGIONS, .category_anyof_mask = SCAN_IS_PRESENT | SCAN_IS_SWAPPED,
            .return_mask = SCAN_IS_PRESENT | SCAN_IS_SWAPPED};
        long n = ioctl(pagemap_fd, PAGEMAP_SCAN_REQUEST, &arg);
        if (n < 0 && at == (uintptr_t)src)
            return false;
        if (n < 0) { /* the rest the old way */
            copy_held_pages(dst + (at - (uintptr_t)src), (const uint8_t *)at, end - at);
            return true;
        }
        for (long i = 0; i < n; i++)
            copy_held_pages(dst + (regions[i].start - (uintptr_t)src),
                            (const uint8_t *)regions[i].start, regions[i].end - regions[i].start);
        if (arg.walk_end <= at)
            break;
        at = arg.walk_end;
    }
    return true;
}

void copy_nonzero_pages(uint8_t *dst, const uint8_t *src, uint64_t len)
{
    if (len >= SCAN_MIN && pagecopy_sees_pages() && copy_scanned(dst, src, len))
        return;
    copy_held_pages(dst, src, len);
}

static void copy_held_pages(uint8_t *dst, const uint8_t *src, uint64_t len)
{
    uint64_t pages = len / PAGE;
    bool pagemap = pagecopy_sees_pages();
    uint64_t entries[PM_BATCH];
    uint64_t run = 0; /* the pending run of pages to copy starts here */
    for (uint64_t done = 0; done < pages;) {
        uint64_t n = pages - done < PM_BATCH ? pages - done : PM_BATCH;
        /* Without the pagemap's word, every page may hold data. */
        bool known = pagemap && read_pagemap(src + done * PAGE, n, entries);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t p = done + i;
            if ((known && !held(entries[i])) || page_is_zero(src + p * PAGE)) {
                copy_run(dst, src, run, p);
                run = p + 1;
            }
        }
        done += n;
    }
    copy_run(dst, src, run, pages);
}

bool zero_held_pages(uint8_t *p, uint64_t len)
{
    uint64_t pages = len / PAGE;
    uint64_t entries[PM_BATCH];
    if (!pagecopy_sees_pages())
        return false;
    for (uint64_t done = 0; done < pages;) {
        uint64_t n = pages - done < PM_BATCH ? pages - done : PM_BATCH;
        if (!read_pagemap(p + done * PAGE, n, entries))
            return false;
        for (uint64_t i = 0; i < n; i++)
            if (held(entries[i]))
                memset(p + (done + i) * PAGE, 0, PAGE);
        done += n;
    }
    return true;
}

/* madvise wants a page-aligned start: the whole pages holding [p, p+len). */
static void populate(const uint8_t *p, uint64_t len, int advice)
{
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(PAGE - 1);
    madvise((void *)lo, (uintptr_t)p + len - lo, advice);
}

void copy_to_fresh(uint8_t *dst, const uint8_t *src, uint64_t len)
{
    if (len == 0)
        return;
    populate(src, len, MADV_POPULATE_READ);
    populate(dst, len, MADV_POPULATE_WRITE);
    memcpy(dst, src, len);
}
