/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_fs.c - file syscalls: descriptors, reads and writes, open, stat,
 * links, directories. Paths resolve through sysfs-fs/ (confined root plus
 * the virtual /dev, /proc, /sys). */
#include "abi.h"
#include "dirpos.h"
#include "fifo.h"
#include "file.h"
#include "file_access.h"
#include "file_limits.h"
#include "flock.h"
#include "fsnotify.h"
#include "fs_calls.h"
#include "iovec.h"
#include "machine.h"
#include "mm.h"
#include "mqueue.h"
#include "owner.h"
#include "kvm.h"
#include "procmem.h"
#include "pty.h"
#include "recording.h"
#include "reopen.h"
#include "rlimit.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "tracefs.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#define IO_CHUNK (64u * 1024)
#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_EMPTY_PATH 0x1000
#define GUEST_F_NOTIFY 1026
#define GUEST_F_DUPFD_CLOEXEC 1030
#define GUEST_F_SETPIPE_SZ 1031
#define GUEST_F_GETPIPE_SZ 1032

int path_at(struct task *t, int dirfd, const char *path, char *out, size_t len)
{
    if (path[0] == '/' || dirfd == GUEST_AT_FDCWD)
        return vfs_resolve(&t->machine->vfs, t, t->proc->cwd, path, out, len);
    struct file *f = file_get(t, dirfd);
    if (!f)
        return -EBADF;
    if (!f->path)
        return -ENOTDIR;
    return vfs_resolve(&t->machine->vfs, t, f->path, path, out, len);
}

int64_t path_from_guest(struct task *t, int dirfd, uint64_t upath, char *out, size_t len)
{
    char path[VFS_PATH_MAX];
    int64_t n = strncpy_from_guest(task_mm(t), path, upath, sizeof path);
    if (n < 0)
        return n;
    return path_at(t, dirfd, path, out, len);
}

/* ---- reading and writing ---- */

/* /proc/PID/mem at off, or at the file position (which advances). */
static int64_t mem_io(struct task *t, struct file *f, void *buf, size_t len, int64_t off,
                      bool write)
{
    int64_t n = procmem_file_io(t, f, buf, len, off < 0 ? f->pos : (uint64_t)off, write);
    if (n > 0 && off < 0)
        f->pos += (uint64_t)n;
    return n;
}

const char *tracing_rel(const char *path)
{
    const char *rel = strstr(path, "tracing/");
    return rel ? rel + 8 : "";
}

/* trace_pipe and trace_pipe_raw at the end of what they gave: that is
 * gone, and the next records are taken from the buffer now, as
 * tracing_read_pipe() and tracing_buffers_read() take them. 1 when there
 * are some. An empty buffer: EAGAIN with O_NONBLOCK; for trace_pipe, end of
 * file once tracing is off and it gave something (tracing_wait_pipe());
 * else the reader waits (the run loop wakes it, tracefs_wake(): for a
 * record, or for trace_pipe_raw a full page) or a signal, which ends the
 * read with EINTR (ring_buffer_wait(), never restarted). */
static int64_t tracing_pipe_fill(struct task *t, struct file *f)
{
    char *data;
    size_t size;
    bool gave = f->pos > 0;
    int err = vfs_generate(&t->machine->vfs, t, &f->node, &data, &size);
    if (err < 0)
        return err;
    free(f->data);
    f->data = data;
    f->size = size;
    if (size) {
        f->pos = 0;
        return 1;
    }
    /* f->pos stays past the (empty) data: the next read asks again */
    struct tracefs *tf = t->machine->tracefs;
    if (f->flags & O_NONBLOCK)
        return -EAGAIN;
    if (f->node.pipe && gave && tf && !tracefs_on(tf, tracing_rel(f->node.path)))
        return 0;
    if (signal_pending(t))
        return -EINTR;
    t->wait_obj = tf ? tracefs_wait_key(tf, tracing_rel(f->node.path)) : NULL;
    return -EBLOCK;
}

/* trace_poll(): readable when text or a page an earlier read took is
 * left, or what a read waits for is there (tracefs_readable(): a record,
 * or for trace_pipe_raw a full page); never writable. f->poll_key is
 * woken when it comes (tracefs_wake()). */
short tracing_pipe_poll(struct task *t, struct file *f)
{
    struct tracefs *tf = t->machine->tracefs;
    if ((f->flags & O_ACCMODE) == O_WRONLY)
        return 0;
    if (f->pos < f->size || (tf && tracefs_readable(tf, tracing_rel(f->node.path))))
        return POLLIN | POLLRDNORM;
    return 0;
}

/* A /proc/sys number: its text now, from position 0 only (__do_proc_dointvec
 * gives nothing to a read at another), as much as len takes. */
static int64_t sysctl_file_read(struct task *t, struct file *f, void *buf, size_t len, int64_t off)
{
    if ((off < 0 ? f->pos : (uint64_t)off) != 0)
        return 0;
    char *data;
    size_t size;
    int err = vfs_generate(&t->machine->vfs, t, &f->node, &data, &size);
    if (err < 0)
        return err;
    size_t n = size < len ? size : len;
    memcpy(buf, data, n);
    free(data);
    if (off < 0)
        f->pos += n;
    return (int64_t)n;
}

/* Reads up to len bytes of f into host memory at off (or the file position
 * when off < 0). */
int64_t file_read(struct task *t, struct file *f, void *buf, size_t len, int64_t off)
{
    if ((f->flags & O_ACCMODE) == O_WRONLY)
        return -EBADF;
    switch (f->kind) {
    case FILE_CONSOLE: {
        /* The console reads what the emulator's stdin gets. Until it has
         * something, only this task waits: the machine runs on. */
        if (!console_ready(t->machine)) {
            if (f->flags & O_NONBLOCK)
                return -EAGAIN;
            t->wait_obj = &console_waitq;
            return -EBLOCK;
        }
        if (recording_owns_console(t->machine))
            return recording_console_read(t->machine, buf, len);
        ssize_t n = read(STDIN_FILENO, buf, len);
        return n < 0 ? -errno : n;
    }
    case FILE_HOST: {
        if (f->fifo && off < 0)
            return fifo_read(t, f, buf, len);
        ssize_t n = off < 0 ? read(f->host_fd, buf, len) : pread(f->host_fd, buf, len, off);
        return n < 0 ? -errno : n;
    }
    case FILE_PIPE:
        return off >= 0 ? -ESPIPE : pipe_read(t, f, buf, len);
    case FILE_OBJECT: {
        if (off >= 0 && !f->ops->seekable)
            return -ESPIPE;
        if (!f->ops->read)
            return -EINVAL;
        if (off < 0)
            return f->ops->read(t, f, buf, len);
        /* pread: at off, the file's own position left alone */
        uint64_t pos = f->pos;
        f->pos = (uint64_t)off;
        int64_t r = f->ops->read(t, f, buf, len);
        f->pos = pos;
        return r;
    }
    case FILE_VIRTUAL:
        switch (f->node.kind) {
        case VNODE_NULL:
            return 0;
        case VNODE_ZERO:
        case VNODE_FULL:
            memset(buf, 0, len);
            return (int64_t)len;
        case VNODE_RANDOM:
            machine_random_bytes(t->machine, buf, len);
            return (int64_t)len;
        case VNODE_DIR:
            return -EISDIR;
        case VNODE_MEM:
            return mem_io(t, f, buf, len, off, false);
        default: {
            if (f->node.sysctl)
                return sysctl_file_read(t, f, buf, len, off);
            uint64_t pos = off < 0 ? f->pos : (uint64_t)off;
            if (file_is_tracing_pipe(f) && off < 0 && pos >= f->size) {
                int64_t r = tracing_pipe_fill(t, f);
                if (r <= 0)
                    return r;
                pos = 0;
            }
            if (pos >= f->size)
                return f->node.records && (f->flags & O_NONBLOCK) ? -EAGAIN : 0;
            size_t n = f->size - pos < len ? (size_t)(f->size - pos) : len;
            if (f->node.pages && n > 4096 - pos % 4096)
                n = 4096 - pos % 4096; /* trace_pipe_raw: a page per read (tracing_buffers_read) */
            if (f->node.records) {
                /* /dev/kmsg: one record per read, and only whole ones. */
                const char *nl = memchr(f->data + pos, '\n', f->size - pos);
                size_t rec = nl ? (size_t)(nl - (f->data + pos)) + 1 : f->size - pos;
                if (rec > len)
                    return -EINVAL;
                n = rec;
            }
            memcpy(buf, f->data + pos, n);
            if (off < 0)
                f->pos += n;
            return (int64_t)n;
        }
        }
    }
    return -EINVAL;
}

/* A host descriptor (the console, an inherited pipe or socket) whose reader
 * has gone: the host's EPIPE (asymu ignores SIGPIPE itself) comes with the
 * guest's SIGPIPE, as Linux's pipe_write and sk_stream_error send it, so
 * `asymu run -- yes | head -1` ends by SIGPIPE as on Linux (issue 24,
 * item 10). */
static int64_t host_broken_pipe(struct task *t, int64_t n)
{
    if (n == -EPIPE) {
        struct siginfo_lite info = {.code = 0, .pid = t->proc->pid};
        signal_queue_task(t, SIGPIPE, &info);
    }
    return n;
}

int64_t file_write(struct task *t, struct file *f, const void *buf, size_t len, int64_t off)
{
    if ((f->flags & O_ACCMODE) == O_RDONLY)
        return -EBADF;
    switch (f->kind) {
    case FILE_PIPE:
        return off >= 0 ? -ESPIPE : pipe_write(t, f, buf, len);
    case FILE_OBJECT:
        if (off >= 0)
            return -ESPIPE;
        return f->ops->write ? f->ops->write(t, f, buf, len) : -EINVAL;
    case FILE_HOST:
        if (f->fifo && off < 0)
            return fifo_write(t, f, buf, len);
        return host_broken_pipe(t, file_limited_write(t, f, buf, len, off));
    case FILE_CONSOLE: {
        ssize_t n = off < 0 ? write(f->host_fd, buf, len) : pwrite(f->host_fd, buf, len, off);
        return host_broken_pipe(t, n < 0 ? -errno : n);
    }
    case FILE_VIRTUAL:
        if (f->node.kind == VNODE_MEM)
            return mem_io(t, f, (void *)buf, len, off, true);
        if (f->node.kind == VNODE_FULL)
            return -ENOSPC;
        if (f->node.kind == VNODE_NULL || f->node.kind == VNODE_ZERO ||
            f->node.kind == VNODE_RANDOM)
            return (int64_t)len;
        if (f->node.sysctl) {
            /* a writer that lost euid 0 since the open (proc_sys_call_handler) */
            if (sysctl_test_perm(t, f->node.mode, true) < 0)
                return -EPERM;
            int64_t n = vfs_write_virtual(&t->machine->vfs, t, &f->node, buf, len,
                                          off < 0 ? f->pos : (uint64_t)off);
            if (n > 0 && off < 0)
                f->pos += (uint64_t)n;
            return n;
        }
        return vfs_write_virtual(&t->machine->vfs, t, &f->node, buf, len, 0);
    }
    return -EINVAL;
}

/* vfs_read's and vfs_write's checks, in their order, before len bytes
 * move at off (or the file position when off < 0): the descriptor's access
 * mode (EBADF), the buffer inside the user address space (access_ok:
 * EFAULT), an end not past the largest offset (rw_verify_area: EINVAL).
 * Then len is cut to MAX_RW_COUNT. */
static int rw_verify(const struct file *f, bool is_write, uint64_t ubuf, uint64_t *len,
                     int64_t off)
{
    if ((f->flags & O_ACCMODE) == (is_write ? O_RDONLY : O_WRONLY))
        return -EBADF;
    if (!user_range_ok(ubuf, *len))
        return -EFAULT;
    if (off >= 0 && *len > (uint64_t)(INT64_MAX - off))
        return -EINVAL;
    if (*len > MAX_RW_COUNT)
        *len = MAX_RW_COUNT;
    return 0;
}

/* read/pread into guest memory, chunk by chunk; a short read ends it. */
static int64_t read_chunks(struct task *t, struct file *f, uint64_t ubuf, uint64_t len,
                           int64_t off);

/* vfs_read's fsnotify_access and vfs_write's fsnotify_modify: after
 * something moved. */
static int64_t told(struct task *t, struct file *f, int64_t n, uint32_t mask)
{
    if (n > 0 && fsnotify_active(t->machine))
        fsnotify_file(t->machine, f, mask);
    return n;
}

static int64_t do_read(struct task *t, int fd, uint64_t ubuf, uint64_t len, int64_t off)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    return told(t, f, read_chunks(t, f, ubuf, len, off), IN_ACCESS);
}

static int64_t read_chunks(struct task *t, struct file *f, uint64_t ubuf, uint64_t len,
                           int64_t off)
{
    int err = rw_verify(f, false, ubuf, &len, off);
    if (err < 0)
        return err;
    uint8_t chunk[IO_CHUNK];
    uint64_t done = 0;
    while (done < len) {
        size_t want = len - done < IO_CHUNK ? (size_t)(len - done) : IO_CHUNK;
        int64_t n = file_read(t, f, chunk, want, off < 0 ? -1 : off + (int64_t)done);
        if (n < 0)
            return done ? (int64_t)done : n;
        int64_t copied = copy_to_guest_partial(task_mm(t), ubuf + done, chunk, (size_t)n);
        if (copied < n)
            return done + (uint64_t)copied ? (int64_t)(done + (uint64_t)copied) : -EFAULT;
        done += (uint64_t)n;
        /* A pipe gives what it holds, which may be more than a chunk. */
        if ((size_t)n < want || f->kind == FILE_CONSOLE || f->kind == FILE_OBJECT ||
            (f->kind == FILE_PIPE && f->pipe->len == 0))
            break;
    }
    return (int64_t)done;
}

static int64_t write_chunks(struct task *t, struct file *f, uint64_t ubuf, uint64_t len,
                            int64_t off);

static int64_t do_write(struct task *t, int fd, uint64_t ubuf, uint64_t len, int64_t off)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    return told(t, f, write_chunks(t, f, ubuf, len, off), IN_MODIFY);
}

static int64_t write_chunks(struct task *t, struct file *f, uint64_t ubuf, uint64_t len,
                            int64_t off)
{
    int err = rw_verify(f, true, ubuf, &len, off);
    if (err < 0)
        return err;
    /* /dev/null never looks at the buffer. */
    if (f->kind == FILE_VIRTUAL && f->node.kind == VNODE_NULL)
        return (int64_t)len;
    uint8_t chunk[IO_CHUNK];
    /* A blocking pipe write writes everything, waiting for room as often as
     * it must (done carries over the waits), unless a signal comes: then
     * what it wrote, as Linux's pipe_write. */
    bool whole = (f->kind == FILE_PIPE || f->fifo) && !(f->flags & O_NONBLOCK);
    uint64_t done = whole ? t->write_done : 0;
    while (done < len) {
        size_t want = len - done < IO_CHUNK ? (size_t)(len - done) : IO_CHUNK;
        if (copy_from_guest(task_mm(t), chunk, ubuf + done, want) < 0)
            return done ? (int64_t)done : -EFAULT;
        int64_t n = file_write(t, f, chunk, want, off < 0 ? -1 : off + (int64_t)done);
        if (n == -EBLOCK && whole && done) {
            if (signal_pending(t))
                break;
            t->write_done = done;
            return -EBLOCK;
        }
        if (n < 0)
            return done ? (int64_t)done : n;
        done += (uint64_t)n;
        if ((size_t)n < want && !whole)
            break;
    }
    t->write_done = 0;
    return (int64_t)done;
}

SYSCALL_DECL(read)
{
    return do_read(t, (int)a[0], a[1], a[2], -1);
}

SYSCALL_DECL(write)
{
    return do_write(t, (int)a[0], a[1], a[2], -1);
}

SYSCALL_DECL(pread64)
{
    /* AArch32 passes the 64-bit offset in an aligned register pair (r4, r5). */
    int64_t off = task_abi(t)->word == 8 ? (int64_t)a[3] : (int64_t)((a[5] << 32) | a[4]);
    if (off < 0)
        return -EINVAL;
    return do_read(t, (int)a[0], a[1], a[2], off);
}

SYSCALL_DECL(pwrite64)
{
    int64_t off = task_abi(t)->word == 8 ? (int64_t)a[3] : (int64_t)((a[5] << 32) | a[4]);
    if (off < 0)
        return -EINVAL;
    return do_write(t, (int)a[0], a[1], a[2], off);
}

/* sendfile(out, in, offset, count): in's bytes to out through the kernel,
 * from *offset (which advances, in's position does not) or from in's
 * position. offset_word is the size of *offset: 8, or 4 for arm's sendfile. */
/* Copies up to count bytes from in to out, each at *off (advanced) or at
 * its file position when off is NULL: the bytes copied, or the error when
 * none was. */
static int64_t copy_between(struct task *t, struct file *in, int64_t *in_off, struct file *out,
                            int64_t *out_off, uint64_t count)
{
    uint8_t chunk[IO_CHUNK];
    uint64_t done = 0;
    while (done < count) {
        size_t want = count - done < IO_CHUNK ? (size_t)(count - done) : IO_CHUNK;
        int64_t n = file_read(t, in, chunk, want, in_off ? *in_off : -1);
        if (n <= 0) {
            if (n < 0 && done == 0)
                return n;
            break;
        }
        int64_t w = file_write(t, out, chunk, (size_t)n, out_off ? *out_off : -1);
        if (w < 0)
            return done ? (int64_t)done : w;
        done += (uint64_t)w;
        if (in_off)
            *in_off += w;
        if (out_off)
            *out_off += w;
        if (w < n || (size_t)n < want)
            break;
    }
    return (int64_t)done;
}

int64_t do_sendfile(struct task *t, const uint64_t a[6], unsigned offset_word)
{
    struct file *out = file_get_io(t, (int)a[0]), *in = file_get_io(t, (int)a[1]);
    if (!out || !in)
        return -EBADF;
    if (in->kind == FILE_PIPE)
        return -EINVAL; /* Linux splices from files and sockets, not pipes */
    int64_t off = 0;
    if (a[2]) {
        if (copy_from_guest(task_mm(t), &off, a[2], offset_word) < 0)
            return -EFAULT;
        if (offset_word == 4)
            off = (int32_t)off;
        if (off < 0)
            return -EINVAL;
    }
    /* rw_verify_area on in's range, then the cut to MAX_RW_COUNT. */
    uint64_t count = a[3];
    if (count > (uint64_t)(INT64_MAX - off))
        return -EINVAL;
    if (count > MAX_RW_COUNT)
        count = MAX_RW_COUNT;
    int64_t done = copy_between(t, in, a[2] ? &off : NULL, out, NULL, count);
    told(t, out, told(t, in, done, IN_ACCESS), IN_MODIFY); /* do_sendfile's */
    if (a[2] && done >= 0 && copy_to_guest(task_mm(t), a[2], &off, offset_word) < 0)
        return -EFAULT;
    return done;
}

/* A regular file's descriptor for copy_file_range: EBADF without the
 * access, EISDIR for a directory, EINVAL for anything else. */
static int copy_range_file(struct task *t, int fd, int mode, struct file **out, struct stat *st)
{
    struct file *f = *out = file_get_io(t, fd);
    if (!f || (f->flags & O_ACCMODE) == mode || (mode == O_RDONLY && (f->flags & O_APPEND)))
        return -EBADF;
    if (f->kind != FILE_HOST || fstat(f->host_fd, st) != 0)
        return -EINVAL;
    return S_ISDIR(st->st_mode) ? -EISDIR : S_ISREG(st->st_mode) ? 0 : -EINVAL;
}

/* The offset a copy_file_range pointer names (NULL: the file position). */
static int range_offset(struct task *t, uint64_t p, int64_t *off)
{
    if (!p)
        return 0;
    if (copy_from_guest(task_mm(t), off, p, sizeof *off) < 0)
        return -EFAULT;
    return *off < 0 ? -EINVAL : 0;
}

/* copy_file_range(fd_in, off_in, fd_out, off_out, len, flags): a copy
 * through asymu (the write rule, --tmp-size and RLIMIT_FSIZE apply as to
 * write); overlapping ranges of one file are EINVAL. */
SYSCALL_DECL(copy_file_range)
{
    struct file *in, *out;
    struct stat sin, sout;
    int64_t in_off = 0, out_off = 0;
    int err;
    if ((unsigned)a[5] != 0)
        return -EINVAL;
    if ((err = copy_range_file(t, (int)a[0], O_WRONLY, &in, &sin)) < 0 ||
        (err = copy_range_file(t, (int)a[2], O_RDONLY, &out, &sout)) < 0 ||
        (err = range_offset(t, a[1], &in_off)) < 0 || (err = range_offset(t, a[3], &out_off)) < 0)
        return err;
    uint64_t len = a[4];
    if (len == 0)
        return 0;
    int64_t from = a[1] ? in_off : (int64_t)lseek(in->host_fd, 0, SEEK_CUR);
    int64_t to = a[3] ? out_off : (int64_t)lseek(out->host_fd, 0, SEEK_CUR);
    if (sin.st_dev == sout.st_dev && sin.st_ino == sout.st_ino && (uint64_t)llabs(from - to) < len)
        return -EINVAL;
    int64_t done = copy_between(t, in, a[1] ? &in_off : NULL, out, a[3] ? &out_off : NULL, len);
    told(t, out, told(t, in, done, IN_ACCESS), IN_MODIFY); /* vfs_copy_file_range's */
    if (done > 0 && ((a[1] && copy_to_guest(task_mm(t), a[1], &in_off, sizeof in_off) < 0) ||
                     (a[3] && copy_to_guest(task_mm(t), a[3], &out_off, sizeof out_off) < 0)))
        return -EFAULT;
    return done;
}

/* The host file system keeps what asymu wrote (the host flushes it). */
SYSCALL_DECL(sync)
{
    (void)t, (void)a;
    return 0;
}

SYSCALL_DECL(syncfs)
{
    return file_get(t, (int)a[0]) ? 0 : -EBADF;
}

SYSCALL_DECL(sendfile)
{
    return do_sendfile(t, a, task_abi(t)->word);
}

/* readv and writev, at the file position (off < 0) or at off: the
 * vector checked whole first, as do_readv and vfs_readv check it. */
static int64_t do_iov(struct task *t, int fd, uint64_t uiov, uint64_t cnt, bool is_write,
                      int64_t off)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    if (cnt > UIO_MAXIOV)
        return -EINVAL;
    struct iov_list l;
    int err = iov_import(t, uiov, cnt, &l);
    uint64_t want = l.total;
    if (err == 0)
        err = rw_verify(f, is_write, 0, &want, off);
    if (err < 0)
        return err;
    int64_t total = 0;
    for (unsigned i = 0; want && i < l.n; i++) {
        if (l.v[i].len == 0)
            continue;
        int64_t at = off < 0 ? -1 : off + total;
        int64_t n = is_write ? do_write(t, fd, l.v[i].base, l.v[i].len, at)
                             : do_read(t, fd, l.v[i].base, l.v[i].len, at);
        if (n < 0)
            return total ? total : n;
        total += n;
        if ((uint64_t)n < l.v[i].len)
            break;
    }
    return total;
}

SYSCALL_DECL(readv)
{
    return do_iov(t, (int)a[0], a[1], a[2], false, -1);
}

SYSCALL_DECL(writev)
{
    return do_iov(t, (int)a[0], a[1], a[2], true, -1);
}

/* The offset of preadv(fd, iov, cnt, pos_l, pos_h): whole in pos_l on
 * arm64, in two 32-bit halves on arm. */
static int64_t iov_offset(struct task *t, const uint64_t a[6])
{
    return task_abi(t)->word == 8 ? (int64_t)a[3]
                                  : (int64_t)((a[4] << 32) | (a[3] & 0xffffffffu));
}

SYSCALL_DECL(preadv)
{
    int64_t off = iov_offset(t, a);
    return off < 0 ? -EINVAL : do_iov(t, (int)a[0], a[1], a[2], false, off);
}

SYSCALL_DECL(pwritev)
{
    int64_t off = iov_offset(t, a);
    return off < 0 ? -EINVAL : do_iov(t, (int)a[0], a[1], a[2], true, off);
}

/* RWF_HIPRI, RWF_DSYNC, RWF_SYNC, RWF_NOWAIT: hints the emulated kernel
 * has no use for (its writes are synchronous, it never waits on a file);
 * others (RWF_APPEND too) are EOPNOTSUPP. An offset of -1 is the file
 * position. */
#define GUEST_RWF_SUPPORTED 0xf

static int64_t do_iov2(struct task *t, const uint64_t a[6], bool is_write)
{
    int64_t off = iov_offset(t, a);
    if (a[5] & ~(uint64_t)GUEST_RWF_SUPPORTED)
        return -EOPNOTSUPP;
    if (off < -1)
        return -EINVAL;
    return do_iov(t, (int)a[0], a[1], a[2], is_write, off);
}

SYSCALL_DECL(preadv2)
{
    return do_iov2(t, a, false);
}

SYSCALL_DECL(pwritev2)
{
    return do_iov2(t, a, true);
}

/* default_llseek (generic_file_llseek's rules without a page cache):
 * SEEK_END, SEEK_DATA and SEEK_HOLE against the stat size. */
static int64_t object_seek(struct task *t, struct file *f, int64_t off, int whence)
{
    struct stat st;
    int64_t size = file_stat(t, f, &st) == 0 ? (int64_t)st.st_size : 0, to;
    switch (whence) {
    case SEEK_SET:
        to = off;
        break;
    case SEEK_CUR:
        to = (int64_t)f->pos + off;
        break;
    case SEEK_END:
        to = size + off;
        break;
    case SEEK_DATA:
        if (off >= size)
            return -ENXIO;
        to = off;
        break;
    case SEEK_HOLE:
        if (off >= size)
            return -ENXIO;
        to = size;
        break;
    default:
        return -EINVAL;
    }
    if (to < 0)
        return -EINVAL;
    f->pos = (uint64_t)to;
    return to;
}

int64_t do_lseek(struct task *t, int fd, int64_t off, int whence)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    if (f->kind == FILE_OBJECT && f->ops->seekable)
        return object_seek(t, f, off, whence);
    if (f->kind == FILE_OBJECT && f->ops->noop_llseek)
        return (int64_t)f->pos;
    if (f->kind == FILE_PIPE || f->kind == FILE_OBJECT)
        return -ESPIPE;
    if (dirpos_applies(t, f))
        return dirpos_seek(f, off, whence);
    if (f->kind != FILE_VIRTUAL) {
        off_t r = lseek(f->host_fd, off, whence);
        return r < 0 ? -errno : r;
    }
    if (f->node.kind == VNODE_DIR) {
        /* Positions are entry numbers (getdents64's d_off). */
        if (whence != SEEK_SET && whence != SEEK_CUR)
            return -EINVAL;
        int64_t to = (whence == SEEK_CUR ? (int64_t)f->pos : 0) + off;
        if (to < 0)
            return -EINVAL;
        f->pos = (uint64_t)to;
        f->dir_last_valid = false;
        return to;
    }
    if (f->node.kind == VNODE_MEM) {
        /* Offsets are addresses: any value, SEEK_END has no meaning. */
        if (whence != SEEK_SET && whence != SEEK_CUR)
            return -EINVAL;
        f->pos = (whence == SEEK_CUR ? f->pos : 0) + (uint64_t)off;
        return (int64_t)f->pos;
    }
    if (f->node.kind != VNODE_GENERATED)
        return 0;
    int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)f->pos
                   : whence == SEEK_END                        ? (int64_t)f->size
                                                               : -1;
    if (base < 0 || base + off < 0)
        return -EINVAL;
    f->pos = (uint64_t)(base + off);
    return (int64_t)f->pos;
}

SYSCALL_DECL(lseek)
{
    return do_lseek(t, (int)a[0], (int64_t)a[1], (int)a[2]);
}

/* ---- open and close ---- */

static int open_virtual(struct task *t, const struct vfs_node *node, const char *abspath,
                        int flags, struct file **out)
{
    if (node->kind == VNODE_DIR && (flags & O_ACCMODE) != O_RDONLY)
        return -EISDIR;
    if (node->kind != VNODE_DIR && (flags & O_DIRECTORY))
        return -ENOTDIR;
    if ((flags & O_ACCMODE) != O_RDONLY && !(node->mode & 0222))
        return -EACCES;
    /* proc_sys_permission(): euid 0 or not, whatever the capabilities */
    int perm = node->sysctl ? sysctl_test_perm(t, node->mode, (flags & O_ACCMODE) != O_RDONLY) : 0;
    if (perm < 0)
        return perm;
    bool opens = !(flags & O_PATH); /* O_PATH only names the node */
    if (opens && (node->kind == VNODE_PTMX || node->kind == VNODE_PTS))
        return pty_open_node(t, node, flags, out);
    if (opens && node->kind == VNODE_KVM)
        return kvm_open(t, flags, out);
    int err = 0;
    if (opens && node->kind == VNODE_CONSOLE && strcmp(abspath, "/dev/tty") == 0 &&
        pty_open_ctty(t, flags, out, &err))
        return err; /* a process on a pty: /dev/tty is its slave */
    struct file *f = file_new(FILE_VIRTUAL);
    if (!f)
        return -ENOMEM;
    f->node = *node;
    f->flags = flags & (O_ACCMODE | O_NONBLOCK | O_APPEND | O_PATH);
    f->path = strdup(abspath);
    if (node->kind == VNODE_CONSOLE) {
        /* /dev/tty and /dev/console are otherwise the emulator's own terminal. */
        f->kind = FILE_CONSOLE;
        f->host_fd = (flags & O_ACCMODE) == O_RDONLY ? STDIN_FILENO : STDOUT_FILENO;
    }
    if (node->kind == VNODE_GENERATED) {
        if (opens && (flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
            vfs_truncate_virtual(&t->machine->vfs, t, node);
        /* trace_pipe and trace_pipe_raw: the first read takes the first
         * records, not the open (tracing_open_pipe()) */
        err = node->pages || node->pipe ? 0
                                         : vfs_generate(&t->machine->vfs, t, node, &f->data, &f->size);
        /* the lookup made the machine's tracefs */
        if ((node->pages || node->pipe) && t->machine->tracefs)
            f->poll_key = tracefs_wait_key(t->machine->tracefs, tracing_rel(abspath));
        const char *trel = vfs_tracefs_rel(abspath);
        if (opens && err == 0 && trel && t->machine->tracefs)
            f->tracefs_pin = tracefs_pin(t->machine->tracefs, trel);
        if (err < 0) {
            file_put(f);
            return err;
        }
    }
    *out = f;
    return 0;
}

/* Follows the virtual symlinks at the end of path (whose targets are guest
 * paths) a bounded number of times, rewriting path: 0 when it ends on the
 * host, 1 with *node when it ends on a virtual node, which is a symlink
 * only when it is a /proc/PID/fd/N link or follow is false. */
static int follow_virtual(struct task *t, char path[VFS_PATH_MAX], bool follow,
                          struct vfs_node *node)
{
    char target[VFS_PATH_MAX];
    for (int hops = 0; hops < 40; hops++) {
        int err = vfs_lookup_virtual(&t->machine->vfs, t, path, node);
        if (err == 0 && follow) {
            /* On the host: its symlinks are guest paths too, which may
             * lead into the virtual trees. */
            char followed[VFS_PATH_MAX];
            if ((err = vfs_follow(&t->machine->vfs, t, path, followed, sizeof followed)) < 0)
                return err;
            if (strcmp(followed, path) == 0)
                return 0;
            snprintf(path, VFS_PATH_MAX, "%s", followed);
            continue;
        }
        if (err <= 0 || node->kind != VNODE_SYMLINK || !follow || vfs_is_fd_link(node))
            return err;
        int n = vfs_readlink_virtual(&t->machine->vfs, t, node, target, sizeof target - 1);
        if (n < 0)
            return n;
        target[n] = '\0';
        char dir[VFS_PATH_MAX + 4];
        snprintf(dir, sizeof dir, "%s/..", path);
        if ((err = vfs_join(dir, target, path, VFS_PATH_MAX)) < 0)
            return err;
    }
    return -ELOOP;
}

/* Whether the guest's path at upath ends with "/" (after a name): it must
 * then name a directory, which the resolved path no longer says. */
static bool names_a_directory(struct task *t, uint64_t upath)
{
    char raw[VFS_PATH_MAX];
    int64_t n = strncpy_from_guest(task_mm(t), raw, upath, sizeof raw);
    return n > 1 && raw[n - 1] == '/';
}

/* A path ending with "/" names a directory: ENOTDIR for another file, and
 * EISDIR for an O_CREAT of a missing one (it cannot make a directory). */
static int check_trailing_slash(struct task *t, uint64_t upath, const char *path, int flags)
{
    if (!names_a_directory(t, upath))
        return 0;
    struct stat st;
    int err = vfs_stat(&t->machine->vfs, t, path, true, &st);
    if (err == -ENOENT && (flags & O_CREAT))
        return -EISDIR;
    if (err < 0)
        return err;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* Whether an O_CREAT open of path finds a file there: it creates one,
 * which the guest then owns (owner.h), only when not. */
static bool host_file_exists(struct task *t, const char *path, bool follow)
{
    struct stat st;
    return vfs_stat(&t->machine->vfs, t, path, follow, &st) != -ENOENT;
}

/* The file an open just created on host fd fd, at guest path, belongs to
 * the guest process (the group of its directory when that is set-group-ID). */
static void owner_created_fd(struct task *t, int fd, const char *path)
{
    char dotdot[VFS_PATH_MAX + 4], dir[VFS_PATH_MAX];
    struct stat st, dst;
    snprintf(dotdot, sizeof dotdot, "%s/..", path);
    bool have_dir = vfs_join("/", dotdot, dir, sizeof dir) == 0 &&
                    vfs_stat(&t->machine->vfs, t, dir, true, &dst) == 0;
    if (fstat(fd, &st) == 0)
        owner_created(t, &st, have_dir ? &dst : NULL);
}

/* lookup_open's fsnotify_create for a file open(O_CREAT) made, or
 * handle_truncate's IN_MODIFY for an O_TRUNC of a regular file there
 * (before IN_OPEN, as 5.15's do_sys_openat2 tells it after do_filp_open). */
static void open_told(struct task *t, const char *path, int fd, bool created, int flags)
{
    struct stat st;
    if (created)
        fsnotify_created_path(t->machine, path, false);
    else if ((flags & O_TRUNC) && !(flags & O_PATH) && fstat(fd, &st) == 0 &&
             S_ISREG(st.st_mode)) /* O_RDONLY | O_TRUNC truncates too (do_open) */
        fsnotify_path_fd(t->machine, path, fd, IN_MODIFY);
}

/* Opens an absolute guest path with host O_* flags, following virtual
 * symlinks; /proc/PID/fd/N opens that descriptor's file again. */
int file_open_path(struct task *t, const char *abspath, int flags, int mode, struct file **out)
{
    char path[VFS_PATH_MAX];
    snprintf(path, sizeof path, "%s", abspath);
    /* O_PATH names a file without opening it: Linux ignores the other flags. */
    if (flags & O_PATH)
        flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    /* O_CREAT | O_EXCL never follows a symlink at the end: EEXIST. */
    bool follow = !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
    struct vfs_node node;
    int err = follow_virtual(t, path, follow, &node);
    /* A queue of an mqueue mount opens as an mq descriptor
     * (mqueue_file_operations); O_CREAT makes a missing one (mqueue_create). */
    const char *mq = vfs_mqueue_rel(&t->machine->vfs, path);
    if (mq && *mq && !(flags & O_PATH) &&
        ((err == -ENOENT && (flags & O_CREAT)) || (err > 0 && node.kind == VNODE_MQUEUE))) {
        /* a read-only mount: mnt_want_write's EROFS for a creation or a write */
        if (vfs_mqueue_readonly(&t->machine->vfs, path) &&
            (err < 0 || (flags & O_ACCMODE) != O_RDONLY))
            return -EROFS;
        return flags & O_DIRECTORY ? -ENOTDIR : mq_fs_open(t, mq, path, flags, (unsigned)mode, out);
    }
    if (err < 0)
        return err;
    if (err == 0) {
        bool writable, created = (flags & O_CREAT) && !host_file_exists(t, path, follow);
        /* A new file is an entry of a size-limited mount (budget.h). */
        struct vfs_budget *entries = created ? vfs_budget_of(&t->machine->vfs, path) : NULL;
        if (entries && (err = budget_create(entries)) < 0)
            return err;
        int fd = vfs_open_host_writable(&t->machine->vfs, path, flags, mode, &writable);
        if (fd < 0 && entries)
            budget_uncreate(entries);
        if (fd < 0)
            return fd;
        if (created && writable)
            owner_created_fd(t, fd, path);
        if (fsnotify_active(t->machine))
            open_told(t, path, fd, created, flags);
        struct file *f = file_new(FILE_HOST);
        if (!f) {
            close(fd);
            return -ENOMEM;
        }
        f->host_fd = fd;
        f->writable_mount = writable;
        if (writable && (f->budget = vfs_budget_of(&t->machine->vfs, path)) && (flags & O_TRUNC))
            budget_mark_stale(f->budget);
        f->flags = flags & ~(O_CLOEXEC | O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY);
        f->path = strdup(path);
        *out = f;
        return 0;
    }
    /* O_PATH | O_NOFOLLOW names a symlink itself (do_open() refuses a link
     * only when it opens one) */
    if (node.kind != VNODE_SYMLINK || (flags & (O_PATH | O_NOFOLLOW)) == (O_PATH | O_NOFOLLOW))
        return open_virtual(t, &node, path, flags, out);
    if (flags & O_NOFOLLOW)
        return -ELOOP;
    if (!vfs_is_fd_link(&node))
        return -EEXIST; /* O_CREAT | O_EXCL of an existing link */
    return file_reopen(t, node.arg, node.arg2, flags, mode, out);
}

int64_t open_resolved(struct task *t, uint64_t upath, const char *path, int flags, int mode)
{
    int64_t err = check_trailing_slash(t, upath, path, flags);
    if (err < 0)
        return err;
    struct file *f;
    err = fifo_open(t, path, flags, mode, &f, file_open_path(t, path, flags, mode, &f));
    if (err < 0)
        return err;
    /* do_sys_openat2's fsnotify_open; __fput tells the close. */
    if (f->kind == FILE_HOST) {
        f->notify_machine = t->machine;
        if (fsnotify_active(t->machine))
            fsnotify_file(t->machine, f, IN_OPEN);
    }
    return fd_install_new(t, f, flags & O_CLOEXEC);
}

SYSCALL_DECL(openat)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, (int)a[0], a[1], path, sizeof path);
    if (err < 0)
        return err;
    int flags = open_flags_to_host((uint32_t)a[2]);
    return open_resolved(t, a[1], path, flags, (int)creation_mode(t, a[3]));
}

SYSCALL_DECL(close)
{
    return fd_close(t, (int)a[0]);
}

SYSCALL_DECL(dup)
{
    struct file *f = file_get(t, (int)a[0]);
    if (!f)
        return -EBADF;
    file_ref(f);
    return fd_install_new(t, f, false);
}

SYSCALL_DECL(dup3)
{
    int oldfd = (int)a[0], newfd = (int)a[1];
    struct file *f = file_get(t, oldfd);
    if (!f)
        return -EBADF;
    if (newfd < 0 || newfd >= rlimit_nofile(t))
        return -EBADF;
    if (oldfd == newfd || (a[2] & ~(uint64_t)O_CLOEXEC))
        return -EINVAL;
    file_ref(f);
    fd_close(t, newfd);
    t->proc->files->fd[newfd] = f;
    t->proc->files->cloexec[newfd] = a[2] & O_CLOEXEC;
    return newfd;
}

SYSCALL_DECL(fcntl)
{
    int fd = (int)a[0], cmd = (int)a[1];
    struct file *f = file_get(t, fd);
    if (!f)
        return -EBADF;
    switch (cmd) {
    case F_DUPFD:
    case GUEST_F_DUPFD_CLOEXEC: {
        if (a[2] >= (uint64_t)rlimit_nofile(t))
            return -EINVAL;
        file_ref(f);
        int nfd = fd_install(t, f, (int)a[2], cmd == GUEST_F_DUPFD_CLOEXEC);
        if (nfd < 0)
            file_put(f);
        return nfd;
    }
    case F_GETFD:
        return t->proc->files->cloexec[fd] ? FD_CLOEXEC : 0;
    case F_SETFD:
        t->proc->files->cloexec[fd] = a[2] & FD_CLOEXEC;
        return 0;
    case GUEST_F_GETPIPE_SZ:
        return f->kind == FILE_PIPE ? (int64_t)f->pipe->capacity : -EBADF;
    case GUEST_F_SETPIPE_SZ: {
        uint64_t want = task_abi(t)->word == 8 ? a[2] : (uint32_t)a[2];
        return f->kind == FILE_PIPE ? pipe_set_capacity(t->machine, f->pipe, want,
                                                                capable(t, CAP_SYS_RESOURCE))
                                            : -EBADF;
    }
    case GUEST_F_NOTIFY: {
        /* dnotify: accepted on a directory, as Linux does; no change is
         * ever signalled (the files are the host's). */
        struct stat st;
        bool dir = f->kind == FILE_VIRTUAL ? f->node.kind == VNODE_DIR
                                           : f->kind == FILE_HOST && fstat(f->host_fd, &st) == 0 &&
                                                 S_ISDIR(st.st_mode);
        return dir ? 0 : -ENOTDIR;
    }
    case F_GETFL:
        return open_flags_to_guest(f->flags);
    case F_SETFL: {
        int settable = O_APPEND | O_NONBLOCK;
        f->flags = (f->flags & ~settable) | (open_flags_to_host((uint32_t)a[2]) & settable);
        return 0;
    }
    default:
        return fcntl_is_lock_cmd(t, cmd) ? fcntl_lock(t, fd, cmd, a[2]) : -EINVAL;
    }
}

/* ---- stat ---- */

int file_stat(struct task *t, struct file *f, struct stat *st)
{
    if (f->kind == FILE_CONSOLE && f->node.kind == VNODE_CONSOLE) {
        vfs_stat_virtual(&f->node, st);
        return 0;
    }
    if (f->kind == FILE_PIPE) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFIFO | 0600;
        st->st_nlink = 1;
        st->st_blksize = 4096;
        st->st_dev = 0xc;
        st->st_ino = (ino_t)((uintptr_t)f->pipe >> 4 & 0xffffff);
        return 0;
    }
    if (f->kind == FILE_OBJECT && f->ops->stat)
        return f->ops->stat(f, st);
    if (f->kind == FILE_OBJECT) {
        memset(st, 0, sizeof *st);
        st->st_mode = f->ops->mode;
        st->st_nlink = 1;
        st->st_blksize = 4096;
        st->st_dev = S_ISSOCK(f->ops->mode) ? 0x8 : 0xe;
        st->st_ino = (ino_t)f->ino;
        return 0;
    }
    if (f->kind == FILE_VIRTUAL) {
        vfs_stat_virtual(&f->node, st);
        if (f->node.kind != VNODE_DIR) /* an mqueue root has a size */
            st->st_size = (off_t)f->size;
        return 0;
    }
    if (fstat(f->host_fd, st) < 0)
        return -errno;
    if (f->kind == FILE_HOST)
        owner_apply(t->machine, st);
    return 0;
}

int stat_at(struct task *t, int dirfd, uint64_t upath, int flags, struct stat *st)
{
    char path[VFS_PATH_MAX];
    char rel[2] = "";
    if (upath && strncpy_from_guest(task_mm(t), rel, upath, sizeof rel) == -EFAULT)
        return -EFAULT;
    if ((!upath || rel[0] == '\0') && (flags & GUEST_AT_EMPTY_PATH)) {
        if (dirfd == GUEST_AT_FDCWD) {
            int err = vfs_stat(&t->machine->vfs, t, t->proc->cwd, true, st);
            if (err == 0)
                owner_apply(t->machine, st);
            return err;
        }
        struct file *f = file_get(t, dirfd);
        return f ? file_stat(t, f, st) : -EBADF;
    }
    int64_t err = path_from_guest(t, dirfd, upath, path, sizeof path);
    if (err < 0)
        return (int)err;
    bool follow = !(flags & GUEST_AT_SYMLINK_NOFOLLOW);
    struct vfs_node node;
    err = follow_virtual(t, path, follow, &node);
    if (err < 0)
        return (int)err;
    /* /proc/PID/fd/N: the file the descriptor has open. */
    if (err == 1 && follow && vfs_is_fd_link(&node)) {
        struct file *f = file_of_process(t, node.arg, node.arg2);
        return f ? file_stat(t, f, st) : -ENOENT;
    }
    err = vfs_stat(&t->machine->vfs, t, path, follow, st);
    if (err < 0)
        return (int)err;
    owner_apply(t->machine, st);
    return !S_ISDIR(st->st_mode) && names_a_directory(t, upath) ? -ENOTDIR : 0;
}

int64_t do_fstatat(struct task *t, int dirfd, uint64_t upath, uint64_t statbuf, int flags)
{
    struct stat st;
    int err = stat_at(t, dirfd, upath, flags, &st);
    if (err < 0)
        return err;
    return task_abi(t)->put_stat(t, statbuf, &st);
}

SYSCALL_DECL(fstat)
{
    return do_fstatat(t, (int)a[0], 0, a[1], GUEST_AT_EMPTY_PATH);
}

SYSCALL_DECL(newfstatat)
{
    return do_fstatat(t, (int)a[0], a[1], a[2], (int)a[3]);
}

SYSCALL_DECL(statx)
{
    struct stat st;
    int err = stat_at(t, (int)a[0], a[1], (int)a[2], &st);
    if (err < 0)
        return err;
    struct statx sx;
    memset(&sx, 0, sizeof sx);
    sx.stx_mask = STATX_BASIC_STATS;
    sx.stx_blksize = (uint32_t)st.st_blksize;
    sx.stx_nlink = (uint32_t)st.st_nlink;
    sx.stx_uid = st.st_uid;
    sx.stx_gid = st.st_gid;
    sx.stx_mode = (uint16_t)st.st_mode;
    sx.stx_ino = st.st_ino;
    sx.stx_size = (uint64_t)st.st_size;
    sx.stx_blocks = (uint64_t)st.st_blocks;
    sx.stx_atime.tv_sec = st.st_atim.tv_sec, sx.stx_atime.tv_nsec = (uint32_t)st.st_atim.tv_nsec;
    sx.stx_mtime.tv_sec = st.st_mtim.tv_sec, sx.stx_mtime.tv_nsec = (uint32_t)st.st_mtim.tv_nsec;
    sx.stx_ctime.tv_sec = st.st_ctim.tv_sec, sx.stx_ctime.tv_nsec = (uint32_t)st.st_ctim.tv_nsec;
    sx.stx_rdev_major = major(st.st_rdev), sx.stx_rdev_minor = minor(st.st_rdev);
    sx.stx_dev_major = major(st.st_dev), sx.stx_dev_minor = minor(st.st_dev);
    return copy_to_guest(task_mm(t), a[4], &sx, sizeof sx);
}

SYSCALL_DECL(readlinkat)
{
    char path[VFS_PATH_MAX], target[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, (int)a[0], a[1], path, sizeof path);
    if (err < 0)
        return err;
    if ((int64_t)a[3] <= 0 || (task_abi(t)->word == 4 && (int32_t)a[3] <= 0))
        return -EINVAL;
    int n = vfs_readlink(&t->machine->vfs, t, path, target, sizeof target);
    if (n < 0)
        return n;
    size_t len = (size_t)n < a[3] ? (size_t)n : (size_t)a[3];
    err = copy_to_guest(task_mm(t), a[2], target, len);
    return err < 0 ? err : (int64_t)len;
}

SYSCALL_DECL(faccessat)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, (int)a[0], a[1], path, sizeof path);
    if (err < 0)
        return err;
    int mode = (int)a[2];
    if (mode & ~(R_OK | W_OK | X_OK))
        return -EINVAL;
    if ((err = vfs_follow(&t->machine->vfs, t, path, path, sizeof path)) < 0)
        return err;
    struct stat st;
    err = vfs_stat(&t->machine->vfs, t, path, true, &st);
    if (err < 0)
        return err;
    struct vfs_node node;
    bool virtual = vfs_lookup_virtual(&t->machine->vfs, t, path, &node) > 0;
    /* proc_sys_permission(): by the euid, which access(2) keeps */
    if (virtual && node.sysctl && (((mode & W_OK) && sysctl_test_perm(t, node.mode, true) < 0) ||
                                   ((mode & R_OK) && sysctl_test_perm(t, node.mode, false) < 0)))
        return -EACCES;
    if ((mode & W_OK) && !virtual && !S_ISCHR(st.st_mode)) {
        /* The guest is root: only a read-only place refuses it. */
        bool writable;
        int fd = vfs_open_host_writable(&t->machine->vfs, path, O_PATH, 0, &writable);
        if (fd >= 0)
            close(fd);
        if (!writable)
            return -EROFS;
    }
    if ((mode & X_OK) && !(st.st_mode & 0111))
        return -EACCES;
    return 0;
}

/* ---- directories ---- */

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
        if (task_abi(t)->word == 4)
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
