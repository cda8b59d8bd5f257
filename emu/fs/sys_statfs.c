/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_statfs.c - statfs, fstatfs (and arm's statfs64, fstatfs64): what
 * file system holds a path or descriptor, by the guest's mounts: the
 * private /tmp and /dev/shm are tmpfs sharing --tmp-size, /proc, /sys and /dev are the
 * kernel's own, and the root is the host file system under it, read-only
 * (ST_RDONLY) unless --rw. */
#include "abi.h"
#include "abi_user.h"
#include "file.h"
#include "file_access.h"
#include "fs_calls.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"
#include "page.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define TMPFS_MAGIC 0x01021994
#define PROC_MAGIC 0x9fa0
#define SYSFS_MAGIC 0x62656572
#define DEVPTS_MAGIC 0x1cd1
#define PIPEFS_MAGIC 0x50495045
#define SOCKFS_MAGIC 0x534f434b
#define ANON_INODE_MAGIC 0x09041934
#define MQUEUE_MAGIC 0x19800202

static bool under(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* A kernel file system with nothing to count. */
static void pseudo_fs(struct statfs *s, long type)
{
    memset(s, 0, sizeof *s);
    s->f_type = type;
    s->f_bsize = s->f_frsize = PAGE;
    s->f_namelen = 255;
    s->f_flags = ST_NOSUID | ST_NOEXEC | ST_NODEV | ST_RELATIME;
}

/* The file system of guest path `path`; host_fd is a host descriptor of
 * the file (-1 for a virtual one) and writable whether the guest may
 * change it. */
static int statfs_of(struct task *t, const char *path, int host_fd, bool writable,
                     struct statfs *s)
{
    const struct vfs *v = &t->machine->vfs;
    if (vfs_mqueue_rel(v, path)) {
        /* simple_statfs, with the flags of the mount (flags_by_mnt()) */
        static const struct {
            const char *name;
            unsigned long flag;
        } opts[] = {{"nosuid", ST_NOSUID},   {"nodev", ST_NODEV},
                    {"noexec", ST_NOEXEC},   {"noatime", ST_NOATIME},
                    {"nodiratime", ST_NODIRATIME}, {"relatime", ST_RELATIME}};
        char flags[64];
        snprintf(flags, sizeof flags, "%s", vfs_mqueue_flags(v, path));
        pseudo_fs(s, MQUEUE_MAGIC);
        s->f_flags = vfs_mqueue_readonly(v, path) ? ST_RDONLY : 0;
        for (char *save, *o = strtok_r(flags, ",", &save); o; o = strtok_r(NULL, ",", &save))
            for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
                if (strcmp(o, opts[i].name) == 0)
                    s->f_flags |= opts[i].flag;
    } else if (under(path, "/proc"))
        pseudo_fs(s, PROC_MAGIC);
    else if (under(path, "/sys"))
        pseudo_fs(s, SYSFS_MAGIC);
    else if (under(path, "/dev/pts"))
        pseudo_fs(s, DEVPTS_MAGIC);
    else if (under(path, "/dev") && !under(path, "/dev/shm"))
        pseudo_fs(s, TMPFS_MAGIC); /* devtmpfs */
    else if (host_fd < 0)
        return -ENOENT;
    else if (fstatfs(host_fd, s) < 0)
        return -errno;
    else if (vfs_mount_index(&t->machine->vfs, path) != VFS_MOUNT_ROOT && writable) {
        const struct vfs_budget *b = vfs_budget_of(&t->machine->vfs, path);
        uint64_t left = b->used < b->limit ? b->limit - b->used : 0;
        s->f_type = TMPFS_MAGIC;
        s->f_bsize = s->f_frsize = PAGE;
        s->f_blocks = b->limit / PAGE;
        s->f_bfree = s->f_bavail = left / PAGE;
        s->f_files = b->inodes_limit; /* tmpfs's nr_inodes */
        s->f_ffree = b->inodes < b->inodes_limit ? b->inodes_limit - b->inodes : 0;
        s->f_flags = ST_NOSUID | ST_NODEV | ST_RELATIME;
    } else if (!writable)
        s->f_flags |= ST_RDONLY;
    s->f_flags |= 0x20; /* ST_VALID: f_flags is meaningful */
    return 0;
}

static int statfs_abs(struct task *t, char path[VFS_PATH_MAX], struct statfs *s);

static int statfs_path(struct task *t, uint64_t upath, struct statfs *s)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, -100, upath, path, sizeof path);
    return err < 0 ? (int)err : statfs_abs(t, path, s);
}

static int statfs_abs(struct task *t, char path[VFS_PATH_MAX], struct statfs *s)
{
    int64_t err = vfs_follow(&t->machine->vfs, t, path, path, VFS_PATH_MAX);
    if (err < 0)
        return (int)err;
    struct stat st;
    if ((err = vfs_stat(&t->machine->vfs, t, path, true, &st)) < 0)
        return (int)err;
    struct vfs_node node;
    if (vfs_lookup_virtual(&t->machine->vfs, t, path, &node) > 0)
        return statfs_of(t, path, -1, false, s);
    bool writable;
    int fd = vfs_open_host_writable(&t->machine->vfs, path, O_PATH, 0, &writable);
    if (fd < 0)
        return fd;
    err = statfs_of(t, path, fd, writable, s);
    close(fd);
    return (int)err;
}

static int statfs_fd(struct task *t, int fd, struct statfs *s)
{
    struct file *f = file_get(t, fd);
    if (!f)
        return -EBADF;
    switch (f->kind) {
    case FILE_HOST:
        return statfs_of(t, f->path ? f->path : "/", f->host_fd, f->writable_mount, s);
    case FILE_VIRTUAL:
        return statfs_of(t, f->path ? f->path : "/dev", -1, false, s);
    case FILE_CONSOLE:
        pseudo_fs(s, DEVPTS_MAGIC);
        return 0;
    case FILE_PIPE:
        pseudo_fs(s, PIPEFS_MAGIC);
        return 0;
    case FILE_OBJECT:
        /* an mq descriptor's inode is the mqueue file system's */
        if (f->ops->name && strcmp(f->ops->name, "mqueue") == 0)
            pseudo_fs(s, MQUEUE_MAGIC);
        else
            pseudo_fs(s, S_ISSOCK(f->ops->mode) ? SOCKFS_MAGIC : ANON_INODE_MAGIC);
        return 0;
    }
    return -EBADF;
}

static void put_word(uint8_t *buf, size_t *o, uint64_t v, unsigned size)
{
    memcpy(buf + *o, &v, size); /* little-endian on both ISAs and the host */
    *o += size;
}

/* The guest's struct statfs (the ABI's longs: asm-generic's __statfs_word,
 * compat_statfs's 32-bit words) or arm's statfs64 (counts of 8 bytes, the
 * rest 4, packed: 84 bytes): its size, or -EOVERFLOW when a count does not
 * fit its long (put_compat_statfs(); -1 passes). */
static int statfs_to_guest(struct task *t, const struct statfs *s, bool counts64, uint8_t *buf)
{
    const struct abi *abi = task_abi(t);
    unsigned long_size = (unsigned)abi_longs_size(t, 1);
    unsigned count = counts64 ? 8 : long_size;
    uint64_t counts[] = {s->f_blocks, s->f_bfree, s->f_bavail, s->f_files, s->f_ffree};
    for (size_t i = 0; i < 5 && !counts64; i++)
        if (abi_ulong(abi, counts[i]) != counts[i] && counts[i] != UINT64_MAX)
            return -EOVERFLOW;
    size_t o = 0;
    put_word(buf, &o, (uint64_t)s->f_type, long_size);
    put_word(buf, &o, (uint64_t)s->f_bsize, long_size);
    for (size_t i = 0; i < 5; i++)
        put_word(buf, &o, counts[i], count);
    memcpy(buf + o, &s->f_fsid, 8);
    o += 8;
    put_word(buf, &o, (uint64_t)s->f_namelen, long_size);
    put_word(buf, &o, (uint64_t)s->f_frsize, long_size);
    put_word(buf, &o, (uint64_t)s->f_flags, long_size);
    memset(buf + o, 0, 4 * long_size);
    return (int)(o + 4 * long_size);
}

static int64_t put_statfs(struct task *t, int err, const struct statfs *s, bool counts64,
                          uint64_t ubuf)
{
    if (err < 0)
        return err;
    uint8_t buf[128];
    int n = statfs_to_guest(t, s, counts64, buf);
    return n < 0 ? n : copy_to_guest(task_mm(t), ubuf, buf, (size_t)n);
}

/* arm's struct statfs64 is packed: 84 bytes, the size statfs64 must be
 * given; arm Linux takes 88 too (glibc's unpacked struct) and writes 84. */
static bool statfs64_size_ok(uint64_t size)
{
    return size == 84 || size == 88;
}

SYSCALL_DECL(statfs)
{
    struct statfs s;
    return put_statfs(t, statfs_path(t, a[0], &s), &s, false, a[1]);
}

SYSCALL_DECL(fstatfs)
{
    struct statfs s;
    return put_statfs(t, statfs_fd(t, (int)a[0], &s), &s, false, a[1]);
}

SYSCALL_DECL(statfs64)
{
    if (!statfs64_size_ok(a[1]))
        return -EINVAL;
    struct statfs s;
    return put_statfs(t, statfs_path(t, a[0], &s), &s, true, a[2]);
}

SYSCALL_DECL(fstatfs64)
{
    if (!statfs64_size_ok(a[1]))
        return -EINVAL;
    struct statfs s;
    return put_statfs(t, statfs_fd(t, (int)a[0], &s), &s, true, a[2]);
}

/* arm's ustat(dev, ubuf) (compat_sys_ustat, vfs_ustat()): the free blocks
 * and inodes of the mounted file system whose device is dev (as stat's
 * st_dev and /proc/self/mountinfo give it), EINVAL for any other device.
 * struct compat_ustat: f_tfree (s32), f_tinode (u32), f_fname[6],
 * f_fpack[6] (zeroed). */
SYSCALL_DECL(ustat)
{
    uint32_t dev = (uint32_t)a[0];
    unsigned maj = (dev & 0xfff00) >> 8, min = (dev & 0xff) | ((dev >> 12) & 0xfff00);
    char *text = NULL, point[VFS_PATH_MAX] = "";
    size_t size = 0;
    int err = vfs_mounts_text(&t->machine->vfs, true, &text, &size);
    if (err < 0)
        return err;
    for (char *line = text; line && *line && !point[0];) {
        unsigned id, parent, ma, mi;
        char root[8], at[VFS_PATH_MAX];
        if (sscanf(line, "%u %u %u:%u %7s %4095s", &id, &parent, &ma, &mi, root, at) == 6 &&
            ma == maj && mi == min)
            snprintf(point, sizeof point, "%s", at);
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    free(text);
    if (!point[0])
        return -EINVAL; /* user_get_super(): no such file system */
    struct statfs s;
    if ((err = statfs_abs(t, point, &s)) < 0)
        return err;
    uint8_t buf[20] = {0};
    uint32_t tfree = (uint32_t)s.f_bfree, tinode = (uint32_t)s.f_ffree;
    memcpy(buf, &tfree, 4);
    memcpy(buf + 4, &tinode, 4);
    return copy_to_guest(task_mm(t), a[1], buf, sizeof buf) < 0 ? -EFAULT : 0;
}
