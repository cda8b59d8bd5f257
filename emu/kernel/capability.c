/* SPDX-License-Identifier: GPL-2.0-or-later */
/* capability.c - the capability sets of a process (cred.h): capget and
 * capset (kernel/capability.c), the fix-ups at set*uid and execve and the
 * prctl calls (security/commoncap.c), as Linux 5.15 has them. There are no
 * user namespaces and no file capabilities (the guest's files are the
 * host's, whose security.capability attributes asymu does not read). */
#include "cred.h"

#include <errno.h>

#include "mm.h"
#include "syscalls.h"
#include "task.h"

void cred_init_root(struct cred *c)
{
    c->cap = (struct capsets){.prm = CAP_FULL_SET, .eff = CAP_FULL_SET, .bnd = CAP_FULL_SET};
    c->securebits = 0;
}

bool cred_capable(const struct cred *c, int cap)
{
    return cap >= 0 && cap <= CAP_LAST_CAP && (c->cap.eff & CAP_BIT(cap));
}

bool capable(const struct task *t, int cap)
{
    return cred_capable(&t->proc->cred, cap);
}

/* CAP_FS_SET (include/linux/capability.h): what fsuid 0 has meant. */
#define CAP_FS_SET                                                                                 \
    (CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_MKNOD) | CAP_BIT(CAP_DAC_OVERRIDE) |                         \
     CAP_BIT(CAP_DAC_READ_SEARCH) | CAP_BIT(CAP_FOWNER) | CAP_BIT(CAP_FSETID) |                    \
     CAP_BIT(CAP_LINUX_IMMUTABLE) | CAP_BIT(CAP_MAC_OVERRIDE))

static bool any_root(const struct idset *u)
{
    return u->real == 0 || u->eff == 0 || u->saved == 0;
}

void cap_fix_setuid(struct cred *c, const struct idset *old, bool fs_only)
{
    struct capsets *s = &c->cap;
    const struct idset *u = &c->u;
    if (c->securebits & SECBIT_NO_SETUID_FIXUP)
        return;
    if (fs_only) {
        if (old->fs == 0 && u->fs != 0)
            s->eff &= ~CAP_FS_SET;
        else if (old->fs != 0 && u->fs == 0)
            s->eff |= s->prm & CAP_FS_SET;
        return;
    }
    /* cap_emulate_setxuid(): leaving uid 0 altogether drops the permitted
     * and effective sets (unless SECBIT_KEEP_CAPS) and always the ambient
     * one; euid leaving 0 drops the effective set, coming back restores it
     * from the permitted one. */
    if (any_root(old) && !any_root(u)) {
        if (!(c->securebits & SECBIT_KEEP_CAPS))
            s->prm = s->eff = 0;
        s->amb = 0;
    }
    if (old->eff == 0 && u->eff != 0)
        s->eff = 0;
    if (old->eff != 0 && u->eff == 0)
        s->eff = s->prm;
}

bool cap_exec_creds(struct cred *new, const struct cred *old, bool nnp, bool traced_unsafe,
                    bool *undumpable)
{
    bool unsafe = nnp || traced_unsafe;
    struct capsets *s = &new->cap;
    bool effective = false;
    /* get_file_caps(): no file capabilities, so the permitted set starts
     * empty; handle_privileged_root(): root (real or effective, unless
     * SECBIT_NOROOT) gets the bounding and inheritable sets, and an
     * effective set when its euid is 0. */
    s->prm = 0;
    if (!(old->securebits & SECBIT_NOROOT)) {
        if (new->u.eff == 0 || new->u.real == 0)
            s->prm = old->cap.bnd | old->cap.inh;
        effective = new->u.eff == 0;
    }
    bool gained = (s->prm & ~old->cap.prm) != 0;
    /* __is_setuid()/__is_setgid(): the new effective id is not the old
     * real one (no set-id bits here, but a process may run with euid other
     * than its uid). */
    bool is_setid = new->u.eff != old->u.real || new->g.eff != old->g.real;
    if ((is_setid || gained) && unsafe) {
        /* Downgrade: no more than it had. */
        if (!cred_capable(old, CAP_SETUID) || nnp) {
            new->u.eff = new->u.real;
            new->g.eff = new->g.real;
        }
        s->prm &= old->cap.prm;
    }
    new->u.saved = new->u.fs = new->u.eff;
    new->g.saved = new->g.fs = new->g.eff;
    if (is_setid)
        s->amb = 0;
    /* pP' = (X & fP) | (pI & fI) | pA', pE' = fE ? pP' : pA'. */
    s->prm |= s->amb;
    s->eff = effective ? s->prm : s->amb;
    new->securebits &= ~SECBIT_KEEP_CAPS;
    /* begin_new_exec(): dumpable again unless the old euid or egid was not
     * the real one; then commit_creds() takes it away if the effective or
     * file-system ids changed or the permitted set grew. */
    *undumpable = old->u.eff != old->u.real || old->g.eff != old->g.real ||
                      new->u.eff != old->u.eff || new->g.eff != old->g.eff ||
                      new->u.fs != old->u.fs || new->g.fs != old->g.fs ||
                      (s->prm & ~old->cap.prm);
    /* bprm->secureexec: set-id, or a non-root real uid gaining privilege. */
    return is_setid || (new->u.real != 0 && (effective || (s->prm & ~s->amb)));
}

/* ---- prctl ---- */

#define PR_GET_KEEPCAPS 7
#define PR_SET_KEEPCAPS 8
#define PR_CAPBSET_READ 23
#define PR_CAPBSET_DROP 24
#define PR_GET_SECUREBITS 27
#define PR_SET_SECUREBITS 28
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_IS_SET 1
#define PR_CAP_AMBIENT_RAISE 2
#define PR_CAP_AMBIENT_LOWER 3
#define PR_CAP_AMBIENT_CLEAR_ALL 4

/* cap_valid(): the prctl arguments are unsigned long. */
static bool cap_valid(uint64_t cap)
{
    return cap <= CAP_LAST_CAP;
}

/* PR_CAP_AMBIENT: an ambient capability must stay permitted and
 * inheritable (cap_ambient_invariant_ok()). */
static int64_t prctl_ambient(struct cred *c, const uint64_t a[6])
{
    if (a[1] == PR_CAP_AMBIENT_CLEAR_ALL) {
        if (a[2] | a[3] | a[4])
            return -EINVAL;
        c->cap.amb = 0;
        return 0;
    }
    if (!cap_valid(a[2]) || a[3] || a[4])
        return -EINVAL;
    uint64_t bit = CAP_BIT(a[2]);
    switch (a[1]) {
    case PR_CAP_AMBIENT_IS_SET:
        return (c->cap.amb & bit) != 0;
    case PR_CAP_AMBIENT_RAISE:
        if (!(c->cap.prm & bit) || !(c->cap.inh & bit) ||
            (c->securebits & SECBIT_NO_CAP_AMBIENT_RAISE))
            return -EPERM;
        c->cap.amb |= bit;
        return 0;
    case PR_CAP_AMBIENT_LOWER:
        c->cap.amb &= ~bit;
        return 0;
    default:
        return -EINVAL;
    }
}

/* PR_SET_SECUREBITS: CAP_SETPCAP, no locked bit changed, no lock
 * released, no unknown bit. */
static int64_t prctl_securebits(struct cred *c, uint64_t bits)
{
    uint64_t old = c->securebits;
    if ((((old & SECURE_ALL_LOCKS) >> 1) & (old ^ bits)) || (old & SECURE_ALL_LOCKS & ~bits) ||
        (bits & ~(uint64_t)(SECURE_ALL_LOCKS | SECURE_ALL_BITS)) ||
        !cred_capable(c, CAP_SETPCAP))
        return -EPERM;
    c->securebits = (unsigned)bits;
    return 0;
}

int64_t cap_prctl(struct task *t, int option, const uint64_t a[6])
{
    struct cred *c = &t->proc->cred;
    switch (option) {
    case PR_CAPBSET_READ:
        return cap_valid(a[1]) ? (c->cap.bnd & CAP_BIT(a[1])) != 0 : -EINVAL;
    case PR_CAPBSET_DROP: /* cap_prctl_drop() */
        if (!cred_capable(c, CAP_SETPCAP))
            return -EPERM;
        if (!cap_valid(a[1]))
            return -EINVAL;
        c->cap.bnd &= ~CAP_BIT(a[1]);
        return 0;
    case PR_SET_SECUREBITS:
        return prctl_securebits(c, a[1]);
    case PR_GET_SECUREBITS:
        return c->securebits;
    case PR_GET_KEEPCAPS:
        return (c->securebits & SECBIT_KEEP_CAPS) != 0;
    case PR_SET_KEEPCAPS:
        if (a[1] > 1)
            return -EINVAL;
        if (c->securebits & (SECBIT_KEEP_CAPS << 1))
            return -EPERM;
        c->securebits = a[1] ? c->securebits | SECBIT_KEEP_CAPS : c->securebits & ~SECBIT_KEEP_CAPS;
        return 0;
    case PR_CAP_AMBIENT:
        return prctl_ambient(c, a);
    default:
        return -ENOSYS;
    }
}

/* ---- capget, capset ---- */

#define CAP_VERSION_1 0x19980330u /* one 32-bit word per set */
#define CAP_VERSION_2 0x20071026u /* two, as version 3 */
#define CAP_VERSION_3 0x20080522u

/* cap_validate_magic(): the words per set, or an errno; an unknown
 * version is answered with EINVAL after writing version 3 back, how a
 * caller learns the preferred one. */
static int validate_magic(struct task *t, uint64_t header, unsigned *words)
{
    uint32_t version;
    if (copy_from_guest(task_mm(t), &version, header, sizeof version))
        return -EFAULT;
    switch (version) {
    case CAP_VERSION_1:
        *words = 1;
        return 0;
    case CAP_VERSION_2:
    case CAP_VERSION_3:
        *words = 2;
        return 0;
    default:
        version = CAP_VERSION_3;
        return copy_to_guest(task_mm(t), header, &version, sizeof version) ? -EFAULT : -EINVAL;
    }
}

/* struct __user_cap_data_struct: effective, permitted, inheritable. */
struct cap_data {
    uint32_t eff, prm, inh;
};

/* capget(header, data): a NULL data with a bad version is the version
 * probe and returns 0. pid 0 is the caller; another is any thread's. */
SYSCALL_DECL(capget)
{
    unsigned words;
    int err = validate_magic(t, a[0], &words);
    if (!a[1] || err)
        return !a[1] && err == -EINVAL ? 0 : err;
    int32_t pid;
    if (copy_from_guest(task_mm(t), &pid, a[0] + 4, sizeof pid))
        return -EFAULT;
    if (pid < 0)
        return -EINVAL;
    const struct cred *c = &t->proc->cred;
    if (pid && pid != t->tid) {
        struct task *o = task_find_unreaped(t->machine, pid);
        if (!o)
            return -ESRCH;
        c = &o->proc->cred;
    }
    struct cap_data d[2];
    for (unsigned i = 0; i < 2; i++)
        d[i] = (struct cap_data){(uint32_t)(c->cap.eff >> 32 * i), (uint32_t)(c->cap.prm >> 32 * i),
                                 (uint32_t)(c->cap.inh >> 32 * i)};
    return copy_to_guest(task_mm(t), a[1], d, words * sizeof *d) ? -EFAULT : 0;
}

/* capset(header, data): the caller's own sets only (pid 0 or its tid),
 * under cap_capset()'s rules. Version 1 leaves the upper capabilities
 * out, so they are dropped. */
SYSCALL_DECL(capset)
{
    unsigned words;
    int err = validate_magic(t, a[0], &words);
    if (err)
        return err;
    int32_t pid;
    if (copy_from_guest(task_mm(t), &pid, a[0] + 4, sizeof pid))
        return -EFAULT;
    if (pid && pid != t->tid)
        return -EPERM;
    struct cap_data d[2] = {{0}};
    if (copy_from_guest(task_mm(t), d, a[1], words * sizeof *d))
        return -EFAULT;
    uint64_t eff = (d[0].eff | (uint64_t)d[1].eff << 32) & CAP_FULL_SET;
    uint64_t prm = (d[0].prm | (uint64_t)d[1].prm << 32) & CAP_FULL_SET;
    uint64_t inh = (d[0].inh | (uint64_t)d[1].inh << 32) & CAP_FULL_SET;
    struct cred *c = &t->proc->cred;
    /* New inheritable ones come from the permitted set, unless CAP_SETPCAP
     * (cap_inh_is_capped()), and never from outside the bounding set. */
    if (!cred_capable(c, CAP_SETPCAP) && (inh & ~(c->cap.inh | c->cap.prm)))
        return -EPERM;
    if (inh & ~(c->cap.inh | c->cap.bnd))
        return -EPERM;
    if ((prm & ~c->cap.prm) || (eff & ~prm))
        return -EPERM;
    c->cap.eff = eff;
    c->cap.prm = prm;
    c->cap.inh = inh;
    c->cap.amb &= prm & inh;
    return 0;
}
