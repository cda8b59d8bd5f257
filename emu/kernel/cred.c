/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cred.c - user and group ids: the get/set*id calls and the supplementary
 * groups (cred.h). */
#include "cred.h"

#include <errno.h>
#include <stdlib.h>

#include "mm.h"
#include "syscalls.h"
#include "task.h"

/* (uid_t)-1: "leave unchanged" to setre*id and setres*id, invalid elsewhere. */
#define ID_KEEP UINT32_MAX

void cred_copy(struct cred *dst, const struct cred *src)
{
    *dst = *src;
    if (dst->groups)
        dst->groups->refs++;
}

void cred_release(struct cred *c)
{
    if (c->groups && --c->groups->refs == 0)
        free(c->groups);
    c->groups = NULL;
}

bool cred_in_group(const struct cred *c, uint32_t gid)
{
    if (c->g.fs == gid)
        return true;
    for (unsigned i = 0; c->groups && i < c->groups->n; i++)
        if (c->groups->gid[i] == gid)
            return true;
    return false;
}

/* CAP_SETUID for the uids, CAP_SETGID for the gids and the groups: in the
 * effective set, which cap_fix_setuid() empties when euid leaves 0 and
 * fills again when it comes back. */
static bool may_set_ids(const struct task *t, const struct idset *s)
{
    return capable(t, s == &t->proc->cred.u ? CAP_SETUID : CAP_SETGID);
}

/* commit_creds(): a change of the effective or file-system ids makes the
 * process undumpable (fs.suid_dumpable is 0). */
static int64_t committed(struct task *t, const struct idset *old, const struct idset *now,
                         int64_t ret)
{
    if (old->eff != now->eff || old->fs != now->fs)
        t->proc->undumpable = true;
    return ret;
}

/* security_task_fix_setuid() after a uid call that succeeded: the
 * capability sets follow the uids (capability.c). */
static int64_t fixed(struct task *t, const struct idset *old, int64_t ret, bool fs_only)
{
    if (ret >= 0)
        cap_fix_setuid(&t->proc->cred, old, fs_only);
    return committed(t, old, &t->proc->cred.u, ret);
}

static bool is_current(const struct idset *s, uint32_t id)
{
    return id == s->real || id == s->eff || id == s->saved;
}

/* setuid/setgid: a privileged caller sets all four, another may only
 * switch its effective id to its real or saved one. */
static int64_t set_id(struct task *t, struct idset *s, uint32_t id)
{
    if (id == ID_KEEP)
        return -EINVAL;
    if (may_set_ids(t, s)) {
        s->real = s->saved = id;
    } else if (id != s->real && id != s->saved) {
        return -EPERM;
    }
    s->eff = s->fs = id;
    return 0;
}

/* setreuid/setregid: the real id may become the effective one, the
 * effective any of the three; the saved id follows the effective one when
 * the real id is set or the effective one moves off the real one. */
static int64_t set_re_id(struct task *t, struct idset *s, uint32_t real, uint32_t eff)
{
    bool priv = may_set_ids(t, s);
    if (real != ID_KEEP && !priv && real != s->real && real != s->eff)
        return -EPERM;
    if (eff != ID_KEEP && !priv && !is_current(s, eff))
        return -EPERM;
    uint32_t old_real = s->real;
    if (real != ID_KEEP)
        s->real = real;
    if (eff != ID_KEEP)
        s->eff = eff;
    if (real != ID_KEEP || (eff != ID_KEEP && eff != old_real))
        s->saved = s->eff;
    s->fs = s->eff;
    return 0;
}

/* setresuid/setresgid: unprivileged, each new id must be one of the three. */
static int64_t set_res_id(struct task *t, struct idset *s, uint32_t real, uint32_t eff,
                          uint32_t saved)
{
    if (!may_set_ids(t, s)) {
        if ((real != ID_KEEP && !is_current(s, real)) || (eff != ID_KEEP && !is_current(s, eff)) ||
            (saved != ID_KEEP && !is_current(s, saved)))
            return -EPERM;
    }
    if (real != ID_KEEP)
        s->real = real;
    if (eff != ID_KEEP)
        s->eff = eff;
    if (saved != ID_KEEP)
        s->saved = saved;
    s->fs = s->eff;
    return 0;
}

/* getresuid/getresgid: the three ids, written one after the other as Linux
 * does (a bad second pointer leaves the first written). */
static int64_t get_res_id(struct task *t, const struct idset *s, const uint64_t a[3])
{
    const uint32_t ids[3] = {s->real, s->eff, s->saved};
    for (int i = 0; i < 3; i++)
        if (copy_to_guest(task_mm(t), a[i], &ids[i], sizeof ids[i]))
            return -EFAULT;
    return 0;
}

/* setfsuid/setfsgid: never fail; the old id, changed only to one of the
 * caller's ids unless it is privileged. */
static int64_t set_fs_id(struct task *t, struct idset *s, uint32_t id)
{
    uint32_t old = s->fs;
    if (id != ID_KEEP && (may_set_ids(t, s) || is_current(s, id) || id == s->fs))
        s->fs = id;
    return old;
}

SYSCALL_DECL(getuid)
{
    (void)a;
    return t->proc->cred.u.real;
}

SYSCALL_DECL(geteuid)
{
    (void)a;
    return t->proc->cred.u.eff;
}

SYSCALL_DECL(getgid)
{
    (void)a;
    return t->proc->cred.g.real;
}

SYSCALL_DECL(getegid)
{
    (void)a;
    return t->proc->cred.g.eff;
}

SYSCALL_DECL(setuid)
{
    struct idset old = t->proc->cred.u;
    return fixed(t, &old, set_id(t, &t->proc->cred.u, (uint32_t)a[0]), false);
}

SYSCALL_DECL(setgid)
{
    struct idset old = t->proc->cred.g;
    struct idset *g = &t->proc->cred.g;
    return committed(t, &old, g, set_id(t, g, (uint32_t)a[0]));
}

SYSCALL_DECL(setreuid)
{
    struct idset old = t->proc->cred.u;
    return fixed(t, &old, set_re_id(t, &t->proc->cred.u, (uint32_t)a[0], (uint32_t)a[1]), false);
}

SYSCALL_DECL(setregid)
{
    struct idset old = t->proc->cred.g;
    struct idset *g = &t->proc->cred.g;
    return committed(t, &old, g, set_re_id(t, g, (uint32_t)a[0], (uint32_t)a[1]));
}

SYSCALL_DECL(setresuid)
{
    struct idset old = t->proc->cred.u;
    return fixed(t, &old,
                 set_res_id(t, &t->proc->cred.u, (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]),
                 false);
}

SYSCALL_DECL(setresgid)
{
    struct idset old = t->proc->cred.g;
    struct idset *g = &t->proc->cred.g;
    return committed(t, &old, g, set_res_id(t, g, (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]));
}

SYSCALL_DECL(getresuid)
{
    return get_res_id(t, &t->proc->cred.u, a);
}

SYSCALL_DECL(getresgid)
{
    return get_res_id(t, &t->proc->cred.g, a);
}

SYSCALL_DECL(setfsuid)
{
    struct idset old = t->proc->cred.u;
    int64_t ret = set_fs_id(t, &t->proc->cred.u, (uint32_t)a[0]);
    if (t->proc->cred.u.fs != old.fs)
        cap_fix_setuid(&t->proc->cred, &old, true);
    return committed(t, &old, &t->proc->cred.u, ret);
}

SYSCALL_DECL(setfsgid)
{
    struct idset old = t->proc->cred.g;
    struct idset *g = &t->proc->cred.g;
    return committed(t, &old, g, set_fs_id(t, g, (uint32_t)a[0]));
}

/* getgroups(size, list): the count alone when size is 0, else EINVAL when
 * the list is longer than size. */
int64_t cred_getgroups(struct task *t, int size, uint64_t list,
                       int (*write)(struct task *t, uint64_t list, const uint32_t *gid, unsigned n))
{
    const struct group_list *gl = t->proc->cred.groups;
    unsigned n = gl ? gl->n : 0;
    if (size < 0)
        return -EINVAL;
    if (size == 0 || n == 0)
        return n;
    if (n > (unsigned)size)
        return -EINVAL;
    return write(t, list, gl->gid, n) < 0 ? -EFAULT : (int64_t)n;
}

static int write_gids(struct task *t, uint64_t list, const uint32_t *gid, unsigned n)
{
    return copy_to_guest(task_mm(t), list, gid, (size_t)n * sizeof *gid);
}

SYSCALL_DECL(getgroups)
{
    return cred_getgroups(t, (int)a[0], a[1], write_gids);
}

static int gid_order(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* setgroups(size, list): privileged only; the list is kept sorted, as
 * Linux keeps it (getgroups returns it so). read fills the list from the
 * guest (32-bit gids, or setgroups16's 16-bit ones): 0 or -EFAULT. */
int64_t cred_setgroups(struct task *t, int size, uint64_t list,
                       int (*read)(struct task *t, uint64_t list, uint32_t *gid, unsigned n))
{
    if (!capable(t, CAP_SETGID))
        return -EPERM;
    if ((unsigned)size > GROUPS_MAX)
        return -EINVAL;
    struct group_list *gl = NULL;
    if (size > 0) {
        gl = malloc(sizeof *gl + (size_t)size * sizeof *gl->gid);
        if (!gl)
            return -ENOMEM;
        gl->refs = 1;
        gl->n = (unsigned)size;
        int err = read(t, list, gl->gid, gl->n);
        for (unsigned i = 0; !err && i < gl->n; i++)
            if (gl->gid[i] == ID_KEEP)
                err = -EINVAL;
        if (err) {
            free(gl);
            return err;
        }
        qsort(gl->gid, gl->n, sizeof *gl->gid, gid_order);
    }
    cred_release(&t->proc->cred);
    t->proc->cred.groups = gl;
    return 0;
}

bool cred_may_access(const struct process *caller, const struct process *target)
{
    const struct cred *c = &caller->cred, *o = &target->cred;
    if (caller == target || cred_capable(c, CAP_SYS_PTRACE))
        return true;
    return c->u.real == o->u.real && c->u.real == o->u.eff && c->u.real == o->u.saved &&
           c->g.real == o->g.real && c->g.real == o->g.eff && c->g.real == o->g.saved &&
           !target->undumpable && !(o->cap.prm & ~c->cap.prm);
}

static int read_gids(struct task *t, uint64_t list, uint32_t *gid, unsigned n)
{
    return copy_from_guest(task_mm(t), gid, list, (size_t)n * sizeof *gid);
}

SYSCALL_DECL(setgroups)
{
    return cred_setgroups(t, (int)a[0], a[1], read_gids);
}
