/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shmem.c - shared memory objects (shmem.h). */
#include "shmem.h"
#include "machine.h"
#include "page.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static struct shmem *shmem_new(struct machine *m, int fd, bool writable, int *err)
{
    struct stat st;
    struct shmem *s = calloc(1, sizeof *s);
    if (!s) {
        *err = -ENOMEM;
        goto fail_alloc;
    }
    if (fstat(fd, &st) != 0) {
        *err = -errno;
        goto fail_fstat;
    }
    *s = (struct shmem){.refs = 1, .fd = fd, .dev = st.st_dev, .ino = st.st_ino,
                        .writable = writable, .next = m->shmems, .pprev = &m->shmems};
    if (m->shmems)
        m->shmems->pprev = &s->next;
    m->shmems = s;
    return s;

fail_fstat:
    free(s);
fail_alloc:
    close(fd);
    return NULL;
}

struct shmem *shmem_anon(struct machine *m, uint64_t len, int *err)
{
    int fd = memfd_create("asymu-shared", MFD_CLOEXEC);
    if (fd < 0) {
        *err = -errno;
        return NULL;
    }
    if (ftruncate(fd, (off_t)len) != 0) {
        *err = -ENOMEM;
        close(fd);
        return NULL;
    }
    return shmem_new(m, fd, true, err);
}

struct shmem *shmem_file(struct machine *m, int host_fd, bool writable, int *err)
{
    struct stat st;
    if (fstat(host_fd, &st) != 0) {
        *err = -errno;
        return NULL;
    }
    /* One object per inode, writable if any of its mappers may write. */
    for (struct shmem *s = m->shmems; s; s = s->next) {
        if (s->dev != (uint64_t)st.st_dev || s->ino != (uint64_t)st.st_ino)
            continue;
        if (writable && !s->writable) {
            int fd = fcntl(host_fd, F_DUPFD_CLOEXEC, 0);
            if (fd < 0) {
                *err = -errno;
                return NULL;
            }
            close(s->fd);
            s->fd = fd;
            s->writable = true;
        }
        return shmem_get(s);
    }
    int fd = fcntl(host_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
        *err = -errno;
        return NULL;
    }
    return shmem_new(m, fd, writable, err);
}

struct shmem *shmem_get(struct shmem *s)
{
    s->refs++;
    return s;
}

void shmem_put(struct shmem *s)
{
    if (!s)
        return;
    if (--s->refs > 0) {
        if (s->unmapped)
            s->unmapped(s); /* may put the owner's reference: s is not touched after */
        return;
    }
    if (s->pprev) { /* else its machine has shut down (shmem_machine_detach) */
        *s->pprev = s->next;
        if (s->next)
            s->next->pprev = s->pprev;
    }
    close(s->fd);
    free(s);
}

void shmem_machine_detach(struct machine *m)
{
    while (m->shmems) {
        struct shmem *s = m->shmems;
        m->shmems = s->next;
        s->next = NULL;
        s->pprev = NULL;
    }
}

/* The host mappings made by shmem_map_host, for shmem_bus_recover: each
 * with the bytes of it still mapped, dropped when none is. Process-wide:
 * they are ranges of the one host address space, which the process's
 * SIGBUS handler (crash.c) looks up whatever machine made them. */
struct host_range {
    uintptr_t start, end;
    uint64_t mapped;
};
static struct host_range *ranges;
static size_t n_ranges, cap_ranges;

void *shmem_map_host(struct shmem *s, uint64_t off, uint64_t len, bool write)
{
    if (n_ranges == cap_ranges) {
        size_t cap = cap_ranges ? cap_ranges * 2 : 16;
        struct host_range *r = realloc(ranges, cap * sizeof *r);
        if (!r)
            return NULL;
        ranges = r, cap_ranges = cap;
    }
    int prot = PROT_READ | (write && s->writable ? PROT_WRITE : 0);
    void *p = mmap(NULL, len, prot, MAP_SHARED, s->fd, (off_t)off);
    if (p == MAP_FAILED)
        return NULL;
    ranges[n_ranges++] = (struct host_range){(uintptr_t)p, (uintptr_t)p + len, len};
    return p;
}

void shmem_unmap_host(void *host, uint64_t len)
{
    munmap(host, len);
    uintptr_t a = (uintptr_t)host;
    for (size_t i = 0; i < n_ranges; i++) {
        if (a < ranges[i].start || a >= ranges[i].end)
            continue;
        ranges[i].mapped -= len;
        if (ranges[i].mapped == 0)
            ranges[i] = ranges[--n_ranges];
        return;
    }
}

bool shmem_bus_owned(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    for (size_t i = 0; i < n_ranges; i++)
        if (a >= ranges[i].start && a < ranges[i].end)
            return true;
    return false;
}

bool shmem_bus_recover(void *addr)
{
    uintptr_t a = (uintptr_t)addr & ~(uintptr_t)(PAGE - 1);
    if (!shmem_bus_owned((void *)a))
        return false;
    void *p = mmap((void *)a, PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    return p == (void *)a;
}
