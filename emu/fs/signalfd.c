/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signalfd.c - signalfd: reading takes the reader's pending signals of the
 * fd's mask (its own, then its process's) as 128-byte struct
 * signalfd_siginfo records, the same layout on every ABI; readable while
 * one is pending. Every queued signal of a mask wakes that signalfd's
 * readers and pollers. */
#include "event.h"
#include "file.h"
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
#include <sys/signalfd.h>

#define SIGINFO_SIZE 128
#define UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))

struct signalfd {
    struct machine *machine;
    uint64_t mask;
    struct signalfd *next; /* machine->signalfds */
};

void signalfd_signal_queued(struct machine *m, int sig)
{
    for (struct signalfd *s = m->signalfds; s; s = s->next)
        if (s->mask & SIGBIT(sig))
            file_notify_events(m, s, POLLIN);
}

/* The record Linux's signalfd_copyinfo fills for what the signal carried. */
static void fill_record(uint8_t rec[SIGINFO_SIZE], int sig, const struct siginfo_lite *si)
{
    struct signalfd_siginfo r;
    memset(&r, 0, sizeof r);
    r.ssi_signo = (uint32_t)sig;
    r.ssi_code = si->code;
    bool fault = si->code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
                                  sig == SIGFPE || sig == SIGTRAP);
    if (fault) {
        r.ssi_addr = si->addr;
    } else {
        r.ssi_pid = (uint32_t)si->pid;
        r.ssi_uid = (uint32_t)si->uid;
        if (sig == SIGCHLD && si->code > 0)
            r.ssi_status = si->status;
        else if (si->code < 0 && si->code != SI_TKILL) {
            r.ssi_int = (int32_t)si->value;
            r.ssi_ptr = si->value;
        }
    }
    memcpy(rec, &r, SIGINFO_SIZE);
}

static int64_t signalfd_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct signalfd *s = f->priv;
    if (len < SIGINFO_SIZE)
        return -EINVAL;
    size_t n = 0;
    for (; n < len / SIGINFO_SIZE; n++) {
        struct siginfo_lite info;
        int sig = signal_dequeue(t, s->mask, &info);
        if (!sig)
            break;
        fill_record((uint8_t *)buf + n * SIGINFO_SIZE, sig, &info);
    }
    if (n)
        return (int64_t)(n * SIGINFO_SIZE);
    if (f->flags & O_NONBLOCK)
        return -EAGAIN;
    t->wait_obj = s;
    return -EBLOCK;
}

static short signalfd_poll(struct task *t, struct file *f)
{
    const struct signalfd *s = f->priv;
    return (t->pending.set | t->proc->pending.set) & s->mask ? POLLIN : 0;
}

static void signalfd_release(struct file *f)
{
    struct signalfd *s = f->priv;
    for (struct signalfd **pp = &s->machine->signalfds; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    free(s);
}

static const struct file_ops signalfd_ops = {
    .name = "anon_inode:[signalfd]",
    .read = signalfd_read,
    .poll = signalfd_poll,
    .release = signalfd_release,
    .mode = 0600,
};

/* signalfd4(fd, mask, sizemask, flags): a new signalfd for fd -1, else a
 * new mask for the signalfd fd. */
SYSCALL_DECL(signalfd4)
{
    int fd = (int)a[0], flags = (int)a[3];
    uint64_t mask;
    if (a[2] != sizeof mask)
        return -EINVAL;
    if (copy_from_guest(task_mm(t), &mask, a[1], sizeof mask) < 0)
        return -EFAULT;
    if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
        return -EINVAL;
    mask &= ~UNBLOCKABLE;
    if (fd != -1) {
        struct file *f = file_get(t, fd);
        if (!f)
            return -EBADF;
        if (f->kind != FILE_OBJECT || f->ops != &signalfd_ops)
            return -EINVAL;
        struct signalfd *s = f->priv;
        s->mask = mask;
        file_notify_events(t->machine, s, POLLIN);
        return fd;
    }
    struct signalfd *s = malloc(sizeof *s);
    if (!s)
        return -ENOMEM;
    *s = (struct signalfd){t->machine, mask, NULL};
    fd = anon_inode_fd(t, &signalfd_ops, s, O_RDWR | (flags & SFD_NONBLOCK), flags & SFD_CLOEXEC);
    if (fd >= 0) {
        s->next = t->machine->signalfds;
        t->machine->signalfds = s;
    }
    return fd;
}

/* signalfd(fd, mask, sizemask): armhf's form without flags. */
SYSCALL_DECL(signalfd)
{
    return sys_signalfd4(t, (uint64_t[6]){a[0], a[1], a[2], 0});
}
