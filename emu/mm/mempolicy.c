/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mempolicy.c - NUMA memory policies on a machine of one node, as Linux
 * 5.15's mm/mempolicy.c (set_mempolicy, get_mempolicy, mbind,
 * migrate_pages) and mm/migrate.c (move_pages) answer them on arm64 with
 * MAX_NUMNODES 16 (defconfig's NODES_SHIFT 4) and nr_node_ids 1. Every
 * page is on node 0, so nothing ever moves: the policies are checked as
 * Linux checks them, kept (per thread, inherited at fork; per VMA for
 * mbind, in the VMA's flags word) and reported back.
 *
 * A policy is one word: its mode, its MPOL_F_ mode flags and a node mask,
 * the one get_mempolicy reports (the caller's for MPOL_F_STATIC_NODES and
 * MPOL_F_RELATIVE_NODES, else the policy's nodes: {0}, or none for
 * MPOL_LOCAL). 0 is no policy (MPOL_DEFAULT). */
#include "abi.h"
#include "abi_user.h"
#include "cred.h"
#include "mm.h"
#include "page.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MPOL_LOCAL 4
#define MPOL_MAX 6 /* MPOL_PREFERRED_MANY (5) is new in 5.15 */
#define MPOL_F_STATIC_NODES (1 << 15)
#define MPOL_F_RELATIVE_NODES (1 << 14)
#define MPOL_F_NUMA_BALANCING (1 << 13)
#define MPOL_MODE_FLAGS (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | MPOL_F_NUMA_BALANCING)
#define MPOL_F_NODE 1
#define MPOL_F_ADDR 2
#define MPOL_F_MEMS_ALLOWED 4
#define MPOL_MF_STRICT 1
#define MPOL_MF_MOVE 2
#define MPOL_MF_MOVE_ALL 4
#define MPOL_MF_VALID (MPOL_MF_STRICT | MPOL_MF_MOVE | MPOL_MF_MOVE_ALL)

#define MAX_NUMNODES 16
#define NODES_ALL ((1u << MAX_NUMNODES) - 1)

/* The policy word: mode in bits 0-2, MPOL_MODE_FLAGS >> 13 in 3-5, the
 * reported nodes in 6-21 (22 bits: VMA_MPOL_MASK holds it). */
#define W_MODE 7u
#define W_FLAGS_SHIFT 3
#define W_NODES_SHIFT 6

static unsigned word_mode(uint32_t w) { return w & W_MODE; }
static unsigned word_flags(uint32_t w) { return ((w >> W_FLAGS_SHIFT) & 7u) << 13; }
static uint32_t word_nodes(uint32_t w) { return (w >> W_NODES_SHIFT) & NODES_ALL; }

/* sanitize_mpol_flags(): the mode and its flags apart. */
static int sanitize(int64_t arg, int *mode, unsigned *flags)
{
    int m = (int)arg;
    *flags = (unsigned)m & MPOL_MODE_FLAGS;
    m &= ~MPOL_MODE_FLAGS;
    if ((unsigned)m >= MPOL_MAX)
        return -EINVAL;
    if ((*flags & MPOL_F_STATIC_NODES) && (*flags & MPOL_F_RELATIVE_NODES))
        return -EINVAL;
    if ((*flags & MPOL_F_NUMA_BALANCING) && m != MPOL_BIND)
        return -EINVAL;
    *mode = m;
    return 0;
}

/* get_nodes(): maxnode - 1 bits from the guest, in longs of the task's
 * ABI; bits from MAX_NUMNODES on must be clear. */
static int get_nodes(struct task *t, uint64_t addr, uint64_t maxnode, uint32_t *nodes)
{
    *nodes = 0;
    maxnode--;
    if (maxnode == 0 || !addr)
        return 0;
    if (maxnode > PAGE * 8)
        return -EINVAL;
    uint64_t long_bits = 8 * abi_longs_size(t, 1);
    size_t bytes = abi_longs_size(t, (unsigned)((maxnode + long_bits - 1) / long_bits));
    uint8_t buf[PAGE + 8];
    if (copy_from_guest(task_mm(t), buf, addr, bytes) < 0)
        return -EFAULT;
    for (uint64_t b = MAX_NUMNODES; b < maxnode; b++)
        if (buf[b / 8] >> (b % 8) & 1)
            return -EINVAL;
    for (unsigned b = 0; b < MAX_NUMNODES && b < maxnode; b++)
        if (buf[b / 8] >> (b % 8) & 1)
            *nodes |= 1u << b;
    return 0;
}

/* copy_nodes_to_user(): ALIGN(maxnode - 1, 64) / 8 bytes, of which those
 * past nr_node_ids' longs are cleared; a compat task's mask is written in
 * 32-bit words (compat_put_bitmap), one at least: abi->nodemask_words. */
static int put_nodes(struct task *t, uint64_t addr, uint64_t maxnode, uint32_t nodes)
{
    unsigned nbytes = (unsigned)abi_longs_size(t, 1); /* nr_node_ids (1) in longs */
    bool compat = task_abi(t)->nodemask_words;
    uint64_t copy = maxnode - 1 > PAGE * 8 ? PAGE + 1 : (maxnode - 1 + 63) / 64 * 8;
    if (copy > nbytes) {
        if (copy > PAGE)
            return -EINVAL;
        static const uint8_t zero[PAGE];
        if (copy_to_guest(task_mm(t), addr + nbytes, zero, (size_t)(copy - nbytes)) < 0)
            return -EFAULT;
        copy = nbytes;
        maxnode = 1;
    }
    uint64_t bits = nodes;
    if (compat)
        copy = (maxnode + 31) / 32 * 4;
    return copy_to_guest(task_mm(t), addr, &bits, (size_t)copy) < 0 ? -EFAULT : 0;
}

/* mpol_new() and mpol_set_nodemask() on a machine whose only node is 0:
 * the policy word, or -EINVAL. */
static int make_policy(int mode, unsigned flags, uint32_t nodes, uint32_t *word)
{
    bool user_mask = flags & (MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES);
    *word = 0;
    if (mode == MPOL_DEFAULT)
        return nodes ? -EINVAL : 0;
    if (mode == MPOL_PREFERRED && !nodes) {
        if (user_mask)
            return -EINVAL;
        mode = MPOL_LOCAL; /* 5.15: an empty preferred mask is local */
    } else if (mode == MPOL_LOCAL) {
        if (nodes || user_mask)
            return -EINVAL;
    } else if (!nodes) {
        return -EINVAL;
    }
    uint32_t eff = 0;
    if (mode != MPOL_LOCAL) {
        /* the mask within the allowed nodes {0}; a relative one is folded
         * onto them (mpol_relative_nodemask) */
        eff = (flags & MPOL_F_RELATIVE_NODES) ? 1u : (nodes & 1u);
        if (!eff)
            return -EINVAL;
    }
    *word = (uint32_t)mode | (flags >> 13) << W_FLAGS_SHIFT | (user_mask ? nodes : eff)
                                                                   << W_NODES_SHIFT;
    return 0;
}

SYSCALL_DECL(set_mempolicy)
{
    int mode;
    unsigned flags;
    uint32_t nodes, word;
    int err = sanitize((int64_t)a[0], &mode, &flags);
    if (!err)
        err = get_nodes(t, a[1], a[2], &nodes);
    if (!err)
        err = make_policy(mode, flags, nodes, &word);
    if (!err)
        t->mempolicy = word;
    return err;
}

/* do_get_mempolicy() and kernel_get_mempolicy(). */
SYSCALL_DECL(get_mempolicy)
{
    uint64_t policy_at = a[0], nmask = a[1], maxnode = a[2], addr = a[3], flags = a[4];
    if (nmask && maxnode < 1 /* nr_node_ids */)
        return -EINVAL;
    if (flags & ~(uint64_t)(MPOL_F_NODE | MPOL_F_ADDR | MPOL_F_MEMS_ALLOWED))
        return -EINVAL;
    int32_t policy;
    uint32_t nodes;
    if (flags & MPOL_F_MEMS_ALLOWED) {
        if (flags & (MPOL_F_NODE | MPOL_F_ADDR))
            return -EINVAL;
        policy = 0;
        nodes = 1; /* cpuset_current_mems_allowed */
    } else {
        uint32_t w = t->mempolicy;
        const struct vma *v = NULL;
        if (flags & MPOL_F_ADDR) {
            if (!(v = mm_find_vma(task_mm(t), addr)))
                return -EFAULT;
            w = v->fork >> VMA_MPOL_SHIFT;
        } else if (addr) {
            return -EINVAL;
        }
        if (flags & MPOL_F_NODE) {
            if (flags & MPOL_F_ADDR) {
                /* lookup_node(): get_user_pages faults the page in, which
                 * needs read access (check_vma_flags) */
                if (!(v->prot & PROT_READ))
                    return -EFAULT;
                policy = 0;
            } else if (w && word_mode(w) == MPOL_INTERLEAVE) {
                policy = 0; /* next_node_in(il_prev, nodes) */
            } else {
                return -EINVAL;
            }
        } else {
            policy = (int32_t)(word_mode(w) | word_flags(w));
        }
        nodes = word_nodes(w);
    }
    if (policy_at && copy_to_guest(task_mm(t), policy_at, &policy, sizeof policy) < 0)
        return -EFAULT;
    return nmask ? put_nodes(t, nmask, maxnode, nodes) : 0;
}

/* kernel_mbind() and do_mbind(): a policy for the VMAs of a range. A hole
 * in the range is EFAULT, except for MPOL_DEFAULT, which only needs one
 * mapping in it (queue_pages_range). Nothing moves: every page is already
 * on node 0, so MPOL_MF_STRICT finds none misplaced. */
SYSCALL_DECL(mbind)
{
    uint64_t start = a[0], len = a[1], maxnode = a[4], mflags = (uint32_t)a[5];
    int mode;
    unsigned flags;
    uint32_t nodes, word;
    int err = sanitize((int64_t)a[2], &mode, &flags);
    if (!err)
        err = get_nodes(t, a[3], maxnode, &nodes);
    if (err)
        return err;
    if (mflags & ~(uint64_t)MPOL_MF_VALID)
        return -EINVAL;
    if ((mflags & MPOL_MF_MOVE_ALL) && !capable(t, CAP_SYS_NICE))
        return -EPERM;
    if (start % PAGE)
        return -EINVAL;
    len = PAGE_UP(len);
    uint64_t end = start + len;
    if (end < start)
        return -EINVAL;
    if (end == start)
        return 0;
    if ((err = make_policy(mode, flags, nodes, &word)))
        return err;
    struct mm *mm = task_mm(t);
    bool any = false;
    uint64_t at = start;
    for (const struct vma *v = mm_vma_from(mm, start); v && v->start < end; v = v->next) {
        if (v->start > at && word)
            return -EFAULT;
        any = true;
        at = v->end;
    }
    if (!any || (at < end && word))
        return -EFAULT;
    /* mbind_range(): the old policy off, the new one on (mm_set_fork
     * sets before it clears) */
    err = mm_set_fork(mm, start, len, 0, VMA_MPOL_MASK);
    return err ? err : mm_set_fork(mm, start, len, word << VMA_MPOL_SHIFT, 0);
}

/* find_mm_struct(): pid 0 is the caller; another process needs
 * ptrace_may_access(PTRACE_MODE_READ_REALCREDS). */
static struct process *target_of(struct task *t, int pid, int *err)
{
    if (pid == 0)
        return t->proc;
    struct task *o = task_find(t->machine, pid);
    if (!o) {
        *err = -ESRCH;
        return NULL;
    }
    if (!cred_may_access(t->proc, o->proc)) {
        *err = -EPERM;
        return NULL;
    }
    if (!o->proc->mm) {
        *err = -EINVAL;
        return NULL;
    }
    return o->proc;
}

/* kernel_migrate_pages(): the new nodes must meet the allowed ones ({0});
 * do_migrate_pages then moves nothing and 0 pages are left behind. */
SYSCALL_DECL(migrate_pages)
{
    uint32_t old_nodes, new_nodes;
    int err = get_nodes(t, a[2], a[1], &old_nodes);
    if (!err)
        err = get_nodes(t, a[3], a[1], &new_nodes);
    if (err)
        return err;
    if (!target_of(t, (int)a[0], &err))
        return err;
    if ((new_nodes & ~1u) && !capable(t, CAP_SYS_NICE))
        return -EPERM;
    return (new_nodes & 1u) ? 0 : -EINVAL;
}

/* kernel_move_pages(): with nodes, do_pages_move (each target node must
 * have memory: -ENODEV for the whole call, else each page's status is
 * its node or -EFAULT); without, do_pages_stat (each page's node, or
 * -EFAULT outside a mapping). A mapped page counts as present: guest
 * memory has no residency to tell an untouched page (-ENOENT) apart. */
SYSCALL_DECL(move_pages)
{
    uint64_t nr = a[1], pages = a[2], nodes_at = a[3], status = a[4], flags = (uint32_t)a[5];
    if (flags & ~(uint64_t)(MPOL_MF_MOVE | MPOL_MF_MOVE_ALL))
        return -EINVAL;
    if ((flags & MPOL_MF_MOVE_ALL) && !capable(t, CAP_SYS_NICE))
        return -EPERM;
    int err = 0;
    struct process *p = target_of(t, (int)a[0], &err);
    if (!p)
        return err;
    nr = abi_ulong(task_abi(t), nr); /* unsigned long nr_pages */
    for (uint64_t i = 0; i < nr; i++) {
        uint64_t addr = 0;
        if (get_user_ulongs(t, pages + i * abi_longs_size(t, 1), &addr, 1) < 0)
            return -EFAULT;
        int32_t st;
        if (nodes_at) {
            int32_t node;
            if (copy_from_guest(task_mm(t), &node, nodes_at + i * 4, 4) < 0)
                return -EFAULT;
            if (node < 0 || node >= MAX_NUMNODES || node != 0)
                return -ENODEV;
        }
        const struct vma *v = mm_find_vma(p->mm, addr);
        st = v ? 0 : -EFAULT;
        if (copy_to_guest(task_mm(t), status + i * 4, &st, 4) < 0)
            return -EFAULT;
    }
    return 0;
}
