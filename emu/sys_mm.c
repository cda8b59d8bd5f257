/* sys_mm.c - memory syscalls: brk, mmap (and mmap2 through do_mmap),
 * munmap, mprotect, mremap, madvise. */
#include "file_access.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096u
#define PAGE_ALIGN(x) (((x) + PAGE - 1) & ~(uint64_t)(PAGE - 1))

SYSCALL_DECL(brk)
{
    struct mm *mm = task_mm(t);
    uint64_t want = a[0];
    if (want < mm->brk_start)
        return (int64_t)mm->brk;
    uint64_t old_top = PAGE_ALIGN(mm->brk), new_top = PAGE_ALIGN(want);
    if (new_top > old_top) {
        if (mm_find_free(mm, old_top, new_top - old_top) != old_top)
            return (int64_t)mm->brk;
        if (mm_map_fixed(mm, old_top, new_top - old_top, PROT_READ | PROT_WRITE) < 0)
            return (int64_t)mm->brk;
    } else if (new_top < old_top) {
        mm_unmap(mm, new_top, old_top - new_top);
    }
    mm->brk = want;
    return (int64_t)mm->brk;
}

/* Fills guest memory at addr with the file's bytes from off (zeros past EOF). */
static int64_t fill_from_file(struct task *t, uint64_t addr, uint64_t len, int fd, uint64_t off)
{
    struct file *f = file_get(t, fd);
    if (!f)
        return -EBADF;
    if (f->kind == FILE_VIRTUAL && f->node.kind == VNODE_ZERO)
        return 0;
    if (f->kind != FILE_HOST)
        return -ENODEV;
    if ((f->flags & O_ACCMODE) == O_WRONLY)
        return -EACCES;
    uint8_t *host = mm_host_ptr(task_mm(t), addr, len, 0);
    if (!host)
        return -ENOMEM;
    uint64_t done = 0;
    while (done < len) {
        ssize_t n = pread(f->host_fd, host + done, len - done, (off_t)(off + done));
        if (n < 0)
            return -errno;
        if (n == 0)
            break;
        done += (uint64_t)n;
    }
    return 0;
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
    uint64_t alen = PAGE_ALIGN(len);
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
    struct vma_origin origin = {0};
    if (!(flags & MAP_ANONYMOUS)) {
        struct file *f = file_get_io(t, fd);
        struct stat st;
        if (!f)
            return -EBADF;
        /* A shared mapping of a file not open for writing can never be
         * written: not now (EACCES), nor after mprotect (origin.shared_ro). */
        bool shared_ro = type != MAP_PRIVATE && (f->flags & O_ACCMODE) == O_RDONLY;
        if (shared_ro && (prot & PROT_WRITE))
            return -EACCES;
        origin.shared_ro = shared_ro;
        /* A regular file is named in /proc/PID/maps; /dev/zero is anonymous. */
        if (f->kind == FILE_HOST && fstat(f->host_fd, &st) == 0)
            origin = (struct vma_origin){f->path, off, st.st_dev, st.st_ino, shared_ro};
    }
    int err = mm_map_origin(mm, addr, alen, prot, &origin);
    if (err < 0)
        return err;
    if (!(flags & MAP_ANONYMOUS)) {
        int64_t ferr = fill_from_file(t, addr, alen, fd, off);
        if (ferr < 0) {
            mm_unmap(mm, addr, alen);
            return ferr;
        }
    }
    return (int64_t)addr;
}

SYSCALL_DECL(mmap)
{
    return do_mmap(t, a[0], a[1], (int)a[2], (int)a[3], (int)a[4], a[5]);
}

SYSCALL_DECL(munmap)
{
    if (a[0] % PAGE || a[1] == 0 || a[0] + a[1] > task_mm(t)->limit)
        return -EINVAL;
    return mm_unmap(task_mm(t), a[0], a[1]);
}

SYSCALL_DECL(mprotect)
{
    if (a[2] & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC))
        return -EINVAL;
    return mm_protect(task_mm(t), a[0], a[1], (int)a[2]);
}

#define GUEST_MREMAP_MAYMOVE 1
#define GUEST_MREMAP_FIXED 2

SYSCALL_DECL(mremap)
{
    struct mm *mm = task_mm(t);
    uint64_t old = a[0], old_len = PAGE_ALIGN(a[1]), new_len = PAGE_ALIGN(a[2]);
    int flags = (int)a[3];
    if (old % PAGE || new_len == 0 || (flags & ~(GUEST_MREMAP_MAYMOVE | GUEST_MREMAP_FIXED)) ||
        (flags & GUEST_MREMAP_FIXED))
        return -EINVAL;
    const struct vma *v = mm_find_vma(mm, old);
    if (!v || old + old_len > v->end)
        return -EFAULT;
    int prot = v->prot;
    if (new_len <= old_len) {
        if (new_len < old_len)
            mm_unmap(mm, old + new_len, old_len - new_len);
        return (int64_t)old;
    }
    uint64_t grow = new_len - old_len;
    if (mm_find_free(mm, old + old_len, grow) == old + old_len) {
        int err = mm_map_fixed(mm, old + old_len, grow, prot);
        return err < 0 ? err : (int64_t)old;
    }
    if (!(flags & GUEST_MREMAP_MAYMOVE))
        return -ENOMEM;
    uint64_t dst = mm_find_free(mm, 0, new_len);
    if (!dst)
        return -ENOMEM;
    int err = mm_map_fixed(mm, dst, new_len, prot);
    if (err < 0)
        return err;
    /* Copy piece by piece: the old range may span several VMAs. */
    for (uint64_t done = 0; done < old_len;) {
        const struct vma *sv = mm_find_vma(mm, old + done);
        if (!sv)
            break;
        uint64_t n = sv->end - (old + done);
        if (n > old_len - done)
            n = old_len - done;
        memcpy(mm_host_ptr(mm, dst + done, n, 0), sv->host + (old + done - sv->start), n);
        done += n;
    }
    mm_unmap(mm, old, old_len);
    return (int64_t)dst;
}

SYSCALL_DECL(madvise)
{
    if (a[0] % PAGE)
        return -EINVAL;
    if ((int)a[2] == MADV_DONTNEED) {
        /* Private pages read back as zero afterwards (anonymous memory) or
         * as the file's bytes (copied in at mmap: zero here, a gap). The
         * host releases anonymous pages itself, as Linux does: glibc does
         * this to every exiting thread's stack. */
        struct mm *mm = task_mm(t);
        uint64_t end = a[0] + PAGE_ALIGN(a[1]);
        for (uint64_t p = a[0]; p < end;) {
            const struct vma *v = mm_find_vma(mm, p);
            if (!v)
                return -ENOMEM;
            uint64_t n = (v->end < end ? v->end : end) - p;
            uint8_t *host = v->host + (p - v->start);
            if (v->origin.path || madvise(host, n, MADV_DONTNEED) != 0)
                memset(host, 0, n);
            p += n;
        }
    }
    return 0;
}
