/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file_limits.c - regular files grow only within RLIMIT_FSIZE (rlimit.c)
 * and their mount's budget (sysfs-fs/budget.h). Host files of other kinds
 * (FIFOs, sockets) and files with no limit cost no extra host call. */
#include "file.h"
#include "file_limits.h"
#include "rlimit.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The size of f if it is a regular file that some limit applies to. */
static bool limited_size(struct task *t, struct file *f, uint64_t *size)
{
    struct stat st;
    if (!f->budget && rlimit_cur(t->proc, RLIMIT_FSIZE) == RLIM64_INFINITY)
        return false;
    if (fstat(f->host_fd, &st) < 0 || !S_ISREG(st.st_mode))
        return false;
    *size = (uint64_t)st.st_size;
    return true;
}

static int64_t host_write(int fd, const void *buf, size_t len, int64_t off)
{
    ssize_t n = off < 0 ? write(fd, buf, len) : pwrite(fd, buf, len, off);
    return n < 0 ? -errno : n;
}

int64_t file_limited_write(struct task *t, struct file *f, const void *buf, size_t len,
                           int64_t off)
{
    uint64_t size;
    if (!limited_size(t, f, &size))
        return host_write(f->host_fd, buf, len, off);
    int64_t pos = off >= 0 ? off : (f->flags & O_APPEND) ? (int64_t)size
                                                         : lseek(f->host_fd, 0, SEEK_CUR);
    if (pos < 0)
        return -errno;
    /* As Linux: the process limit first (its signal), then the file system's. */
    if (rlimit_fsize_clamp(t, (uint64_t)pos, &len) < 0)
        return rlimit_fsize_exceeded(t);
    int err = f->budget ? budget_fit(f->budget, size, (uint64_t)pos, &len) : 0;
    if (err < 0)
        return err;
    int64_t n = host_write(f->host_fd, buf, len, off);
    if (n > 0 && f->budget && (uint64_t)pos + (uint64_t)n > size)
        budget_account(f->budget, size, (uint64_t)pos + (uint64_t)n);
    return n;
}

int file_limited_resize(struct task *t, struct file *f, uint64_t end, bool keep_size,
                        int (*change)(int fd, const uint64_t arg[4]), const uint64_t arg[4])
{
    uint64_t size;
    if (!limited_size(t, f, &size))
        return change(f->host_fd, arg);
    if (!keep_size && end > size) {
        int err = rlimit_fsize_check(t, end);
        if (err == 0 && f->budget)
            err = budget_resize(f->budget, size, end);
        if (err < 0)
            return err;
    } else if (keep_size && f->budget && end > size) {
        /* Blocks past the end the budget could not see: refused. */
        return -EOPNOTSUPP;
    }
    int err = change(f->host_fd, arg);
    struct stat st;
    if (f->budget && fstat(f->host_fd, &st) == 0)
        budget_account(f->budget, size, (uint64_t)st.st_size);
    return err;
}
