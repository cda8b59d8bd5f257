/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compat_old.c (arm) - the old calls of the 32-bit ABI that arm64 Linux's
 * compat table keeps (arch/arm64/include/asm/unistd32.h): creat, nice,
 * stat/lstat/fstat with the 32-bit struct stat, getdents with the compat
 * linux_dirent, sysfs, utimes and futimesat with time32 timevals,
 * rt_sigtimedwait_time64, and pciconfig_read/write on a machine without
 * PCI devices. Each is a wrapper of the call both ABIs share. */
#include "abi.h"
#include "file.h"
#include "mm.h"
#include "rlimit.h"
#include "syscall_table.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_EMPTY_PATH 0x1000

/* creat(path, mode): open(path, O_CREAT|O_WRONLY|O_TRUNC, mode). */
SYSCALL_DECL(creat)
{
    return sys_openat(t, (uint64_t[6]){(uint64_t)GUEST_AT_FDCWD, a[0], 0100 | 01 | 01000, a[1]});
}

/* nice(inc) (kernel/sched/core.c): the increment cut to +-40, the value
 * to -20..19; lowering it needs RLIMIT_NICE or CAP_SYS_NICE (can_nice());
 * returns 0, not the new value. */
SYSCALL_DECL(nice)
{
    int inc = (int)a[0];
    inc = inc < -40 ? -40 : inc > 40 ? 40 : inc;
    int nice = t->se.nice + inc;
    nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
    if (inc < 0 && rlimit_cur(t->proc, RLIMIT_NICE) < (uint64_t)(20 - nice) &&
        !capable(t, CAP_SYS_NICE))
        return -EPERM;
    return sys_setpriority(t, (uint64_t[6]){0, 0, (uint64_t)(int64_t)nice});
}

/* ---- struct stat of the old ABI (cp_compat_stat() in fs/stat.c) ---- */

struct compat_stat {
    uint16_t dev, pad1;
    uint32_t ino;
    uint16_t mode, nlink, uid, gid, rdev, pad2;
    int32_t size, blksize, blocks;
    int32_t atime;
    uint32_t atime_nsec;
    int32_t mtime;
    uint32_t mtime_nsec;
    int32_t ctime;
    uint32_t ctime_nsec;
    uint32_t unused[2];
};
_Static_assert(sizeof(struct compat_stat) == 64, "compat struct stat is 64 bytes");

/* old_valid_dev(): 8-bit major and minor. */
static bool old_valid_dev(dev_t d)
{
    return major(d) < 256 && minor(d) < 256;
}

/* high2lowuid(): ids beyond 16 bits become the overflow id 65534. */
static uint16_t low16(uint32_t id)
{
    return id > 0xffff ? 65534 : (uint16_t)id;
}

static int64_t put_compat_stat(struct task *t, int err, const struct stat *st, uint64_t ubuf)
{
    if (err < 0)
        return err;
    if (!old_valid_dev(st->st_dev) || !old_valid_dev(st->st_rdev))
        return -EOVERFLOW;
    if (st->st_ino > UINT32_MAX || st->st_nlink > 0xffff || (uint64_t)st->st_size > 0x7fffffff)
        return -EOVERFLOW;
    struct compat_stat c;
    memset(&c, 0, sizeof c);
    c.dev = (uint16_t)(major(st->st_dev) << 8 | minor(st->st_dev));
    c.ino = (uint32_t)st->st_ino;
    c.mode = (uint16_t)st->st_mode;
    c.nlink = (uint16_t)st->st_nlink;
    c.uid = low16(st->st_uid);
    c.gid = low16(st->st_gid);
    c.rdev = (uint16_t)(major(st->st_rdev) << 8 | minor(st->st_rdev));
    c.size = (int32_t)st->st_size;
    c.atime = (int32_t)st->st_atim.tv_sec, c.atime_nsec = (uint32_t)st->st_atim.tv_nsec;
    c.mtime = (int32_t)st->st_mtim.tv_sec, c.mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
    c.ctime = (int32_t)st->st_ctim.tv_sec, c.ctime_nsec = (uint32_t)st->st_ctim.tv_nsec;
    c.blocks = (int32_t)st->st_blocks;
    c.blksize = (int32_t)st->st_blksize;
    return copy_to_guest(task_mm(t), ubuf, &c, sizeof c) < 0 ? -EFAULT : 0;
}

SYSCALL_DECL(stat_compat)
{
    struct stat st;
    return put_compat_stat(t, stat_at(t, GUEST_AT_FDCWD, a[0], 0, &st), &st, a[1]);
}

SYSCALL_DECL(lstat_compat)
{
    struct stat st;
    int err = stat_at(t, GUEST_AT_FDCWD, a[0], GUEST_AT_SYMLINK_NOFOLLOW, &st);
    return put_compat_stat(t, err, &st, a[1]);
}

SYSCALL_DECL(fstat_compat)
{
    struct stat st;
    return put_compat_stat(t, stat_at(t, (int)a[0], 0, GUEST_AT_EMPTY_PATH, &st), &st, a[1]);
}

/* ---- getdents: struct compat_linux_dirent (fs/readdir.c) ---- */

/* {u32 d_ino, s32 d_off, u16 d_reclen, char d_name[]}, d_type in the
 * record's last byte, records of ALIGN(10 + len + 2, 4) bytes. They are
 * made from getdents64's, which are never smaller: twice the guest's
 * count of them is read, and the directory set back to the first record
 * that did not fit. An inode number beyond 32 bits is EOVERFLOW
 * (compat_filldir()), after the records before it. */
SYSCALL_DECL(getdents)
{
    int fd = (int)a[0];
    size_t count = a[2] < 32768 ? (size_t)a[2] : 32768;
    int64_t start = do_lseek(t, fd, 0, 1 /* SEEK_CUR */);
    uint8_t in[65536], out[32768];
    int64_t n = do_getdents64(t, fd, in, 2 * count);
    if (n < 0)
        return n;
    size_t used = 0, o = 0;
    int64_t resume = -1, err = 0;
    while (o < (size_t)n) {
        uint64_t ino, off;
        uint16_t reclen64;
        memcpy(&ino, in + o, 8);
        memcpy(&off, in + o + 8, 8);
        memcpy(&reclen64, in + o + 16, 2);
        const char *name = (const char *)in + o + 19;
        size_t len = strlen(name), reclen = (10 + len + 2 + 3) & ~(size_t)3;
        if (ino > UINT32_MAX || used + reclen > count) {
            err = ino > UINT32_MAX ? -EOVERFLOW : -EINVAL;
            resume = used ? resume : start;
            break;
        }
        uint8_t *p = out + used;
        memset(p, 0, reclen);
        uint32_t ino32 = (uint32_t)ino, off32 = (uint32_t)off;
        uint16_t rl = (uint16_t)reclen;
        memcpy(p, &ino32, 4);
        memcpy(p + 4, &off32, 4);
        memcpy(p + 8, &rl, 2);
        memcpy(p + 10, name, len);
        p[reclen - 1] = in[o + 18];
        used += reclen;
        resume = (int64_t)off;
        o += reclen64;
    }
    /* Records read but not given back are read again next time. */
    if (o < (size_t)n && resume >= 0)
        do_lseek(t, fd, resume, 0 /* SEEK_SET */);
    if (used == 0 && err < 0)
        return err;
    int cerr = copy_to_guest(task_mm(t), a[1], out, used);
    return cerr < 0 ? cerr : (int64_t)used;
}

/* ---- sysfs(option, arg1, arg2) (fs/filesystems.c) ---- */

/* Over the machine's file system types, as /proc/filesystems lists them
 * (sysfs-fs/mounts.c). */
SYSCALL_DECL(sysfs)
{
    switch ((int)a[0]) {
    case 1: { /* fs_index(name) */
        char name[256];
        int64_t n = strncpy_from_guest(task_mm(t), name, a[1], sizeof name);
        if (n < 0)
            return n;
        for (unsigned i = 0; i < VFS_FS_TYPES && n < (int64_t)sizeof name; i++)
            if (strcmp(name, vfs_fs_types[i].name) == 0)
                return i;
        return -EINVAL;
    }
    case 2: /* fs_name(index, buf) */
        if ((uint32_t)a[1] >= VFS_FS_TYPES)
            return -EINVAL;
        return copy_to_guest(task_mm(t), a[2], vfs_fs_types[(uint32_t)a[1]].name,
                             strlen(vfs_fs_types[(uint32_t)a[1]].name) + 1) < 0 ? -EFAULT : 0;
    case 3: /* fs_maxindex() */
        return VFS_FS_TYPES;
    default:
        return -EINVAL;
    }
}

/* ---- time32 timevals ---- */

/* do_compat_futimesat(): two struct old_timeval32, microseconds checked
 * after their conversion to nanoseconds. */
static int64_t futimesat_time32(struct task *t, int dirfd, uint64_t upath, uint64_t utv)
{
    int64_t times[4];
    if (utv) {
        int32_t tv[4];
        if (copy_from_guest(task_mm(t), tv, utv, sizeof tv) < 0)
            return -EFAULT;
        for (int i = 0; i < 2; i++) {
            int64_t nsec = (int64_t)tv[2 * i + 1] * 1000;
            if (nsec < 0 || nsec >= 1000000000)
                return -EINVAL;
            times[2 * i] = tv[2 * i];
            times[2 * i + 1] = nsec;
        }
    }
    return do_utimes(t, dirfd, upath, utv ? times : NULL, 0);
}

SYSCALL_DECL(utimes)
{
    return futimesat_time32(t, GUEST_AT_FDCWD, a[0], a[1]);
}

SYSCALL_DECL(futimesat)
{
    return futimesat_time32(t, (int)a[0], a[1], a[2]);
}

SYSCALL_DECL(rt_sigtimedwait_time64)
{
    return do_rt_sigtimedwait(t, a, 8);
}

/* ---- PCI configuration space (drivers/pci/syscall.c) ---- */

/* pciconfig_read(bus, dfn, off, len, buf): CAP_SYS_ADMIN, then no device
 * at (0, bus, dfn): all-ones in buf for a length of 1, 2 or 4 (a fault
 * ignored, as Linux's put_user there is unchecked) and ENODEV. */
SYSCALL_DECL(pciconfig_read)
{
    if (!capable(t, CAP_SYS_ADMIN))
        return -EPERM;
    uint32_t ones = UINT32_MAX;
    if (a[3] == 1 || a[3] == 2 || a[3] == 4)
        (void)copy_to_guest(task_mm(t), a[4], &ones, (size_t)a[3]);
    return -ENODEV;
}

SYSCALL_DECL(pciconfig_write)
{
    (void)a;
    return !capable(t, CAP_SYS_ADMIN) ? -EPERM : -ENODEV;
}
