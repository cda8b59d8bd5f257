/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipe.c - pipes between guest processes: a 64 KiB ring per pipe (resized
 * by F_SETPIPE_SZ), blocking
 * readers and writers woken through the task wait queue, EOF when the last
 * writer goes, EPIPE and SIGPIPE when the last reader goes. */
#include "fifo.h"
#include "file.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* events: what the change can have made true (see file_notify_events). */
static void pipe_changed(struct pipe *p, unsigned events)
{
    file_notify_events(p->machine, p, events);
}

/* A pipe's ring counts as kernel memory (kmem.h) at its full capacity, as
 * Linux's pipe_buffer array does (the pages behind it come as written, but
 * a full pipe holds them all). When none is left, Linux's
 * create_pipe_files fails with ENFILE (get_pipe_inode found no memory). */
int pipe_create(struct machine *m, struct file **rd, struct file **wr)
{
    if (!kmem_charge(m, PIPE_CAPACITY))
        return -ENFILE;
    struct pipe *p = calloc(1, sizeof *p);
    if (!p)
        goto fail_pipe;
    uint8_t *buf = malloc(PIPE_CAPACITY);
    if (!buf)
        goto fail_buf;
    struct file *r = file_new(FILE_PIPE);
    if (!r)
        goto fail_reader;
    struct file *w = file_new(FILE_PIPE);
    if (!w)
        goto fail_writer;
    p->buf = buf;
    p->capacity = PIPE_CAPACITY;
    p->machine = m;
    p->readers = p->writers = 1;
    r->pipe = w->pipe = p;
    r->flags = O_RDONLY;
    w->flags = O_WRONLY;
    *rd = r;
    *wr = w;
    return 0;

fail_writer:
    free(r);
fail_reader:
    free(buf);
fail_buf:
    free(p);
fail_pipe:
    kmem_uncharge(m, PIPE_CAPACITY);
    return -ENOMEM;
}

void pipe_release(struct file *f)
{
    struct pipe *p = f->pipe;
    int accmode = f->flags & O_ACCMODE;
    if (accmode != O_WRONLY)
        p->readers--;
    if (accmode != O_RDONLY)
        p->writers--;
    pipe_changed(p, ~0u);
    if (p->readers == 0 && p->writers == 0) {
        kmem_uncharge(p->machine, p->capacity);
        free(p->buf);
        free(p);
    }
}

int64_t pipe_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct pipe *p = f->pipe;
    if (len == 0)
        return 0;
    if (p->len == 0) {
        if (p->writers == 0)
            return 0;
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        t->wait_obj = p;
        return -EBLOCK;
    }
    size_t n = pipe_peek(p, 0, buf, len);
    pipe_consume(p, n);
    return (int64_t)n;
}

size_t pipe_peek(const struct pipe *p, size_t skip, void *buf, size_t len)
{
    size_t held = skip < p->len ? p->len - skip : 0;
    size_t n = len < held ? len : held;
    for (size_t i = 0; i < n; i++)
        ((uint8_t *)buf)[i] = p->buf[(p->head + skip + i) % p->capacity];
    return n;
}

void pipe_consume(struct pipe *p, size_t n)
{
    bool was_full = p->len == p->capacity;
    p->head = (p->head + n) % p->capacity;
    p->len -= n;
    /* Only a full pipe has writers to wake, as in Linux: an edge-triggered
     * watcher of the write end hears nothing from other reads. */
    if (was_full && n)
        pipe_changed(p, POLLOUT);
}

int64_t pipe_write(struct task *t, struct file *f, const void *buf, size_t len)
{
    struct pipe *p = f->pipe;
    if (p->readers == 0) {
        struct siginfo_lite info = {.code = 0, .pid = t->proc->pid};
        signal_queue_task(t, SIGPIPE, &info);
        return -EPIPE;
    }
    if (len == 0)
        return 0;
    size_t room = p->capacity - p->len;
    if (room == 0) {
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        t->wait_obj = p;
        return -EBLOCK;
    }
    size_t n = len < room ? len : room;
    for (size_t i = 0; i < n; i++)
        p->buf[(p->head + p->len + i) % p->capacity] = ((const uint8_t *)buf)[i];
    p->len += n;
    pipe_changed(p, POLLIN);
    return (int64_t)n;
}

#define PIPE_PAGE 4096

size_t pipe_page_room(const struct pipe *p)
{
    size_t used = (p->len + PIPE_PAGE - 1) / PIPE_PAGE, slots = p->capacity / PIPE_PAGE;
    return used < slots ? (slots - used) * PIPE_PAGE : 0;
}

/* /proc/sys/fs/pipe-max-size's default. */
#define PIPE_MAX_SIZE (1024 * 1024)

int64_t pipe_set_capacity(struct machine *m, struct pipe *p, uint64_t want, bool cap_resource)
{
    /* Linux rounds to a power-of-two number of pages, at least one. */
    if (want > (UINT64_C(1) << 31))
        return -EINVAL;
    size_t size = PIPE_PAGE;
    while (size < want)
        size <<= 1;
    /* Growing past /proc/sys/fs/pipe-max-size needs CAP_SYS_RESOURCE
     * (pipe_set_size()), asked before the pipe's contents are. */
    if (size > p->capacity && size > PIPE_MAX_SIZE && !cap_resource)
        return -EPERM;
    /* Linux counts what the pipe holds in pages (buffers). */
    if ((p->len + PIPE_PAGE - 1) / PIPE_PAGE > size / PIPE_PAGE)
        return -EBUSY;
    if (size == p->capacity)
        return (int64_t)size;
    /* Up to the machine's kernel memory (kmem.h): a
     * larger ring counts what it adds (Linux's pipe_resize_ring fails with
     * ENOMEM when its kcalloc does), a smaller one gives back the rest. */
    size_t more = size > p->capacity ? size - p->capacity : 0;
    if (!kmem_charge(m, more))
        return -ENOMEM;
    uint8_t *buf = malloc(size);
    if (!buf) {
        kmem_uncharge(m, more);
        return -ENOMEM;
    }
    if (size < p->capacity)
        kmem_uncharge(m, p->capacity - size);
    for (size_t i = 0; i < p->len; i++)
        buf[i] = p->buf[(p->head + i) % p->capacity];
    bool more_room = size > p->capacity;
    free(p->buf);
    p->buf = buf;
    p->head = 0;
    p->capacity = size;
    if (more_room)
        pipe_changed(p, POLLOUT);
    return (int64_t)size;
}

short file_poll(struct task *t, struct file *f)
{
    if (f->kind == FILE_CONSOLE)
        return (short)(POLLOUT | (console_ready(t->machine) ? POLLIN : 0));
    if (f->kind == FILE_OBJECT)
        return f->ops->poll ? f->ops->poll(t, f) : (short)(POLLIN | POLLOUT);
    if (f->fifo)
        return fifo_poll(f);
    if (file_is_tracing_pipe(f))
        return tracing_pipe_poll(t, f);
    if (f->kind != FILE_PIPE)
        return POLLIN | POLLOUT;
    /* A pipe reopened O_RDWR through /proc/PID/fd is both ends. */
    struct pipe *p = f->pipe;
    int accmode = f->flags & O_ACCMODE;
    short ev = 0;
    if (accmode != O_WRONLY)
        ev |= (short)((p->len ? POLLIN : 0) | (p->writers == 0 ? POLLHUP : 0));
    if (accmode != O_RDONLY)
        ev |= (short)((p->readers == 0 ? POLLERR : 0) | (p->len < p->capacity ? POLLOUT : 0));
    return ev;
}

SYSCALL_DECL(pipe2)
{
    int flags = open_flags_to_host((uint32_t)a[1]);
    if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
        return -EINVAL;
    struct file *r, *w;
    int err = pipe_create(t->machine, &r, &w);
    if (err < 0)
        return err;
    r->flags |= flags & O_NONBLOCK;
    w->flags |= flags & O_NONBLOCK;
    int fds[2];
    fds[0] = fd_install(t, r, 0, flags & O_CLOEXEC);
    fds[1] = fds[0] < 0 ? -EMFILE : fd_install(t, w, 0, flags & O_CLOEXEC);
    if (fds[1] < 0) {
        if (fds[0] >= 0)
            fd_close(t, fds[0]);
        else
            file_put(r);
        file_put(w);
        return -EMFILE;
    }
    if (copy_to_guest(task_mm(t), a[0], fds, sizeof fds) < 0) {
        fd_close(t, fds[0]);
        fd_close(t, fds[1]);
        return -EFAULT;
    }
    return 0;
}
