/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dirpos.c - entry numbers as directory positions for 32-bit guests. */
#include "abi.h"
#include "dirpos.h"
#include "file.h"
#include "task.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type, d_name. */
#define DIRENT_OFF 8
#define DIRENT_RECLEN 16
#define DIRENT_HEAD 19

bool dirpos_applies(struct task *t, const struct file *f)
{
    struct stat st;
    return task_abi(t)->dir_pos32 && f->kind == FILE_HOST && fstat(f->host_fd, &st) == 0 &&
           S_ISDIR(st.st_mode);
}

void dirpos_renumber(struct file *f, uint8_t *buf, size_t n)
{
    for (size_t at = 0; at + DIRENT_HEAD <= n;) {
        uint16_t reclen;
        memcpy(&reclen, buf + at + DIRENT_RECLEN, 2);
        if (reclen == 0)
            break;
        uint64_t next = ++f->pos;
        memcpy(buf + at + DIRENT_OFF, &next, 8);
        at += reclen;
    }
}

/* Moves the host directory to just after its first `count` entries. */
static int skip_entries(struct file *f, uint64_t count)
{
    if (lseek(f->host_fd, 0, SEEK_SET) < 0)
        return -errno;
    uint8_t buf[16384];
    uint64_t seen = 0;
    while (seen < count) {
        long n = syscall(SYS_getdents64, f->host_fd, buf, sizeof buf);
        if (n < 0)
            return -errno;
        if (n == 0)
            break; /* past the end: stay at the end, as the kernel does */
        for (long at = 0; at + DIRENT_HEAD <= n;) {
            uint16_t reclen;
            int64_t host_off;
            memcpy(&reclen, buf + at + DIRENT_RECLEN, 2);
            memcpy(&host_off, buf + at + DIRENT_OFF, 8);
            at += reclen;
            if (++seen == count)
                return lseek(f->host_fd, host_off, SEEK_SET) < 0 ? -errno : 0;
        }
    }
    return 0;
}

int64_t dirpos_seek(struct file *f, int64_t off, int whence)
{
    int64_t to = whence == SEEK_SET ? off : whence == SEEK_CUR ? (int64_t)f->pos + off : -1;
    if (to < 0)
        return -EINVAL;
    int err = skip_entries(f, (uint64_t)to);
    if (err < 0)
        return err;
    f->pos = (uint64_t)to;
    return to;
}
