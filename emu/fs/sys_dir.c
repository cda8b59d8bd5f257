/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_dir.c - directories: getcwd, chdir, getdents64. */
#include "abi.h"
#include "dirpos.h"
#include "file.h"
#include "file_access.h"
#include "fsnotify.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IO_CHUNK (64u * 1024)
#define GUEST_AT_FDCWD (-100)

/* getcwd (fs/d_path.c): the cwd as seen from the process's root, or, when
 * a chroot left it outside, "(unreachable)" and its whole path. */
SYSCALL_DECL(getcwd)
{
    char rel[VFS_PATH_MAX], seen[VFS_PATH_MAX + 16];
    bool inside = vfs_path_in_root(t->proc->root, t->proc->cwd, rel, sizeof rel);
    snprintf(seen, sizeof seen, "%s%s", inside ? "" : "(unreachable)", rel);
    size_t n = strlen(seen) + 1;
    if (a[1] < n)
        return -ERANGE;
    int err = copy_to_guest(task_mm(t), a[0], seen, n);
    return err < 0 ? err : (int64_t)n;
}

SYSCALL_DECL(chdir)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, GUEST_AT_FDCWD, a[0], path, sizeof path);
    if (err < 0)
        return err;
    /* The working directory is a real place: its symlinks resolved. */
    char real[VFS_PATH_MAX];
    if ((err = vfs_directory(&t->machine->vfs, t, path, real, sizeof real)) < 0)
        return err;
    snprintf(t->proc->cwd, sizeof t->proc->cwd, "%s", real);
    return 0;
}

struct dirent_writer {
    uint8_t *buf;
    size_t len, used;
    uint64_t index, skip;
    bool full;
    long last_num; /* the last numbered entry returned, if last_valid */
    bool last_valid;
};

/* The number a name is, or -1. */
static long name_number(const char *name)
{
    char *end;
    long n = name[0] >= '0' && name[0] <= '9' ? strtol(name, &end, 10) : -1;
    return n >= 0 && *end == '\0' ? n : -1;
}

/* Whether the entry was returned by an earlier call: by its place, except
 * that numbered entries (descriptors, pids, which come in increasing
 * order) go by number as Linux's positions do, so that closing the
 * descriptors listed so far, as closefrom-style loops do between two
 * calls, skips none of the rest. */
static bool returned_before(const struct dirent_writer *w, const char *name)
{
    long n = w->last_valid ? name_number(name) : -1;
    if (n >= 0)
        return n <= w->last_num;
    return w->index < w->skip;
}

static void emit_dirent(const char *name, unsigned char type, void *arg)
{
    struct dirent_writer *w = arg;
    if (w->full)
        return;
    bool skip = returned_before(w, name);
    w->index++;
    if (skip)
        return;
    size_t namelen = strlen(name);
    size_t reclen = (19 + namelen + 1 + 7) & ~(size_t)7;
    if (w->used + reclen > w->len) {
        w->full = true;
        w->index--;
        return;
    }
    uint8_t *p = w->buf + w->used;
    memset(p, 0, reclen);
    uint64_t ino = w->index + 100, off = w->index;
    uint16_t rl = (uint16_t)reclen;
    memcpy(p, &ino, 8);
    memcpy(p + 8, &off, 8);
    memcpy(p + 16, &rl, 2);
    p[18] = type;
    memcpy(p + 19, name, namelen);
    w->used += reclen;
    long n = name_number(name);
    if (n >= 0) {
        w->last_num = n;
        w->last_valid = true;
    }
}

int64_t do_getdents64(struct task *t, int fd, uint8_t *buf, size_t len)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    if (len > IO_CHUNK)
        len = IO_CHUNK;
    if (f->kind == FILE_HOST) {
        /* struct linux_dirent64 is the same on every architecture. */
        long n = syscall(SYS_getdents64, f->host_fd, buf, len);
        if (n < 0)
            return -errno;
        if (fsnotify_active(t->machine)) /* iterate_dir's fsnotify_access */
            fsnotify_file(t->machine, f, IN_ACCESS);
        if (task_abi(t)->dir_pos32)
            dirpos_renumber(f, buf, (size_t)n);
        return n;
    }
    if (f->kind != FILE_VIRTUAL || f->node.kind != VNODE_DIR)
        return -ENOTDIR;
    struct dirent_writer w = {buf, len, 0, 0, f->pos, false, f->dir_last_num, f->dir_last_valid};
    emit_dirent(".", 4, &w);
    emit_dirent("..", 4, &w);
    vfs_list_virtual(&t->machine->vfs, t, &f->node, emit_dirent, &w);
    if (w.used == 0 && w.full)
        return -EINVAL;
    f->pos = w.index;
    f->dir_last_num = w.last_num;
    f->dir_last_valid = w.last_valid;
    return (int64_t)w.used;
}

SYSCALL_DECL(getdents64)
{
    uint8_t buf[IO_CHUNK];
    int64_t n = do_getdents64(t, (int)a[0], buf, a[2] < IO_CHUNK ? (size_t)a[2] : IO_CHUNK);
    if (n < 0)
        return n;
    int err = copy_to_guest(task_mm(t), a[1], buf, (size_t)n);
    return err < 0 ? err : n;
}
