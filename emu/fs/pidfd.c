/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pidfd.c - pidfds: a file for a process, readable once it has exited,
 * that pidfd_send_signal signals and waitid(P_PIDFD) waits for. */
#include "event.h"
#include "file.h"
#include "file_access.h"
#include "machine.h"
#include "reopen.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define PIDFD_NONBLOCK O_NONBLOCK

struct pidfd {
    struct machine *machine;
    struct process *proc; /* NULL once reaped */
    struct pidfd *next;   /* machine->pidfds */
};

static void process_changed(struct process *p, bool reaped)
{
    for (struct pidfd *d = p->machine->pidfds; d; d = d->next)
        if (d->proc == p) {
            if (reaped)
                d->proc = NULL;
            file_notify_events(p->machine, d, POLLIN);
        }
}

void pidfd_process_exited(struct process *p)
{
    process_changed(p, false);
}

void pidfd_process_reaped(struct process *p)
{
    process_changed(p, true);
}

static short pidfd_poll(struct task *t, struct file *f)
{
    (void)t;
    const struct pidfd *d = f->priv;
    return !d->proc || d->proc->zombie ? POLLIN | POLLRDNORM : 0;
}

static void pidfd_release(struct file *f)
{
    struct pidfd *d = f->priv;
    for (struct pidfd **pp = &d->machine->pidfds; *pp; pp = &(*pp)->next)
        if (*pp == d) {
            *pp = d->next;
            break;
        }
    free(d);
}

static const struct file_ops pidfd_ops = {
    .name = "anon_inode:[pidfd]",
    .poll = pidfd_poll,
    .release = pidfd_release,
    .mode = 0600,
};

static struct pidfd *pidfd_of(struct file *f)
{
    return f && f->kind == FILE_OBJECT && f->ops == &pidfd_ops ? f->priv : NULL;
}

struct process *pidfd_process(struct task *t, int fd, int *err)
{
    struct pidfd *d = pidfd_of(file_get(t, fd));
    *err = d ? (d->proc ? 0 : -ESRCH) : -EBADF;
    return d ? d->proc : NULL;
}

/* pidfd_open(pid, flags): pid must name a process (a thread group), which
 * may have exited but not been reaped. */
SYSCALL_DECL(pidfd_open)
{
    int pid = (int)a[0];
    unsigned flags = (unsigned)a[1];
    if (flags & ~(unsigned)PIDFD_NONBLOCK || pid <= 0)
        return -EINVAL;
    struct process *p = NULL;
    bool thread = false;
    for (struct task *o = t->machine->tasks; o; o = o->next_all) {
        if (o->proc->pid == pid)
            p = o->proc;
        thread |= o->tid == pid && o->state != TASK_DEAD;
    }
    if (!p)
        return thread ? -EINVAL : -ESRCH;
    struct pidfd *d = malloc(sizeof *d);
    if (!d)
        return -ENOMEM;
    *d = (struct pidfd){t->machine, p, NULL};
    int fd = anon_inode_fd(t, &pidfd_ops, d, O_RDWR | (int)(flags & PIDFD_NONBLOCK), true);
    if (fd >= 0) {
        d->next = t->machine->pidfds;
        t->machine->pidfds = d;
    }
    return fd;
}

/* The process a /proc/PID directory descriptor names, zombies included:
 * false when f is no such descriptor; *p is NULL once the process is gone. */
static bool proc_dir_process(struct task *t, struct file *f, struct process **p)
{
    int pid = f && f->kind == FILE_VIRTUAL ? vfs_proc_dir_pid(&f->node) : 0;
    if (!pid)
        return false;
    *p = NULL;
    for (struct task *o = t->machine->tasks; o; o = o->next_all)
        if (o->proc->pid == pid)
            *p = o->proc;
    return true;
}

/* pidfd_send_signal(pidfd, sig, info, flags): as kill(2), or as
 * rt_sigqueueinfo with info; a zombie takes (and ignores) the signal. As
 * in Linux, a descriptor of a /proc/PID directory serves as a pidfd. */
/* pidfd_getfd(pidfd, targetfd, flags) (kernel/pid.c): a copy of the
 * process's descriptor, close-on-exec, for a caller allowed to ptrace it
 * (EPERM); a process that has exited is ESRCH, a descriptor it lacks
 * EBADF, flags EINVAL. */
SYSCALL_DECL(pidfd_getfd)
{
    if (a[2])
        return -EINVAL;
    struct pidfd *d = pidfd_of(file_get(t, (int)a[0]));
    if (!d)
        return -EBADF;
    struct process *p = d->proc;
    if (!p || p->zombie || !p->live_threads)
        return -ESRCH;
    if (!cred_may_access(t->proc, p))
        return -EPERM;
    struct file *f = file_of_process(t, p->pid, (int)a[1]);
    if (!f)
        return -EBADF;
    file_ref(f);
    return fd_install_new(t, f, true);
}

SYSCALL_DECL(pidfd_send_signal)
{
    int sig = (int)a[1];
    if (a[3])
        return -EINVAL;
    struct file *f = file_get_io(t, (int)a[0]); /* not an O_PATH descriptor */
    struct pidfd *d = pidfd_of(f);
    struct pidfd dir = {0};
    if (!d && proc_dir_process(t, f, &dir.proc))
        d = &dir;
    if (!d)
        return -EBADF;
    struct siginfo_lite info = {.code = SI_USER, .pid = t->proc->pid};
    if (a[2]) {
        int signo;
        if (siginfo_from_guest(t, a[2], &signo, &info) < 0)
            return -EFAULT;
        if (signo != sig)
            return -EINVAL;
        if (d->proc != t->proc && (info.code >= 0 || info.code == SI_TKILL))
            return -EPERM;
    }
    if (!d->proc)
        return -ESRCH;
    if (sig < 0 || sig > NSIG_GUEST)
        return -EINVAL;
    if (!signal_may_send(t, d->proc, sig))
        return -EPERM;
    if (sig)
        signal_queue_process(d->proc, sig, &info);
    if (signal_pending(t))
        t->stop = true;
    return 0;
}

int pidfd_wait_pid(struct task *t, int fd, bool *nonblock)
{
    struct file *f = file_get(t, fd);
    struct pidfd *d = pidfd_of(f);
    if (!d)
        return -EBADF;
    *nonblock = f->flags & O_NONBLOCK;
    return d->proc ? d->proc->pid : -ECHILD;
}
