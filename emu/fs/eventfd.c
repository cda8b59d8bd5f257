/* SPDX-License-Identifier: GPL-2.0-or-later */
/* eventfd.c - eventfd: a 64-bit counter that writes add to and reads take
 * (all of it, or one with EFD_SEMAPHORE), blocking a reader at zero and a
 * writer that would pass 0xfffffffffffffffe. */
#include "event.h"
#include "file.h"
#include "machine.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

#define EVENTFD_MAX UINT64_C(0xfffffffffffffffe)

struct eventfd {
    struct machine *machine;
    uint64_t count;
    bool semaphore;
};

static int64_t counter_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct eventfd *ev = f->priv;
    if (len < sizeof ev->count)
        return -EINVAL;
    if (ev->count == 0) {
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        t->wait_obj = ev;
        return -EBLOCK;
    }
    uint64_t v = ev->semaphore ? 1 : ev->count;
    ev->count -= v;
    memcpy(buf, &v, sizeof v);
    file_notify_events(ev->machine, ev, POLLOUT);
    return sizeof v;
}

static int64_t counter_write(struct task *t, struct file *f, const void *buf, size_t len)
{
    struct eventfd *ev = f->priv;
    uint64_t v;
    if (len < sizeof v)
        return -EINVAL;
    memcpy(&v, buf, sizeof v);
    if (v == UINT64_MAX)
        return -EINVAL;
    if (v > EVENTFD_MAX - ev->count) {
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        t->wait_obj = ev;
        return -EBLOCK;
    }
    ev->count += v;
    file_notify_events(ev->machine, ev, POLLIN);
    return sizeof v;
}

static short counter_poll(struct task *t, struct file *f)
{
    (void)t;
    const struct eventfd *ev = f->priv;
    return (short)((ev->count ? POLLIN : 0) | (ev->count < EVENTFD_MAX ? POLLOUT : 0));
}

static void counter_release(struct file *f)
{
    free(f->priv);
}

static const struct file_ops eventfd_ops = {
    .name = "anon_inode:[eventfd]",
    .read = counter_read,
    .write = counter_write,
    .poll = counter_poll,
    .release = counter_release,
    .mode = 0600,
};

bool file_is_eventfd(const struct file *f)
{
    return f->kind == FILE_OBJECT && f->ops == &eventfd_ops;
}

/* eventfd_signal(): adds n, saturating short of the overflow a write would
 * wait for (the kernel never blocks), and wakes the readers. */
void eventfd_signal_file(struct file *f, uint64_t n)
{
    struct eventfd *ev = f->priv;
    if (UINT64_MAX - ev->count < n)
        n = UINT64_MAX - ev->count;
    ev->count += n;
    file_notify_events(ev->machine, ev, POLLIN);
}

/* eventfd2(initval, flags) */
SYSCALL_DECL(eventfd2)
{
    int flags = (int)a[1];
    if (flags & ~(EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK))
        return -EINVAL;
    struct eventfd *ev = malloc(sizeof *ev);
    if (!ev)
        return -ENOMEM;
    *ev = (struct eventfd){t->machine, (uint32_t)a[0], flags & EFD_SEMAPHORE};
    return anon_inode_fd(t, &eventfd_ops, ev, O_RDWR | (flags & O_NONBLOCK), flags & EFD_CLOEXEC);
}

/* eventfd(initval): armhf's form without flags. */
SYSCALL_DECL(eventfd)
{
    return sys_eventfd2(t, (uint64_t[6]){a[0], 0});
}
