/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splice.c - splice(2) and tee(2) as Linux 5.15's fs/splice.c: bytes moved
 * through the kernel between a pipe and a file, or from pipe to pipe (tee
 * copies without taking them). asymu's pipes are byte rings, so what moves
 * is copied; the rules (which side may have an offset, what blocks, the
 * errnos) are the kernel's. trace_pipe_raw gives whole ring-buffer pages,
 * as tracing_buffers_splice_read() does, which trace-cmd record uses
 * without --nosplice. vmsplice copies between the guest's buffers and a
 * pipe (no pages are lent or given). */
#include "file.h"
#include "file_access.h"
#include "iovec.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "tracefs.h"
#include "page.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the guest's SPLICE_F_* are the host's (<fcntl.h>) */
#define SPLICE_F_ALL (SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)
#define SPLICE_CHUNK (64u * 1024)

static bool is_socket(const struct file *f)
{
    return f->kind == FILE_OBJECT && (f->ops->mode & S_IFMT) == S_IFSOCK;
}

/* FMODE_PREAD/FMODE_PWRITE: an offset may be given (a seekable file; not
 * trace_pipe or trace_pipe_raw, opened nonseekable_open()). */
static bool positional(const struct file *f)
{
    if (f->kind == FILE_HOST)
        return !f->fifo && lseek(f->host_fd, 0, SEEK_CUR) >= 0;
    return f->kind == FILE_VIRTUAL && !file_is_tracing_pipe(f) && f->node.kind != VNODE_DIR;
}

/* Whether the file has ->splice_write (do_splice_from(): EINVAL without):
 * files, ttys, sockets, /dev/null; not eventfds, epoll, proc or tracefs
 * files. */
static bool splice_writable(const struct file *f)
{
    switch (f->kind) {
    case FILE_HOST:
    case FILE_CONSOLE:
        return true;
    case FILE_OBJECT:
        return is_socket(f);
    case FILE_VIRTUAL:
        return f->node.kind == VNODE_NULL;
    default:
        return false;
    }
}

/* ->splice_read (do_splice_to(): EINVAL without): files, ttys, sockets,
 * /dev/zero, the generated proc, sys and tracefs files. */
static bool splice_readable(const struct file *f)
{
    switch (f->kind) {
    case FILE_HOST:
    case FILE_CONSOLE:
        return true;
    case FILE_OBJECT:
        return is_socket(f);
    case FILE_VIRTUAL:
        return f->node.kind == VNODE_GENERATED || f->node.kind == VNODE_ZERO;
    default:
        return false;
    }
}

static int64_t broken_pipe(struct task *t)
{
    struct siginfo_lite info = {.code = 0, .pid = t->proc->pid};
    signal_queue_task(t, SIGPIPE, &info);
    return -EPIPE;
}

/* ipipe_prep(): true when p holds no bytes, *ret then what the call
 * returns: 0 (end of file) without writers, EAGAIN when it may not wait,
 * else the wait for them. */
static bool no_bytes(struct task *t, struct pipe *p, bool nonblock, int64_t *ret)
{
    if (p->len)
        return false;
    *ret = p->writers == 0 ? 0 : nonblock ? -EAGAIN : -EBLOCK;
    if (*ret == -EBLOCK)
        t->wait_obj = p;
    return true;
}

/* opipe_prep(), wait_for_space(): true when p has no room, *ret then
 * EAGAIN when the call may not wait, else the wait for room. */
static bool no_room(struct task *t, struct pipe *p, size_t room, bool nonblock, int64_t *ret)
{
    if (room)
        return false;
    *ret = nonblock ? -EAGAIN : -EBLOCK;
    if (!nonblock)
        t->wait_obj = p;
    return true;
}

/* splice_pipe_to_pipe() (tee: link_pipe(), which leaves the bytes in
 * in): ipipe_prep() waits for bytes, opipe_prep() for room, then up to
 * len of them go over. */
static int64_t pipe_to_pipe(struct task *t, struct pipe *ip, struct file *out, uint64_t len,
                            bool nonblock, bool tee)
{
    struct pipe *op = out->pipe;
    int64_t ret;
    if (no_bytes(t, ip, nonblock, &ret))
        return ret;
    if (op->readers == 0)
        return broken_pipe(t);
    size_t room = op->capacity - op->len;
    if (no_room(t, op, room, nonblock, &ret))
        return ret;
    uint8_t chunk[SPLICE_CHUNK];
    uint64_t done = 0;
    while (done < len && room && (tee ? done < ip->len : ip->len > 0)) {
        size_t want = len - done < SPLICE_CHUNK ? (size_t)(len - done) : SPLICE_CHUNK;
        if (want > room)
            want = room;
        /* tee: the bytes after those already copied, which stay */
        size_t n = pipe_peek(ip, tee ? (size_t)done : 0, chunk, want);
        if (n == 0)
            break;
        int64_t w = pipe_write(t, out, chunk, n);
        if (w <= 0)
            return done ? (int64_t)done : w;
        if (!tee)
            pipe_consume(ip, (size_t)w);
        done += (uint64_t)w;
        room -= (size_t)w;
    }
    return (int64_t)done;
}

/* A pipe's bytes to a file (do_splice_from() with iter_file_splice_write()
 * and splice_from_pipe_next()): waits for bytes (end of file when the
 * pipe has no writer), then writes up to len of them at *off or the
 * file's position, taking what was written. */
static int64_t pipe_to_file(struct task *t, struct pipe *p, struct file *out, int64_t *off,
                            uint64_t len, bool nonblock)
{
    int64_t ret;
    if (no_bytes(t, p, nonblock, &ret))
        return ret;
    uint8_t chunk[SPLICE_CHUNK];
    uint64_t done = 0;
    while (done < len && p->len) {
        size_t want = len - done < SPLICE_CHUNK ? (size_t)(len - done) : SPLICE_CHUNK;
        size_t n = pipe_peek(p, 0, chunk, want);
        int64_t w = file_write(t, out, chunk, n, off ? *off : -1);
        if (w <= 0)
            return done ? (int64_t)done : w;
        pipe_consume(p, (size_t)w);
        done += (uint64_t)w;
        if (off)
            *off += w;
        if ((size_t)w < n)
            break;
    }
    return (int64_t)done;
}

/* tracing_buffers_splice_read(): whole pages only (a length under a page
 * is EINVAL, another is cut to pages), each a full page of the vCPU's
 * buffer; none: EAGAIN with O_NONBLOCK or SPLICE_F_NONBLOCK, else the
 * caller waits until a page fills (ring_buffer_wait(); asymu's
 * buffer_percent is a page, as for read) or a signal ends it with EINTR. */
static int64_t trace_pages_to_pipe(struct task *t, struct file *in, struct file *out, uint64_t len,
                                   bool nonblock)
{
    if (len & (PAGE - 1)) {
        if (len < PAGE)
            return -EINVAL;
        len &= ~(uint64_t)(PAGE - 1);
    }
    struct tracefs *tf = t->machine->tracefs;
    const char *rel = tracing_rel(in->node.path);
    uint8_t page[PAGE];
    uint64_t done = 0;
    while (tf && done < len && tracefs_splice_page(tf, rel, page) == 1) {
        pipe_write(t, out, page, PAGE); /* room was checked: all of it */
        done += PAGE;
    }
    if (done)
        return (int64_t)done;
    if (nonblock || (in->flags & O_NONBLOCK))
        return -EAGAIN;
    if (signal_pending(t))
        return -EINTR;
    t->wait_obj = tf ? tracefs_wait_key(tf, rel) : NULL;
    return -EBLOCK;
}

/* A file's bytes to a pipe (do_splice()'s wait_for_space(), then
 * do_splice_to()): at most the pipe's room in whole pages. */
static int64_t file_to_pipe(struct task *t, struct file *in, int64_t *off, struct file *out,
                            uint64_t len, bool nonblock)
{
    struct pipe *p = out->pipe;
    if (p->readers == 0)
        return broken_pipe(t);
    size_t room = pipe_page_room(p);
    int64_t ret;
    if (no_room(t, p, room, nonblock, &ret))
        return ret;
    if (len > room)
        len = room;
    /* do_splice_to(): rw_verify_area(), the cut to MAX_RW_COUNT, then
     * ->splice_read */
    if (off && len > (uint64_t)(INT64_MAX - *off))
        return -EINVAL;
    if (len > MAX_RW_COUNT)
        len = MAX_RW_COUNT;
    if (!splice_readable(in))
        return -EINVAL;
    if (in->kind == FILE_VIRTUAL && in->node.pages)
        return trace_pages_to_pipe(t, in, out, len, nonblock);
    uint8_t chunk[SPLICE_CHUNK];
    uint64_t done = 0;
    while (done < len) {
        size_t want = len - done < SPLICE_CHUNK ? (size_t)(len - done) : SPLICE_CHUNK;
        int64_t n = file_read(t, in, chunk, want, off ? *off : -1);
        if (n <= 0)
            return done ? (int64_t)done : n;
        pipe_write(t, out, chunk, (size_t)n); /* within the room */
        done += (uint64_t)n;
        if (off)
            *off += n;
        /* one read of a stream, as its ->splice_read does */
        if ((size_t)n < want || (in->kind != FILE_HOST && in->kind != FILE_VIRTUAL))
            break;
    }
    return (int64_t)done;
}

/* do_splice() after __do_splice() read the offsets. */
static int64_t do_splice(struct task *t, struct file *in, int64_t *off_in, struct file *out,
                         int64_t *off_out, uint64_t len, unsigned flags)
{
    if ((in->flags & O_ACCMODE) == O_WRONLY || (out->flags & O_ACCMODE) == O_RDONLY)
        return -EBADF;
    bool nonblock = flags & SPLICE_F_NONBLOCK;
    if (in->kind == FILE_PIPE && out->kind == FILE_PIPE) {
        if (in->pipe == out->pipe)
            return -EINVAL;
        nonblock |= ((in->flags | out->flags) & O_NONBLOCK) != 0;
        return pipe_to_pipe(t, in->pipe, out, len, nonblock, false);
    }
    if (in->kind == FILE_PIPE) {
        if (off_out && !positional(out))
            return -EINVAL;
        if (out->flags & O_APPEND)
            return -EINVAL;
        if (off_out && (*off_out < 0 || len > (uint64_t)(INT64_MAX - *off_out)))
            return -EINVAL; /* rw_verify_area() */
        if (!splice_writable(out))
            return -EINVAL;
        nonblock |= (in->flags & O_NONBLOCK) != 0;
        return pipe_to_file(t, in->pipe, out, off_out, len, nonblock);
    }
    if (out->kind == FILE_PIPE) {
        if (off_in && !positional(in))
            return -EINVAL;
        if (off_in && *off_in < 0)
            return -EINVAL;
        nonblock |= (out->flags & O_NONBLOCK) != 0;
        return file_to_pipe(t, in, off_in, out, len, nonblock);
    }
    return -EINVAL;
}

/* splice(fd_in, off_in, fd_out, off_out, len, flags) */
SYSCALL_DECL(splice)
{
    uint64_t len = a[4];
    unsigned flags = (unsigned)a[5];
    if (len == 0)
        return 0;
    if (flags & ~SPLICE_F_ALL)
        return -EINVAL;
    struct file *in = file_get_io(t, (int)a[0]), *out = in ? file_get_io(t, (int)a[2]) : NULL;
    if (!in || !out)
        return -EBADF;
    /* __do_splice(): a pipe has no offset; the offsets are read */
    if ((in->kind == FILE_PIPE && a[1]) || (out->kind == FILE_PIPE && a[3]))
        return -ESPIPE;
    int64_t off_in = 0, off_out = 0;
    if (a[3] && copy_from_guest(task_mm(t), &off_out, a[3], sizeof off_out) < 0)
        return -EFAULT;
    if (a[1] && copy_from_guest(task_mm(t), &off_in, a[1], sizeof off_in) < 0)
        return -EFAULT;
    int64_t ret = do_splice(t, in, a[1] ? &off_in : NULL, out, a[3] ? &off_out : NULL, len, flags);
    if (ret < 0)
        return ret;
    if ((a[3] && copy_to_guest(task_mm(t), a[3], &off_out, sizeof off_out) < 0) ||
        (a[1] && copy_to_guest(task_mm(t), a[1], &off_in, sizeof off_in) < 0))
        return -EFAULT;
    return ret;
}

/* tee(fd_in, fd_out, len, flags): do_tee(), two different pipes. */
SYSCALL_DECL(tee)
{
    uint64_t len = a[2];
    unsigned flags = (unsigned)a[3];
    if (flags & ~SPLICE_F_ALL)
        return -EINVAL;
    if (len == 0)
        return 0;
    struct file *in = file_get_io(t, (int)a[0]), *out = in ? file_get_io(t, (int)a[1]) : NULL;
    if (!in || !out)
        return -EBADF;
    if ((in->flags & O_ACCMODE) == O_WRONLY || (out->flags & O_ACCMODE) == O_RDONLY)
        return -EBADF;
    if (in->kind != FILE_PIPE || out->kind != FILE_PIPE || in->pipe == out->pipe)
        return -EINVAL;
    bool nonblock = (flags & SPLICE_F_NONBLOCK) || ((in->flags | out->flags) & O_NONBLOCK);
    return pipe_to_pipe(t, in->pipe, out, len, nonblock, true);
}

/* vmsplice(fd, iov, nr_segs, flags): the guest's buffers into a pipe's
 * write end, as much as fits once there is room (vmsplice_to_pipe(),
 * wait_for_space()), or a pipe's bytes out of its read end into them,
 * waiting for some (vmsplice_to_user()). Only SPLICE_F_NONBLOCK makes it
 * not wait, not the pipe's O_NONBLOCK. A descriptor open for writing
 * writes (FMODE_WRITE: O_RDWR too); not a pipe: EBADF. */
SYSCALL_DECL(vmsplice)
{
    unsigned flags = (unsigned)a[3];
    if (flags & ~SPLICE_F_ALL)
        return -EINVAL;
    struct file *f = file_get_io(t, (int)a[0]);
    if (!f)
        return -EBADF;
    bool to_pipe = (f->flags & O_ACCMODE) != O_RDONLY;
    if (a[2] > UIO_MAXIOV)
        return -EINVAL;
    struct iov_list *l = malloc(sizeof *l);
    if (!l)
        return -ENOMEM;
    int64_t ret = iov_import(t, a[1], a[2], l);
    if (ret == 0 && l->total && f->kind != FILE_PIPE)
        ret = -EBADF;
    if (ret < 0 || l->total == 0) {
        free(l);
        return ret;
    }
    bool nonblock = flags & SPLICE_F_NONBLOCK;
    struct pipe *p = f->pipe;
    ret = 0;
    if (to_pipe && p->readers == 0) {
        ret = broken_pipe(t);
    } else if ((to_pipe ? p->len == p->capacity : p->len == 0) && (to_pipe || p->writers > 0)) {
        ret = nonblock ? -EAGAIN : -EBLOCK;
        t->wait_obj = p;
    } else {
        uint8_t chunk[SPLICE_CHUNK];
        for (unsigned i = 0; i < l->n; i++) {
            uint64_t at = 0;
            while (at < l->v[i].len && (to_pipe ? p->len < p->capacity : p->len > 0)) {
                uint64_t left = l->v[i].len - at;
                size_t want = left < SPLICE_CHUNK ? (size_t)left : SPLICE_CHUNK;
                size_t n;
                if (to_pipe) {
                    if (copy_from_guest(task_mm(t), chunk, l->v[i].base + at, want) < 0)
                        goto fault;
                    n = (size_t)pipe_write(t, f, chunk, want); /* room is there: > 0 */
                } else {
                    n = pipe_peek(p, 0, chunk, want);
                    if (copy_to_guest(task_mm(t), l->v[i].base + at, chunk, n) < 0)
                        goto fault;
                    pipe_consume(p, n);
                }
                at += n;
                ret += (int64_t)n;
            }
            if (at < l->v[i].len)
                break;
        }
    }
    free(l);
    return ret;
fault:
    free(l);
    return ret ? ret : -EFAULT;
}
