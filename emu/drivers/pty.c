/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pty.c - pseudo-terminal pairs: /dev/ptmx and /dev/pts/N as FILE_OBJECT
 * files, their ioctls (termios, window size, locks, job control), hangup
 * when the master goes, and controlling terminals of sessions. */
#include "file.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "pty.h"
#include "signals.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

static const struct file_ops master_ops, slave_ops;

static bool is_master(const struct file *f)
{
    return f->ops == &master_ops;
}

/* ---- pairs ---- */

/* Frees p once both sides are closed; no process keeps it as its
 * terminal by then (hangup cleared them), but look anyway. */
static void pty_maybe_free(struct pty *p)
{
    if (p->master_open || p->slave_files > 0)
        return;
    struct machine *m = p->machine;
    for (struct task *o = m->tasks; o; o = o->next_all)
        if (o->proc->ctty == p)
            o->proc->ctty = NULL;
    for (struct pty **pp = &m->ptys; *pp; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
    kmem_uncharge(m, sizeof *p);
    free(p);
}

/* Linux's devpts hands out the lowest free index, below kernel.pty.max
 * (4096; devpts_new_index fails with ENOSPC beyond). A pair and its two
 * rings count as the machine's kernel memory (kmem.h): when there is none,
 * opening /dev/ptmx fails with ENOMEM, as Linux's ptmx_open does when
 * alloc_tty_struct cannot allocate. */
#define PTY_MAX 4096

static struct pty *pty_alloc(struct machine *m, int *err)
{
    struct pty **pp = &m->ptys;
    int index = 0;
    while (*pp && (*pp)->index == index) {
        pp = &(*pp)->next;
        index++;
    }
    *err = -ENOSPC;
    if (index >= PTY_MAX)
        return NULL;
    *err = -ENOMEM;
    if (!kmem_charge(m, sizeof(struct pty)))
        return NULL;
    struct pty *p = calloc(1, sizeof *p);
    if (!p) {
        kmem_uncharge(m, sizeof(struct pty));
        return NULL;
    }
    p->machine = m;
    p->index = index;
    p->locked = true;
    p->master_open = true;
    tty_termios_init(&p->termios);
    p->next = *pp;
    *pp = p;
    return p;
}

int pty_next_index(struct machine *m, int after)
{
    for (struct pty *p = m->ptys; p; p = p->next)
        if (p->index > after && p->master_open)
            return p->index;
    return -1;
}

/* ---- controlling terminals ---- */

static void set_ctty(struct process *proc, struct pty *p)
{
    proc->ctty = p;
    p->session = proc->sid;
    p->pgrp = proc->pgid;
}

/* Every process of the session loses the terminal (session_clear_tty). */
static void clear_session(struct pty *p)
{
    for (struct task *o = p->machine->tasks; o; o = o->next_all)
        if (o->proc->ctty == p)
            o->proc->ctty = NULL;
    p->session = p->pgrp = 0;
}

void pty_leave_ctty(struct process *proc)
{
    proc->ctty = NULL;
}

void pty_session_leader_exit(struct process *proc)
{
    struct pty *p = proc->ctty;
    if (!p || proc->sid != proc->pid)
        return;
    tty_signal_pgrp(p, SIGHUP);
    clear_session(p);
}

/* The master went: the slave is hung up. The session leader hears SIGHUP
 * and SIGCONT (tty_signal_session_leader). */
static void hangup(struct pty *p)
{
    struct process *leader = p->session ? process_find(p->machine, p->session) : NULL;
    struct siginfo_lite info = {.code = 0x80 /* SI_KERNEL */};
    if (leader && leader->sid == leader->pid) {
        signal_queue_process(leader, SIGHUP, &info);
        signal_queue_process(leader, SIGCONT, &info);
    }
    clear_session(p);
}

/* ---- opening ---- */

/* A file of p's master or slave opened as the device node at path. */
static int new_file(struct task *t, struct pty *p, bool master, const char *path, int flags,
                    struct file **out)
{
    struct file *f = file_new_object(t->machine, master ? &master_ops : &slave_ops, p,
                                     flags & (O_ACCMODE | O_NONBLOCK | O_APPEND));
    if (!f)
        return -ENOMEM;
    f->path = strdup(path);
    /* fstat shows the device node, as ttyname compares them. */
    if (vfs_lookup_virtual(&t->machine->vfs, t, path, &f->node) != 1 || !f->path) {
        file_put(f);
        return -ENOMEM;
    }
    *out = f;
    return 0;
}

static int open_slave(struct task *t, struct pty *p, const char *path, int flags,
                      struct file **out)
{
    if (!p->master_open || p->locked)
        return -EIO;
    char name[32];
    if (!path) {
        snprintf(name, sizeof name, "/dev/pts/%d", p->index);
        path = name;
    }
    int err = new_file(t, p, false, path, flags, out);
    if (err < 0)
        return err;
    p->slave_files++;
    p->slave_closed = false;
    /* A session leader without a terminal takes it (tty_open_proc_set_tty). */
    struct process *proc = t->proc;
    if (!(flags & O_NOCTTY) && proc->sid == proc->pid && !proc->ctty && !p->session &&
        (flags & O_ACCMODE) != O_WRONLY)
        set_ctty(proc, p);
    return 0;
}

int pty_open_node(struct task *t, const struct vfs_node *node, int flags, struct file **out)
{
    if (node->kind == VNODE_PTS) {
        for (struct pty *p = t->machine->ptys; p; p = p->next)
            if (p->index == node->arg)
                return open_slave(t, p, NULL, flags, out);
        return -ENOENT;
    }
    int err;
    struct pty *p = pty_alloc(t->machine, &err);
    if (!p)
        return err;
    err = new_file(t, p, true, node->path, flags, out);
    if (err < 0) {
        p->master_open = false;
        pty_maybe_free(p);
    }
    return err;
}

bool pty_open_ctty(struct task *t, int flags, struct file **out, int *err)
{
    struct pty *p = t->proc->ctty;
    if (!p)
        return false;
    *err = open_slave(t, p, "/dev/tty", flags | O_NOCTTY, out);
    return true;
}

/* ---- reading and writing ---- */

static int64_t wait_or_again(struct task *t, struct file *f)
{
    if (f->flags & O_NONBLOCK)
        return -EAGAIN;
    t->wait_obj = f->priv;
    return -EBLOCK;
}

/* Signals the ldisc or an ioctl sent may be for the caller itself. */
static void notify(struct task *t, struct pty *p)
{
    file_notify(p->machine, p);
    if (signal_pending(t))
        t->stop = true;
}

static int64_t master_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct pty *p = f->priv;
    if (len == 0)
        return 0;
    if (p->output.len == 0)
        return p->slave_closed ? -EIO : wait_or_again(t, f);
    size_t n = len < p->output.len ? len : p->output.len;
    for (size_t i = 0; i < n; i++)
        ((uint8_t *)buf)[i] = (uint8_t)p->output.buf[(p->output.head + i) % TTY_BUF];
    p->output.head = (p->output.head + n) % TTY_BUF;
    p->output.len -= n;
    notify(t, p);
    return (int64_t)n;
}

/* A write that queued n bytes: waits while none fit. */
static int64_t wrote(struct task *t, struct file *f, size_t n)
{
    if (n == 0)
        return wait_or_again(t, f);
    notify(t, f->priv);
    return (int64_t)n;
}

static int64_t master_write(struct task *t, struct file *f, const void *buf, size_t len)
{
    return len ? wrote(t, f, tty_receive(f->priv, buf, len)) : 0;
}

static short master_poll(struct task *t, struct file *f)
{
    (void)t;
    const struct pty *p = f->priv;
    return (short)((p->output.len ? POLLIN : 0) | (p->slave_closed ? POLLHUP : 0) |
                   (p->input.len < TTY_BUF - 1 ? POLLOUT : 0));
}

/* Whether a slave read has what it waits for: a whole line (ICANON), or
 * VMIN bytes (at most len) otherwise. */
static bool slave_can_read(const struct pty *p, size_t want)
{
    if (p->termios.lflag & ICANON)
        return p->canon_len > 0;
    size_t min = p->termios.cc[VMIN];
    return p->input.len > 0 && p->input.len >= (min < want ? min : want);
}

static int64_t slave_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct pty *p = f->priv;
    if (!p->master_open)
        return 0;
    if (len == 0)
        return 0;
    if (!slave_can_read(p, len)) {
        /* VMIN 0 (and VTIME 0): a read never waits. */
        if (!(p->termios.lflag & ICANON) && p->termios.cc[VMIN] == 0 && p->input.len == 0)
            return 0;
        return wait_or_again(t, f);
    }
    size_t n = tty_read_input(p, buf, len);
    notify(t, p);
    return (int64_t)n;
}

static int64_t slave_write(struct task *t, struct file *f, const void *buf, size_t len)
{
    struct pty *p = f->priv;
    if (!p->master_open)
        return -EIO;
    return len ? wrote(t, f, tty_transmit(p, buf, len)) : 0;
}

static short slave_poll(struct task *t, struct file *f)
{
    (void)t;
    const struct pty *p = f->priv;
    if (!p->master_open)
        return POLLIN | POLLOUT | POLLERR | POLLHUP;
    return (short)((slave_can_read(p, TTY_BUF) ? POLLIN : 0) |
                   (p->output.len < TTY_BUF - 1 ? POLLOUT : 0));
}

/* ---- ioctl ---- */

static int put_int(struct task *t, uint64_t arg, int v)
{
    int32_t v32 = v;
    return copy_to_guest(task_mm(t), arg, &v32, sizeof v32);
}

static int get_int(struct task *t, uint64_t arg, int *v)
{
    int32_t v32;
    if (copy_from_guest(task_mm(t), &v32, arg, sizeof v32) < 0)
        return -EFAULT;
    *v = v32;
    return 0;
}

/* TIOCSCTTY (tiocsctty): root may steal a terminal with arg 1. */
static int64_t set_controlling(struct task *t, struct file *f, struct pty *p, uint64_t arg)
{
    struct process *proc = t->proc;
    bool leader = proc->sid == proc->pid;
    if (leader && p->session == proc->sid)
        return 0;
    if (!leader || proc->ctty)
        return -EPERM;
    if (p->session) {
        if (arg != 1)
            return -EPERM;
        clear_session(p);
    }
    if ((f->flags & O_ACCMODE) == O_WRONLY)
        return -EPERM;
    set_ctty(proc, p);
    return 0;
}

/* TIOCSPGRP: a group of the caller's session, on its own terminal. */
static int64_t set_foreground(struct task *t, struct pty *p, uint64_t arg)
{
    struct process *proc = t->proc;
    if (proc->ctty != p || p->session != proc->sid)
        return -ENOTTY;
    int pgrp;
    if (get_int(t, arg, &pgrp) < 0)
        return -EFAULT;
    if (pgrp < 0)
        return -EINVAL;
    bool found = false, same_session = false;
    for (struct task *o = t->machine->tasks; o; o = o->next_all) {
        if (o->proc->pgid == pgrp && !o->proc->zombie) {
            found = true;
            same_session |= o->proc->sid == proc->sid;
        }
    }
    if (!found)
        return -ESRCH;
    if (!same_session)
        return -EPERM;
    p->pgrp = pgrp;
    return 0;
}

static int64_t set_winsize(struct task *t, struct pty *p, uint64_t arg)
{
    struct kwinsize ws;
    if (copy_from_guest(task_mm(t), &ws, arg, sizeof ws) < 0)
        return -EFAULT;
    if (memcmp(&ws, &p->winsize, sizeof ws) != 0) {
        p->winsize = ws;
        tty_signal_pgrp(p, SIGWINCH);
    }
    return 0;
}

/* TCFLSH: each end flushes what it would read (TCIFLUSH) or what it wrote
 * and the other end has not read (TCOFLUSH). */
static int64_t flush(struct pty *p, bool master, uint64_t arg)
{
    if (arg > TCIOFLUSH)
        return -EINVAL;
    bool in = arg == TCIFLUSH || arg == TCIOFLUSH, out = arg == TCOFLUSH || arg == TCIOFLUSH;
    if (master ? out : in)
        tty_flush_input(p);
    if (master ? in : out)
        p->output.len = 0;
    return 0;
}

/* The requests only the master takes (pty_unix98_ioctl). */
static int64_t master_only_ioctl(struct task *t, struct pty *p, unsigned long req, uint64_t arg)
{
    int v;
    switch (req) {
    case TIOCGPTN:
        return put_int(t, arg, p->index);
    case TIOCSPTLCK:
        if (get_int(t, arg, &v) < 0)
            return -EFAULT;
        p->locked = v != 0;
        return 0;
    case TIOCGPTLCK:
        return put_int(t, arg, p->locked);
    case TIOCSIG:
        if (arg != SIGINT && arg != SIGQUIT && arg != SIGTSTP)
            return -EINVAL;
        tty_signal_pgrp(p, (int)arg);
        return 0;
    case TIOCGPTPEER: {
        int flags = open_flags_to_host((uint32_t)arg);
        struct file *f;
        int err = open_slave(t, p, NULL, flags | O_NOCTTY, &f);
        if (err < 0)
            return err;
        return fd_install_new(t, f, flags & O_CLOEXEC);
    }
    }
    return -ENOTTY;
}

static int64_t pair_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    struct pty *p = f->priv;
    bool master = is_master(f);
    /* A hung-up slave answers EIO (hung_up_tty_ioctl). */
    if (!master && !p->master_open)
        return req == TIOCSPGRP ? -ENOTTY : -EIO;
    /* Job-control queries on the slave need it to be the caller's terminal. */
    bool own = master || t->proc->ctty == p;
    struct ktermios tio;
    switch (req) {
    case TCGETS:
        return copy_to_guest(task_mm(t), arg, &p->termios, sizeof p->termios);
    case TCSETS:
    case TCSETSW:
    case TCSETSF:
        if (copy_from_guest(task_mm(t), &tio, arg, sizeof tio) < 0)
            return -EFAULT;
        if (req == TCSETSF)
            tty_flush_input(p);
        tty_set_termios(p, &tio);
        return 0;
    case TCSBRK:
    case TCSBRKP:
    case TCXONC:
        return 0; /* nothing waits to be sent, no line to break */
    case TCFLSH:
        return flush(p, master, arg);
    case TIOCGWINSZ:
        return copy_to_guest(task_mm(t), arg, &p->winsize, sizeof p->winsize);
    case TIOCSWINSZ:
        return set_winsize(t, p, arg);
    case FIONREAD:
        return put_int(t, arg, (int)(master ? p->output.len : tty_input_readable(p)));
    case TIOCOUTQ:
        return put_int(t, arg, 0); /* Linux's pty keeps no driver queue */
    case TIOCSCTTY:
        return set_controlling(t, f, p, arg);
    case TIOCNOTTY:
        if (master || t->proc->ctty != p)
            return -ENOTTY;
        if (t->proc->sid == t->proc->pid) {
            tty_signal_pgrp(p, SIGHUP);
            tty_signal_pgrp(p, SIGCONT);
            clear_session(p);
        }
        t->proc->ctty = NULL;
        return 0;
    case TIOCGPGRP:
        return own ? put_int(t, arg, p->pgrp) : -ENOTTY;
    case TIOCSPGRP:
        return set_foreground(t, p, arg);
    case TIOCGSID:
        return own && p->session ? put_int(t, arg, p->session) : -ENOTTY;
    case TIOCGETD:
        return put_int(t, arg, 0); /* N_TTY */
    }
    return master ? master_only_ioctl(t, p, req, arg) : -ENOTTY;
}

static int64_t pty_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    int64_t r = pair_ioctl(t, f, req, arg);
    notify(t, f->priv);
    return r;
}

/* ---- closing ---- */

static void master_release(struct file *f)
{
    struct pty *p = f->priv;
    p->master_open = false;
    hangup(p);
    file_notify(p->machine, p);
    pty_maybe_free(p);
}

static void slave_release(struct file *f)
{
    struct pty *p = f->priv;
    if (--p->slave_files == 0)
        p->slave_closed = true;
    file_notify(p->machine, p);
    pty_maybe_free(p);
}

static int pty_stat(struct file *f, struct stat *st)
{
    vfs_stat_virtual(&f->node, st);
    return 0;
}

static const struct file_ops master_ops = {
    .name = "/dev/ptmx",
    .read = master_read,
    .write = master_write,
    .poll = master_poll,
    .ioctl = pty_ioctl,
    .fasync = true,
    .release = master_release,
    .stat = pty_stat,
    .mode = S_IFCHR | 0666,
};

static const struct file_ops slave_ops = {
    .name = "/dev/pts/",
    .read = slave_read,
    .write = slave_write,
    .poll = slave_poll,
    .ioctl = pty_ioctl,
    .fasync = true,
    .release = slave_release,
    .stat = pty_stat,
    .mode = S_IFCHR | 0620,
};
