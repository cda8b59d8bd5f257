/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_rw.c - reading and writing files: read, write and their positioned
 * and vectored forms, sendfile, copy_file_range, sync, lseek; what a read
 * or write does for each kind of file (file_read, file_write). */
#include "abi_user.h"
#include "dirpos.h"
#include "fifo.h"
#include "file.h"
#include "file_access.h"
#include "file_limits.h"
#include "fs_calls.h"
#include "fsnotify.h"
#include "iovec.h"
#include "machine.h"
#include "mm.h"
#include "procmem.h"
#include "recording.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "tracefs.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define IO_CHUNK (64u * 1024)

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

/* pread64(fd, buf, count, pos); arm's joins pos from a register pair
 * (arch/arm/sys32.c). */
SYSCALL_DECL(pread64)
{
    int64_t off = (int64_t)a[3];
    if (off < 0)
        return -EINVAL;
    return do_read(t, (int)a[0], a[1], a[2], off);
}

SYSCALL_DECL(pwrite64)
{
    int64_t off = (int64_t)a[3];
    if (off < 0)
        return -EINVAL;
    return do_write(t, (int)a[0], a[1], a[2], off);
}

/* sendfile(out, in, offset, count): in's bytes to out through the kernel,
 * from *offset (which advances, in's position does not) or from in's
 * position. *offset is a loff_t for arm's sendfile64 (loff), else an
 * off_t, the ABI's long. */
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

static int get_offset(struct task *t, uint64_t addr, bool loff, int64_t *off)
{
    if (loff)
        return copy_from_guest(task_mm(t), off, addr, sizeof *off) < 0 ? -EFAULT : 0;
    return get_user_longs(t, addr, off, 1);
}

static int put_offset(struct task *t, uint64_t addr, bool loff, int64_t off)
{
    if (loff)
        return copy_to_guest(task_mm(t), addr, &off, sizeof off) < 0 ? -EFAULT : 0;
    return put_user_longs(t, addr, &off, 1);
}

int64_t do_sendfile(struct task *t, const uint64_t a[6], bool loff)
{
    struct file *out = file_get_io(t, (int)a[0]), *in = file_get_io(t, (int)a[1]);
    if (!out || !in)
        return -EBADF;
    if (in->kind == FILE_PIPE)
        return -EINVAL; /* Linux splices from files and sockets, not pipes */
    int64_t off = 0;
    if (a[2]) {
        if (get_offset(t, a[2], loff, &off) < 0)
            return -EFAULT;
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
    if (a[2] && done >= 0 && put_offset(t, a[2], loff, off) < 0)
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
    return do_sendfile(t, a, false);
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

/* The offset of preadv(fd, iov, cnt, pos_l, pos_h): whole in pos_l, as
 * arm64 passes it (arm's halves are joined in arch/arm/sys32.c). */
static int64_t iov_offset(const uint64_t a[6])
{
    return (int64_t)a[3];
}

SYSCALL_DECL(preadv)
{
    int64_t off = iov_offset(a);
    return off < 0 ? -EINVAL : do_iov(t, (int)a[0], a[1], a[2], false, off);
}

SYSCALL_DECL(pwritev)
{
    int64_t off = iov_offset(a);
    return off < 0 ? -EINVAL : do_iov(t, (int)a[0], a[1], a[2], true, off);
}

/* RWF_HIPRI, RWF_DSYNC, RWF_SYNC, RWF_NOWAIT: hints the emulated kernel
 * has no use for (its writes are synchronous, it never waits on a file);
 * others (RWF_APPEND too) are EOPNOTSUPP. An offset of -1 is the file
 * position. */
#define GUEST_RWF_SUPPORTED 0xf

static int64_t do_iov2(struct task *t, const uint64_t a[6], bool is_write)
{
    int64_t off = iov_offset(a);
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
