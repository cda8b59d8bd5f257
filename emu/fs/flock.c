/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flock.c - advisory file locks kept by the emulated kernel (flock.h). */
#include "abi.h"
#include "file.h"
#include "flock.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "file_access.h"

/* The guest's lock types and commands: the same on arm and arm64. */
#define GUEST_F_RDLCK 0
#define GUEST_F_WRLCK 1
#define GUEST_F_UNLCK 2
#define GUEST_F_GETLK 5
#define GUEST_F_SETLK 6
#define GUEST_F_SETLKW 7
#define GUEST_F_GETLK64 12 /* arm only: struct flock64 */
#define GUEST_F_SETLK64 13
#define GUEST_F_SETLKW64 14
#define GUEST_F_OFD_GETLK 36
#define GUEST_F_OFD_SETLK 37
#define GUEST_F_OFD_SETLKW 38

/* A range that runs to the end of any file ends at Linux's OFFSET_MAX: no
 * byte lies beyond it, and a range that ends there is reported with
 * length 0 whatever its l_len was (posix_lock_to_flock()). */
#define LOCK_END ((uint64_t)INT64_MAX)

/* Linux's lock spaces: flock locks never meet POSIX ones. */
enum lock_space { SPACE_FLOCK, SPACE_POSIX };

struct file_lock {
    struct file_lock *next;
    uint64_t dev, ino;   /* the file */
    enum lock_space space;
    const void *owner;   /* the struct file (flock, OFD) or struct process */
    int pid;             /* F_GETLK's l_pid: the owner, -1 for OFD locks */
    int type;            /* GUEST_F_RDLCK or GUEST_F_WRLCK */
    uint64_t start, end; /* bytes [start, end], inclusive */
};

/* What wakes the tasks waiting for a lock: any lock released. */
static const int lock_waitq;

/* The file's identity: its host inode, or the kernel object behind it. */
static void file_key(const struct file *f, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    if ((f->kind == FILE_HOST || f->kind == FILE_CONSOLE) && fstat(f->host_fd, &st) == 0) {
        *dev = st.st_dev;
        *ino = st.st_ino;
        return;
    }
    *dev = UINT64_MAX;
    *ino = f->kind == FILE_PIPE     ? (uintptr_t)f->pipe
           : f->kind == FILE_OBJECT ? (uintptr_t)f->priv
                                    : (uintptr_t)f;
}

static bool overlaps(const struct file_lock *l, uint64_t start, uint64_t end)
{
    return l->start <= end && start <= l->end;
}

/* The first lock of another owner that keeps want from being taken. */
static struct file_lock *conflict(struct machine *m, const struct file_lock *want)
{
    for (struct file_lock *l = m->locks; l; l = l->next)
        if (l->dev == want->dev && l->ino == want->ino && l->space == want->space &&
            l->owner != want->owner && overlaps(l, want->start, want->end) &&
            (l->type == GUEST_F_WRLCK || want->type == GUEST_F_WRLCK))
            return l;
    return NULL;
}

static void wake_waiters(struct machine *m)
{
    task_wake_all(m, &lock_waitq);
}

/* Removes owner's locks of want's space on want's file within [start, end]
 * (keeping what lies outside, split in two if need be): how many locks it
 * changed, or -ENOMEM. */
static int unlock_range(struct machine *m, const struct file_lock *want)
{
    int changed = 0;
    for (struct file_lock **pp = &m->locks; *pp;) {
        struct file_lock *l = *pp;
        if (l->dev != want->dev || l->ino != want->ino || l->space != want->space ||
            l->owner != want->owner || !overlaps(l, want->start, want->end)) {
            pp = &l->next;
            continue;
        }
        if (l->start < want->start && l->end > want->end) {
            struct file_lock *tail = malloc(sizeof *tail);
            if (!tail)
                return -ENOMEM;
            *tail = *l;
            tail->start = want->end + 1;
            l->end = want->start - 1;
            tail->next = l->next;
            l->next = tail;
            return changed + 1;
        }
        changed++;
        if (l->start < want->start) {
            l->end = want->start - 1;
        } else if (l->end > want->end) {
            l->start = want->end + 1;
        } else {
            *pp = l->next;
            free(l);
            continue;
        }
        pp = &l->next;
    }
    return changed;
}

/* Linux keeps one lock for touching ranges of one owner and type: l (not
 * yet listed) takes over its neighbours. */
static void absorb_neighbours(struct machine *m, struct file_lock *l)
{
    for (struct file_lock **pp = &m->locks; *pp;) {
        struct file_lock *n = *pp;
        bool touches = (n->end != LOCK_END && n->end + 1 == l->start) ||
                       (l->end != LOCK_END && l->end + 1 == n->start);
        if (n->dev == l->dev && n->ino == l->ino && n->space == l->space &&
            n->owner == l->owner && n->type == l->type && touches) {
            l->start = n->start < l->start ? n->start : l->start;
            l->end = n->end > l->end ? n->end : l->end;
            *pp = n->next;
            free(n);
        } else {
            pp = &n->next;
        }
    }
}

/* Takes want (a copy of it), or blocks t until the conflicting lock goes:
 * 0, -EAGAIN when it may not wait, -EBLOCK, or -ERESTARTSYS. */
static int64_t take(struct task *t, const struct file_lock *want, bool wait)
{
    struct machine *m = t->machine;
    if (want->type != GUEST_F_UNLCK && conflict(m, want)) {
        if (!wait)
            return -EAGAIN;
        t->wait_obj = &lock_waitq;
        return -EBLOCK;
    }
    struct file_lock *l = NULL;
    if (want->type != GUEST_F_UNLCK && !(l = malloc(sizeof *l)))
        return -ENOLCK;
    int changed = unlock_range(m, want);
    if (changed < 0) {
        free(l);
        return -ENOLCK;
    }
    if (l) {
        *l = *want;
        absorb_neighbours(m, l);
        l->next = m->locks;
        m->locks = l;
    }
    /* Only a lock that went or shrank (or became shared) can let a waiter
     * in: waking on every call would let two waiters wake each other. */
    if (changed)
        wake_waiters(m);
    return 0;
}

static void drop_where(struct machine *m, bool (*match)(const struct file_lock *, const void *),
                       const void *arg)
{
    for (struct file_lock **pp = &m->locks; *pp;) {
        struct file_lock *l = *pp;
        if (match(l, arg)) {
            *pp = l->next;
            wake_waiters(m);
            free(l);
        } else {
            pp = &l->next;
        }
    }
}

void locks_machine_free(struct machine *m)
{
    while (m->locks) {
        struct file_lock *l = m->locks;
        m->locks = l->next;
        free(l);
    }
}

static bool owned_by(const struct file_lock *l, const void *owner)
{
    return l->owner == owner;
}

void locks_file_released(struct file *f)
{
    if (f->lock_machine)
        drop_where(f->lock_machine, owned_by, f);
}

struct posix_close {
    const struct process *p;
    uint64_t dev, ino;
    bool any_file;
};

static bool closed_by(const struct file_lock *l, const void *arg)
{
    const struct posix_close *c = arg;
    return l->space == SPACE_POSIX && l->owner == c->p &&
           (c->any_file || (l->dev == c->dev && l->ino == c->ino));
}

void locks_process_closed(struct process *p, struct file *f)
{
    if (!p->machine->locks)
        return;
    struct posix_close c = {.p = p, .any_file = !f};
    if (f)
        file_key(f, &c.dev, &c.ino);
    drop_where(p->machine, closed_by, &c);
}

/* flock(fd, operation): LOCK_SH, LOCK_EX or LOCK_UN, with LOCK_NB. A
 * conversion drops the old lock before it waits for the new one, as Linux
 * does. */
SYSCALL_DECL(flock)
{
    struct file *f = file_get_io(t, (int)a[0]);
    if (!f)
        return -EBADF;
    unsigned op = (unsigned)a[1] & ~(unsigned)LOCK_NB;
    struct file_lock want = {.space = SPACE_FLOCK, .owner = f,
                             .pid = t->proc->pid, .start = 0, .end = LOCK_END};
    if (op == LOCK_SH)
        want.type = GUEST_F_RDLCK;
    else if (op == LOCK_EX)
        want.type = GUEST_F_WRLCK;
    else if (op == LOCK_UN)
        want.type = GUEST_F_UNLCK;
    else
        return -EINVAL;
    file_key(f, &want.dev, &want.ino);
    f->lock_machine = t->machine; /* its locks go when it does */
    struct file_lock unlock = want;
    unlock.type = GUEST_F_UNLCK;
    take(t, &unlock, false);
    int64_t r = take(t, &want, !((unsigned)a[1] & LOCK_NB));
    return r == -EAGAIN ? -EWOULDBLOCK : r;
}

bool fcntl_is_lock_cmd(struct task *t, int cmd)
{
    bool flock32 = task_abi(t)->flock32; /* the ABI has the F_*LK64 commands */
    return (cmd >= GUEST_F_GETLK && cmd <= GUEST_F_SETLKW) ||
           (flock32 && cmd >= GUEST_F_GETLK64 && cmd <= GUEST_F_SETLKW64) ||
           (cmd >= GUEST_F_OFD_GETLK && cmd <= GUEST_F_OFD_SETLKW);
}

/* The guest's struct flock: 32-bit offsets only for arm's F_GETLK,
 * F_SETLK and F_SETLKW; otherwise struct flock64 (arm64's struct flock
 * is the same), whose offsets are 8-byte aligned. */
struct guest_flock {
    int16_t type, whence;
    int64_t start, len;
    int32_t pid;
};

/* Their layouts in guest memory. */
struct guest_flock32 {
    int16_t type, whence;
    int32_t start, len, pid;
};

struct guest_flock64 {
    int16_t type, whence;
    int32_t pad;
    int64_t start, len;
    int32_t pid, pad2;
};

static int flock_from_guest(struct task *t, uint64_t addr, bool narrow, struct guest_flock *fl)
{
    if (narrow) {
        struct guest_flock32 g;
        if (copy_from_guest(task_mm(t), &g, addr, sizeof g))
            return -EFAULT;
        *fl = (struct guest_flock){g.type, g.whence, g.start, g.len, g.pid};
        return 0;
    }
    struct guest_flock64 g;
    if (copy_from_guest(task_mm(t), &g, addr, sizeof g))
        return -EFAULT;
    *fl = (struct guest_flock){g.type, g.whence, g.start, g.len, g.pid};
    return 0;
}

/* fixup_compat_flock(): arm's 32-bit F_GETLK answer. A conflicting lock
 * that starts past 2^31-1 is EOVERFLOW; a longer one is reported cut to
 * 2^31-1 bytes. */
static int flock_to_guest(struct task *t, uint64_t addr, bool narrow, const struct guest_flock *fl)
{
    if (narrow) {
        if (fl->start > INT32_MAX)
            return -EOVERFLOW;
        int32_t len = fl->len > INT32_MAX ? INT32_MAX : (int32_t)fl->len;
        struct guest_flock32 g = {fl->type, fl->whence, (int32_t)fl->start, len, fl->pid};
        return copy_to_guest(task_mm(t), addr, &g, sizeof g);
    }
    struct guest_flock64 g = {fl->type, fl->whence, 0, fl->start, fl->len, fl->pid, 0};
    return copy_to_guest(task_mm(t), addr, &g, sizeof g);
}

/* The byte range of fl, as flock64_to_posix_lock() computes it: l_whence's
 * base plus l_start, then l_len bytes (a negative length ends just before
 * l_start, 0 runs to the end of any file). -EOVERFLOW when it would end
 * past OFFSET_MAX (INT64_MAX), -EINVAL when it would start before byte 0;
 * no sum can overflow. */
static int lock_range(struct task *t, int fd, const struct guest_flock *fl, struct file_lock *l)
{
    int64_t base = 0;
    if (fl->whence == SEEK_CUR || fl->whence == SEEK_END) {
        base = do_lseek(t, fd, 0, fl->whence);
        if (base < 0)
            return (int)base;
    } else if (fl->whence != SEEK_SET) {
        return -EINVAL;
    }
    if (fl->start > INT64_MAX - base)
        return -EOVERFLOW;
    int64_t start = base + fl->start;
    if (start < 0)
        return -EINVAL;
    int64_t end = INT64_MAX;
    if (fl->len > 0) {
        if (fl->len - 1 > INT64_MAX - start)
            return -EOVERFLOW;
        end = start + (fl->len - 1);
    } else if (fl->len < 0) {
        if (start + fl->len < 0)
            return -EINVAL;
        end = start - 1;
        start += fl->len;
    }
    l->start = (uint64_t)start;
    l->end = (uint64_t)end;
    return 0;
}

int64_t fcntl_lock(struct task *t, int fd, int cmd, uint64_t arg)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    bool ofd = cmd >= GUEST_F_OFD_GETLK;
    bool narrow = task_abi(t)->flock32 && cmd <= GUEST_F_SETLKW;
    bool get = cmd == GUEST_F_GETLK || cmd == GUEST_F_GETLK64 || cmd == GUEST_F_OFD_GETLK;
    bool wait = cmd == GUEST_F_SETLKW || cmd == GUEST_F_SETLKW64 || cmd == GUEST_F_OFD_SETLKW;
    struct guest_flock fl;
    int err = flock_from_guest(t, arg, narrow, &fl);
    if (err)
        return err;
    if (ofd && fl.pid != 0)
        return -EINVAL;
    if (fl.type != GUEST_F_RDLCK && fl.type != GUEST_F_WRLCK && fl.type != GUEST_F_UNLCK)
        return -EINVAL;
    struct file_lock want = {.space = SPACE_POSIX, .type = fl.type,
                             .owner = ofd ? (const void *)f : t->proc,
                             .pid = ofd ? -1 : t->proc->pid};
    if ((err = lock_range(t, fd, &fl, &want)) < 0)
        return err;
    file_key(f, &want.dev, &want.ino);
    if (get) {
        if (fl.type == GUEST_F_UNLCK)
            return -EINVAL;
        const struct file_lock *l = conflict(t->machine, &want);
        fl.type = l ? (int16_t)l->type : GUEST_F_UNLCK;
        if (l) {
            fl.whence = SEEK_SET;
            fl.start = (int64_t)l->start;
            fl.len = l->end == LOCK_END ? 0 : (int64_t)(l->end - l->start + 1);
            fl.pid = l->pid;
        }
        return flock_to_guest(t, arg, narrow, &fl);
    }
    int accmode = f->flags & O_ACCMODE;
    if ((fl.type == GUEST_F_RDLCK && accmode == O_WRONLY) ||
        (fl.type == GUEST_F_WRLCK && accmode == O_RDONLY))
        return -EBADF;
    if (ofd) /* its locks go when it does */
        f->lock_machine = t->machine;
    return take(t, &want, wait);
}
