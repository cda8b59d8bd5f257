/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_ioctl.c - ioctl(2): first the requests every file takes (Linux
 * 5.15's do_vfs_ioctl in fs/ioctl.c), then the file kind's own (vfs_ioctl:
 * its file_operations' unlocked_ioctl). The request numbers are the same
 * on arm, arm64 and the host, but for FIOQSIZE. */
#include "abi.h"
#include "file.h"
#include "file_access.h"
#include "fs_calls.h"
#include "mm.h"
#include "recording.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

static int64_t put_int(struct task *t, uint64_t addr, int v)
{
    return copy_to_guest(task_mm(t), addr, &v, sizeof v);
}

/* Whether the file has a fasync operation: pipes and FIFOs (pipe_fasync),
 * sockets, terminals, /dev/random and /dev/urandom; not regular files,
 * directories, /dev/null or the event descriptors. */
static bool has_fasync(const struct file *f)
{
    struct stat st;
    switch (f->kind) {
    case FILE_PIPE:
        return true;
    case FILE_OBJECT:
        return f->ops->fasync;
    case FILE_VIRTUAL:
        return f->node.kind == VNODE_RANDOM;
    case FILE_CONSOLE:
    case FILE_HOST:
        return fstat(f->host_fd, &st) == 0 &&
               (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
    }
    return false;
}

/* ioctl_fioasync: a change of O_ASYNC needs the file's fasync, which sets
 * the flag. asymu sends no SIGIO (F_SETOWN is not supported), so the flag
 * is all that changes (docs/processes.md). */
static int64_t fioasync(struct task *t, struct file *f, uint64_t arg)
{
    int32_t on;
    if (copy_from_guest(task_mm(t), &on, arg, sizeof on) < 0)
        return -EFAULT;
    if (!!on == !!(f->flags & O_ASYNC))
        return 0;
    if (!has_fasync(f))
        return -ENOTTY;
    f->flags = on ? f->flags | O_ASYNC : f->flags & ~O_ASYNC;
    return 0;
}

/* fionread's answer when the file kind's own ioctl decides. */
#define KIND_DECIDES 1

/* The bytes a read would find waiting: a regular file's size past the
 * position (do_vfs_ioctl, as an int, negative past the end); a pipe's or
 * FIFO's content (pipe_ioctl); the console's when it is a pipe or a
 * terminal on the host, or what a recording holds. KIND_DECIDES for the
 * others (sockets, ptys: their ioctl answers). */
static int64_t fionread(struct task *t, struct file *f, int *n)
{
    struct stat st;
    switch (f->kind) {
    case FILE_PIPE:
        *n = (int)f->pipe->len;
        return 0;
    case FILE_VIRTUAL:
        if (f->node.kind != VNODE_GENERATED)
            return KIND_DECIDES;
        *n = (int)((int64_t)f->size - (int64_t)f->pos);
        return 0;
    case FILE_CONSOLE:
        if (recording_owns_console(t->machine)) {
            *n = (int)recording_console_pending(t->machine);
            return 0;
        }
        __attribute__((fallthrough)); /* the host's stdin */
    case FILE_HOST:
        if (fstat(f->host_fd, &st) < 0)
            return -errno;
        if (S_ISREG(st.st_mode)) {
            off_t pos = lseek(f->host_fd, 0, SEEK_CUR);
            *n = (int)((int64_t)st.st_size - (int64_t)(pos < 0 ? 0 : pos));
            return 0;
        }
        if (S_ISFIFO(st.st_mode) || (f->kind == FILE_CONSOLE && isatty(f->host_fd)))
            return ioctl(f->host_fd, FIONREAD, n) < 0 ? -errno : 0;
        return KIND_DECIDES;
    case FILE_OBJECT:
        return KIND_DECIDES;
    }
    return KIND_DECIDES;
}

/* arm's asm/ioctls.h numbers FIOQSIZE 0x545e; asm-generic's (arm64's,
 * the host's) is 0x5460. */
#define FIOQSIZE_ARM 0x545e
#define FIOQSIZE_GENERIC 0x5460

/* FIOQSIZE: the bytes a directory, regular file or symlink takes on disk
 * (inode_get_bytes), as a 64-bit number. */
static int64_t fioqsize(struct task *t, struct file *f, uint64_t arg)
{
    struct stat st;
    int err = file_stat(t, f, &st);
    if (err < 0)
        return err;
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
        return -ENOTTY;
    int64_t bytes = (int64_t)st.st_blocks * 512;
    return copy_to_guest(task_mm(t), arg, &bytes, sizeof bytes);
}

/* The console's own: terminal queries pass through to the host's terminal
 * (struct termios and struct winsize have the same layout on the host and
 * on both guest ABIs). Recorded or replayed, the console is not a
 * terminal: the run must not depend on where the host's stdin and stdout
 * go. */
static int64_t console_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    if (recording_owns_console(t->machine) || !isatty(f->host_fd))
        return -ENOTTY;
    if (req == TCGETS) {
        struct termios tio;
        if (ioctl(f->host_fd, TCGETS, &tio) < 0)
            return -errno;
        return copy_to_guest(task_mm(t), arg, &tio, sizeof tio);
    }
    if (req == TIOCGWINSZ) {
        struct winsize ws;
        if (ioctl(f->host_fd, TIOCGWINSZ, &ws) < 0)
            return -errno;
        return copy_to_guest(task_mm(t), arg, &ws, sizeof ws);
    }
    return -ENOTTY;
}

/* The kind's own requests (vfs_ioctl): a file without unlocked_ioctl
 * answers ENOTTY; /dev/random's random_ioctl EINVAL for what it does not
 * know. */
static int64_t kind_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    switch (f->kind) {
    case FILE_OBJECT:
        return f->ops->ioctl ? f->ops->ioctl(t, f, req, arg) : -ENOTTY;
    case FILE_CONSOLE:
        return console_ioctl(t, f, req, arg);
    case FILE_VIRTUAL:
        return f->node.kind == VNODE_RANDOM ? -EINVAL : -ENOTTY;
    default:
        return -ENOTTY;
    }
}

SYSCALL_DECL(ioctl)
{
    struct file *f = file_get_io(t, (int)a[0]);
    if (!f)
        return -EBADF;
    unsigned long req = (unsigned long)(uint32_t)a[1];
    unsigned long fioqsize_req =
        task_abi(t)->isa == LOADER_ISA_AARCH64 ? FIOQSIZE_GENERIC : FIOQSIZE_ARM;
    if (req == fioqsize_req)
        return fioqsize(t, f, a[2]);
    switch (req) {
    case FIONBIO: {
        int32_t on;
        if (copy_from_guest(task_mm(t), &on, a[2], sizeof on) < 0)
            return -EFAULT;
        f->flags = on ? f->flags | O_NONBLOCK : f->flags & ~O_NONBLOCK;
        return 0;
    }
    case FIOCLEX:
    case FIONCLEX:
        t->proc->files->cloexec[(int)a[0]] = req == FIOCLEX;
        return 0;
    case FIOASYNC:
        return fioasync(t, f, a[2]);
    case FIONREAD: {
        int n;
        int64_t r = fionread(t, f, &n);
        if (r != KIND_DECIDES)
            return r < 0 ? r : put_int(t, a[2], n);
        break;
    }
    }
    return kind_ioctl(t, f, req, a[2]);
}
