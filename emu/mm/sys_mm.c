/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_mm.c - memory syscalls: brk, mmap (and mmap2 through do_mmap),
 * munmap, mprotect, mremap, madvise, msync, mincore, memfd_create. */
#include "kcost.h"
#include "abi.h"
#include "file.h"
#include "file_access.h"
#include "machine.h"
#include "mm.h"
#include "mm_window.h"
#include "shmem.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"
#include "page.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

SYSCALL_DECL(brk)
{
    struct mm *mm = task_mm(t);
    uint64_t want = a[0];
    if (want < mm->brk_start)
        return (int64_t)mm->brk;
    uint64_t old_top = PAGE_UP(mm->brk), new_top = PAGE_UP(want);
    if (new_top > old_top) {
        if (mm_find_free(mm, old_top, new_top - old_top) != old_top)
            return (int64_t)mm->brk;
        if (mm_map_fixed(mm, old_top, new_top - old_top, PROT_READ | PROT_WRITE) < 0)
            return (int64_t)mm->brk;
        /* The heap's new pages are charged their first touches now: asymu
         * maps memory eagerly and sees no fault (docs/timing.md). */
        kcost_charge_n(t, EMU_COST_PAGE_FAULT, (new_top - old_top) / PAGE);
    } else if (new_top < old_top) {
        mm_unmap(mm, new_top, old_top - new_top);
    }
    mm->brk = want;
    return (int64_t)mm->brk;
}

/* Fills guest memory at addr with the host file's bytes from off (zeros
 * past its end). */
static int64_t fill_from_file(struct task *t, uint64_t addr, uint64_t len, int host_fd,
                              uint64_t off)
{
    uint8_t *host = mm_host_ptr(task_mm(t), addr, len, 0);
    if (!host)
        return -ENOMEM;
    mm_host_writable(task_mm(t), addr, len, true);
    uint64_t done = 0;
    int64_t err = 0;
    while (done < len) {
        ssize_t n = pread(host_fd, host + done, len - done, (off_t)(off + done));
        if (n <= 0) {
            err = n < 0 ? -errno : 0;
            break;
        }
        done += (uint64_t)n;
    }
    mm_host_writable(task_mm(t), addr, len, false);
    return err;
}

/* The object a MAP_SHARED mapping of fd maps: its own file, or a fresh
 * zeroed one for /dev/zero (shared anonymous memory, as on Linux). A file
 * may be written through the mapping only if the descriptor and the mount
 * let the guest change it; *origin says so (shared_ro) and names it. */
static struct shmem *shared_object(struct task *t, int fd, uint64_t off, uint64_t len,
                                   struct vma_origin *origin, int *err)
{
    struct file *f = file_get_io(t, fd);
    struct stat st;
    if (!f) {
        *err = -EBADF;
        return NULL;
    }
    if (f->kind == FILE_VIRTUAL && f->node.kind == VNODE_ZERO)
        return shmem_anon(t->machine, len, err);
    if (f->kind == FILE_OBJECT && f->ops->mmap)
        return f->ops->mmap(f, off, len, err);
    if (f->kind != FILE_HOST || fstat(f->host_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *err = -ENODEV;
        return NULL;
    }
    if ((f->flags & O_ACCMODE) == O_WRONLY) {
        *err = -EACCES;
        return NULL;
    }
    bool writable = (f->flags & O_ACCMODE) == O_RDWR && file_may_change(f) == 0;
    *origin = (struct vma_origin){f->path, off, st.st_dev, st.st_ino, !writable};
    return shmem_file(t->machine, f->host_fd, writable, err);
}

/* MAP_SHARED: the object's own pages, shared with every other mapping of
 * it (other processes, a forked child) and with read and write. */
static int64_t map_shared(struct task *t, uint64_t addr, uint64_t len, int prot, int flags, int fd,
                          uint64_t off)
{
    struct vma_origin origin = {0};
    int err = 0;
    struct shmem *shm = flags & MAP_ANONYMOUS ? shmem_anon(t->machine, len, &err)
                                              : shared_object(t, fd, off, len, &origin, &err);
    if (!shm)
        return err;
    if (origin.shared_ro && (prot & PROT_WRITE))
        err = -EACCES;
    else
        err = mm_map_shared(task_mm(t), addr, len, prot, &origin, shm, flags & MAP_ANONYMOUS ? 0 : off);
    shmem_put(shm);
    return err < 0 ? err : (int64_t)addr;
}

/* MAP_PRIVATE: a copy of the file's bytes as they are now. The file is
 * checked before the mapping replaces anything (MAP_FIXED). */
static int64_t map_private(struct task *t, uint64_t addr, uint64_t len, int prot, int flags, int fd,
                           uint64_t off)
{
    struct mm *mm = task_mm(t);
    struct vma_origin origin = {0};
    struct file *f = NULL;
    struct stat st;
    if (!(flags & MAP_ANONYMOUS)) {
        if (!(f = file_get_io(t, fd)))
            return -EBADF;
        if (f->kind == FILE_VIRTUAL && f->node.kind == VNODE_ZERO)
            f = NULL; /* anonymous memory */
        else if (f->kind != FILE_HOST || fstat(f->host_fd, &st) != 0)
            return -ENODEV;
        else if ((f->flags & O_ACCMODE) == O_WRONLY)
            return -EACCES;
        else /* named in /proc/PID/maps */
            origin = (struct vma_origin){f->path, off, st.st_dev, st.st_ino, false};
    }
    int err = mm_map_private(mm, addr, len, prot, &origin, flags & MAP_NORESERVE);
    if (err < 0)
        return err;
    int64_t ferr = f ? fill_from_file(t, addr, len, f->host_fd, off) : 0;
    if (ferr < 0) {
        mm_unmap(mm, addr, len);
        return ferr;
    }
    return (int64_t)addr;
}

int64_t do_mmap(struct task *t, uint64_t addr, uint64_t len, int prot, int flags, int fd,
                uint64_t off)
{
    struct mm *mm = task_mm(t);
    int type = flags & 0xf;
    if (len == 0 || off % PAGE || (type != MAP_PRIVATE && type != MAP_SHARED && type != 3))
        return -EINVAL;
    if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC))
        return -EINVAL;
    uint64_t alen = PAGE_UP(len);
    if (alen < len || alen > mm->limit)
        return -ENOMEM;
    if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
        if (addr % PAGE)
            return -EINVAL;
        if (addr + alen < addr || addr + alen > mm->limit)
            return -ENOMEM;
        if ((flags & MAP_FIXED_NOREPLACE) && !(flags & MAP_FIXED) &&
            mm_find_free(mm, addr, alen) != addr)
            return -EEXIST;
    } else {
        addr = mm_find_free(mm, addr & ~(uint64_t)(PAGE - 1), alen);
        if (!addr)
            return -ENOMEM;
    }
    if (type == MAP_PRIVATE)
        return map_private(t, addr, alen, prot, flags, fd, off);
    return map_shared(t, addr, alen, prot, flags, fd, off);
}

SYSCALL_DECL(mmap)
{
    return do_mmap(t, a[0], a[1], (int)a[2], (int)a[3], (int)a[4], a[5]);
}

/* len rounded up to pages in the guest's unsigned long: 0 when that wraps
 * (a length near 2^64, or 2^32 for AArch32). */
static uint64_t page_align_len(struct task *t, uint64_t len)
{
    uint64_t alen = PAGE_UP(len);
    return alen < len || alen > abi_ulong_max(task_abi(t)) ? 0 : alen;
}

/* The end of [start, start+len) with len rounded up to pages, or 0 when
 * start is not page aligned or the rounded range wraps the guest's unsigned
 * long. */
static uint64_t range_end(struct task *t, uint64_t start, uint64_t len)
{
    uint64_t alen = page_align_len(t, len), end = start + alen;
    if (start % PAGE || (len && !alen) || end < start || end > abi_ulong_max(task_abi(t)))
        return 0;
    return end;
}

SYSCALL_DECL(munmap)
{
    uint64_t end = range_end(t, a[0], a[1]);
    if (!end || end == a[0] || end > task_mm(t)->limit)
        return -EINVAL;
    return mm_unmap(task_mm(t), a[0], a[1]);
}

SYSCALL_DECL(mprotect)
{
    if (a[2] & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC))
        return -EINVAL;
    if (a[1] && !page_align_len(t, a[1]))
        return a[0] % PAGE ? -EINVAL : -ENOMEM;
    return mm_protect(task_mm(t), a[0], a[1], (int)a[2]);
}

#define GUEST_MREMAP_MAYMOVE 1
#define GUEST_MREMAP_FIXED 2

/* A shared mapping moves or grows as more mappings of the same object; a
 * private one is copied when it moves, and grows with zeroed pages. An
 * old_len of 0 duplicates a shared mapping elsewhere (MREMAP_MAYMOVE). */
SYSCALL_DECL(mremap)
{
    struct mm *mm = task_mm(t);
    uint64_t old = a[0], old_len = page_align_len(t, a[1]), new_len = page_align_len(t, a[2]);
    int flags = (int)a[3];
    if (old % PAGE || new_len == 0 || (a[1] && !old_len) ||
        (flags & ~(GUEST_MREMAP_MAYMOVE | GUEST_MREMAP_FIXED)) || (flags & GUEST_MREMAP_FIXED))
        return -EINVAL;
    const struct vma *v = mm_find_vma(mm, old);
    if (!v || old + old_len > v->end)
        return -EFAULT;
    if (old_len == 0 && (!v->shm || !(flags & GUEST_MREMAP_MAYMOVE)))
        return -EINVAL;
    int prot = v->prot;
    bool noreserve = v->noreserve;
    struct shmem *shm = v->shm;
    uint64_t off = v->shm_off + (old - v->start);
    struct vma_origin origin = v->origin;
    origin.pgoff += old - v->start;
    if (old_len && new_len <= old_len) {
        if (new_len < old_len)
            mm_unmap(mm, old + new_len, old_len - new_len);
        return (int64_t)old;
    }
    uint64_t grow = new_len - old_len;
    int err;
    if (old_len && mm_find_free(mm, old + old_len, grow) == old + old_len) {
        origin.pgoff += old_len;
        err = shm ? mm_map_shared(mm, old + old_len, grow, prot, &origin, shm, off + old_len)
                  : mm_map_private(mm, old + old_len, grow, prot, NULL, noreserve);
        return err < 0 ? err : (int64_t)old;
    }
    if (!(flags & GUEST_MREMAP_MAYMOVE))
        return -ENOMEM;
    uint64_t dst = mm_find_free(mm, 0, new_len);
    if (!dst)
        return -ENOMEM;
    err = shm ? mm_map_shared(mm, dst, new_len, prot, &origin, shm, off)
              : mm_map_private(mm, dst, new_len, prot, NULL, noreserve);
    if (err < 0)
        return err;
    if (!shm) {
        /* Mapping dst may have moved or merged the old mapping's memory. */
        mm_host_writable(mm, old, old_len, true);
        mm_host_writable(mm, dst, old_len, true);
        memcpy(mm_host_ptr(mm, dst, old_len, 0), mm_host_ptr(mm, old, old_len, 0), old_len);
        mm_host_writable(mm, old, old_len, false);
        mm_host_writable(mm, dst, old_len, false);
    }
    if (old_len)
        mm_unmap(mm, old, old_len);
    return (int64_t)dst;
}

/* Calls fn on each VMA piece of [start, end): the first error fn returns,
 * else -ENOMEM when part of the range is unmapped (after fn has seen the
 * mapped parts, as Linux's madvise and msync do), else 0. */
static int64_t for_each_piece(struct mm *mm, uint64_t start, uint64_t end,
                              int (*fn)(const struct vma *v, uint8_t *host, uint64_t n, int arg),
                              int arg)
{
    int64_t result = 0;
    for (uint64_t p = start; p < end;) {
        const struct vma *v = mm_find_vma(mm, p);
        if (!v) {
            result = -ENOMEM;
            const struct vma *next = mm->vmas;
            while (next && next->start <= p)
                next = next->next;
            p = next ? next->start : end;
            continue;
        }
        uint64_t n = (v->end < end ? v->end : end) - p;
        int err = fn(v, v->host + (p - v->start), n, arg);
        if (err)
            return err;
        p += n;
    }
    return result;
}

/* Private pages read back as zero afterwards (anonymous memory) or as the
 * file's bytes (copied in at mmap: zero here, a gap); shared ones as the
 * object's, which keeps them. The host releases the pages itself, as Linux
 * does: glibc does this to every exiting thread's stack. MADV_FREE is the
 * same (Linux may or may not zero the pages: asymu always does, for the
 * same result every run). */
static int advise_dontneed(const struct vma *v, uint8_t *host, uint64_t n, int advice)
{
    (void)advice;
    /* Windowed memory may be host PROT_NONE, and is anonymous: madvise
     * alone zeroes it. */
    bool file_private = !v->shm && v->origin.path;
    if ((v->win || !file_private) && madvise(host, n, MADV_DONTNEED) == 0)
        return 0;
    if (!v->win)
        memset(host, 0, n);
    return 0;
}

/* MADV_REMOVE frees the object's pages (a hole in the file): only through a
 * shared writable mapping. */
static int advise_remove(const struct vma *v, uint8_t *host, uint64_t n, int advice)
{
    (void)advice;
    if (!v->shm)
        return -EINVAL;
    if (v->origin.shared_ro || !(v->prot & PROT_WRITE))
        return -EACCES;
    return madvise(host, n, MADV_REMOVE) == 0 ? 0 : -errno;
}

/* MADV_FREE and MADV_WIPEONFORK apply to private anonymous memory only. */
static int advise_anon_only(const struct vma *v, uint8_t *host, uint64_t n, int advice)
{
    if (v->shm || v->origin.path)
        return -EINVAL;
    return advice == MADV_FREE ? advise_dontneed(v, host, n, advice) : 0;
}

static int advise_nothing(const struct vma *v, uint8_t *host, uint64_t n, int advice)
{
    (void)v, (void)host, (void)n, (void)advice;
    return 0;
}

SYSCALL_DECL(madvise)
{
    struct mm *mm = task_mm(t);
    uint64_t start = a[0], end = range_end(t, a[0], a[1]);
    int advice = (int)a[2];
    if (!end)
        return -EINVAL;
    int (*fn)(const struct vma *, uint8_t *, uint64_t, int) = advise_nothing;
    unsigned set = 0, clear = 0;
    switch (advice) {
    case MADV_DONTNEED:
        fn = advise_dontneed;
        break;
    case MADV_FREE:
        fn = advise_anon_only;
        break;
    case MADV_REMOVE:
        fn = advise_remove;
        break;
    case MADV_DONTFORK:
        set = VMA_DONTFORK;
        break;
    case MADV_DOFORK:
        clear = VMA_DONTFORK;
        break;
    case MADV_WIPEONFORK:
        fn = advise_anon_only, set = VMA_WIPEONFORK;
        break;
    case MADV_KEEPONFORK:
        clear = VMA_WIPEONFORK;
        break;
    /* Hints about paging, merging, huge pages and core dumps, which a host
     * mapping of asymu's has no use for. */
    case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
    case MADV_MERGEABLE: case MADV_UNMERGEABLE: case MADV_HUGEPAGE: case MADV_NOHUGEPAGE:
    case MADV_DONTDUMP: case MADV_DODUMP: case MADV_COLD: case MADV_PAGEOUT:
    case 22 /* MADV_POPULATE_READ */: case 23 /* MADV_POPULATE_WRITE */:
        break;
    default:
        return -EINVAL;
    }
    if (end == start)
        return 0;
    int64_t err = for_each_piece(mm, start, end, fn, advice);
    if ((err == 0 || err == -ENOMEM) && (set || clear)) {
        int ferr = mm_set_fork(mm, start, end - start, set, clear);
        err = ferr ? ferr : err;
    }
    return err;
}

#define GUEST_MS_ASYNC 1
#define GUEST_MS_INVALIDATE 2
#define GUEST_MS_SYNC 4

/* A shared file mapping's changes are the file's already (the page cache's,
 * as on Linux); MS_SYNC writes them to the disk. */
static int sync_piece(const struct vma *v, uint8_t *host, uint64_t n, int flags)
{
    if (v->shm && (flags & GUEST_MS_SYNC) && msync(host, n, MS_SYNC) != 0)
        return -errno;
    return 0;
}

SYSCALL_DECL(msync)
{
    int flags = (int)a[2];
    if (flags & ~(GUEST_MS_ASYNC | GUEST_MS_INVALIDATE | GUEST_MS_SYNC) ||
        ((flags & GUEST_MS_ASYNC) && (flags & GUEST_MS_SYNC)) || a[0] % PAGE)
        return -EINVAL;
    uint64_t end = range_end(t, a[0], a[1]);
    if (!end)
        return -ENOMEM;
    return for_each_piece(task_mm(t), a[0], end, sync_piece, flags);
}

/* Page by page, whether the host holds the page in memory (bit 0). */
SYSCALL_DECL(mincore)
{
    struct mm *mm = task_mm(t);
    uint64_t start = a[0], len = a[1], vec = a[2];
    if (start % PAGE)
        return -EINVAL;
    uint64_t end = range_end(t, start, len);
    if (!end || end > mm->limit)
        return -ENOMEM;
    unsigned char buf[512];
    for (uint64_t p = start; p < end;) {
        const struct vma *v = mm_find_vma(mm, p);
        if (!v)
            return -ENOMEM;
        uint64_t n = (v->end < end ? v->end : end) - p;
        if (n > sizeof buf * PAGE)
            n = sizeof buf * PAGE;
        if (mincore(v->host + (p - v->start), n, buf) != 0)
            return -ENOMEM;
        for (uint64_t i = 0; i < n / PAGE; i++)
            buf[i] &= 1;
        if (copy_to_guest(mm, vec + (p - start) / PAGE, buf, n / PAGE) < 0)
            return -EFAULT;
        p += n;
    }
    return 0;
}

#define GUEST_MFD_CLOEXEC 1u
#define GUEST_MFD_ALLOW_SEALING 2u
#define GUEST_MFD_HUGETLB 4u
#define MEMFD_NAME_MAX 249 /* NAME_MAX less "memfd:" */

/* An anonymous file in the host's memory: a host memfd, read, written and
 * mapped (MAP_SHARED shares it) as any file, named "/memfd:NAME (deleted)"
 * in /proc/PID/fd, its size bounded by --tmp-size with /tmp's and
 * /dev/shm's files. asymu has no huge pages: MFD_HUGETLB is EINVAL. */
SYSCALL_DECL(memfd_create)
{
    unsigned flags = (unsigned)a[1];
    if (flags & ~(GUEST_MFD_CLOEXEC | GUEST_MFD_ALLOW_SEALING))
        return -EINVAL;
    char name[MEMFD_NAME_MAX + 2];
    int64_t n = strncpy_from_guest(task_mm(t), name, a[0], sizeof name - 1);
    if (n == -ENAMETOOLONG || n > MEMFD_NAME_MAX)
        return -EINVAL;
    if (n < 0)
        return n;
    char path[sizeof name + 32];
    snprintf(path, sizeof path, "/memfd:%s (deleted)", name);
    struct file *f = file_new(FILE_HOST);
    if (!f || !(f->path = strdup(path))) {
        file_put(f);
        return -ENOMEM;
    }
    f->host_fd = memfd_create(name, MFD_CLOEXEC | (flags & GUEST_MFD_ALLOW_SEALING ? MFD_ALLOW_SEALING : 0));
    if (f->host_fd < 0) {
        int err = -errno;
        file_put(f);
        return err;
    }
    f->flags = O_RDWR;
    f->writable_mount = true;
    /* Its pages are the host's memory, as /dev/shm's files: the same limit. */
    f->budget = vfs_budget_of(&t->machine->vfs, "/dev/shm");
    return fd_install_new(t, f, flags & GUEST_MFD_CLOEXEC);
}
