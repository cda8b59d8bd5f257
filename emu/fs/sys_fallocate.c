/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_fallocate.c - fallocate(2): space for a host file the guest may
 * change, with Linux's checks for every other kind of descriptor. */
#include "file.h"
#include "file_access.h"
#include "file_limits.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>

/* FALLOC_FL_KEEP_SIZE ... FALLOC_FL_UNSHARE_RANGE: what Linux 5.15 knows. */
#define GUEST_FALLOC_FL_SUPPORTED 0x7f

static int allocate(int fd, const uint64_t arg[4])
{
    return fallocate(fd, (int)arg[0], (off_t)arg[1], (off_t)arg[2]) < 0 ? -errno : 0;
}

SYSCALL_DECL(fallocate)
{
    struct file *f = file_get_io(t, (int)a[0]);
    if (!f)
        return -EBADF;
    int mode = (int)a[1];
    /* arm's register pairs are joined in arch/arm/sys32.c. */
    int64_t off = (int64_t)a[2], len = (int64_t)a[3];
    if (f->kind == FILE_HOST) {
        /* The host fd has the guest's access mode: a descriptor open only
         * for reading gets EBADF from the host, and one open for writing
         * exists only on a writable mount (checked again all the same). */
        int err = (f->flags & O_ACCMODE) == O_RDONLY ? 0 : file_may_change(f);
        if (err < 0)
            return err;
        uint64_t arg[4] = {(uint64_t)mode, (uint64_t)off, (uint64_t)len};
        bool keep_size = mode & (FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE);
        return file_limited_resize(t, f, (uint64_t)off + (uint64_t)len, keep_size, allocate, arg);
    }
    if (off < 0 || len <= 0)
        return -EINVAL;
    if (mode & ~GUEST_FALLOC_FL_SUPPORTED)
        return -EOPNOTSUPP;
    if ((f->flags & O_ACCMODE) == O_RDONLY)
        return -EBADF;
    return f->kind == FILE_PIPE ? -ESPIPE : -ENODEV;
}
