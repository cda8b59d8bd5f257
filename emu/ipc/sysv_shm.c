/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv_shm.c - System V shared memory: shmget and shmctl keep the
 * segments' books (size, owner, times, nattch, SHM_DEST, SHM_LOCKED) and
 * /proc/sysvipc/shm shows them; a segment's memory is a shared memory
 * object (shmem.h) that shmat maps like MAP_SHARED memory. */
#include "abi.h"
#include "machine.h"
#include "mm.h"
#include "shmem.h"
#include "syscalls.h"
#include "sysv_ipc.h"
#include "task.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SHM_PAGE 4096
#define SHMMIN 1
#define SHM_DEST 01000
#define SHM_LOCKED 02000
#define SHM_LOCK 11
#define SHM_UNLOCK 12
#define SHM_STAT 13
#define SHM_INFO 14
#define SHM_STAT_ANY 15

#define GUEST_SHM_RDONLY 010000
#define GUEST_SHM_RND 020000
#define GUEST_SHM_REMAP 040000
#define GUEST_SHM_EXEC 0100000

struct shm_seg {
    struct ipc_obj perm; /* first: the table holds it */
    uint64_t size;
    int cpid, lpid;
    int64_t atime, dtime, ctime;
    struct shmem *mem;   /* its memory: one reference is the segment's, the
                          * others are mappings (VMAs), so nattch counts
                          * VMAs as Linux's does (a split one counts twice) */
    struct sysv_ipc *ns;
    struct machine *machine;
};

static uint64_t seg_nattch(const struct shm_seg *s)
{
    return (uint64_t)s->mem->refs - 1;
}

static uint64_t seg_pages(const struct shm_seg *s)
{
    return (s->size + SHM_PAGE - 1) / SHM_PAGE;
}

static void seg_free(struct sysv_ipc *ns, struct shm_seg *s)
{
    ns->shm_pages -= seg_pages(s);
    ipc_remove(&ns->shm, &s->perm);
    s->mem->unmapped = NULL;
    shmem_put(s->mem); /* mappings left (at machine shutdown) keep it */
    free(s);
}

/* A mapping of the segment went (shmdt, munmap, exit, exec): the last one
 * destroys a segment marked for it. */
static void seg_unmapped(struct shmem *mem)
{
    struct shm_seg *s = mem->owner;
    s->dtime = ipc_now(s->machine);
    if (seg_nattch(s) == 0 && (s->perm.mode & SHM_DEST))
        seg_free(s->ns, s);
}

void shm_free_all(struct sysv_ipc *ns)
{
    for (int i = 0; i <= ns->shm.max_idx; i++)
        if (ns->shm.slot[i])
            seg_free(ns, (struct shm_seg *)ns->shm.slot[i]);
}

static int shm_more_checks(struct ipc_obj *o, uint64_t size)
{
    return ((struct shm_seg *)o)->size < size ? -EINVAL : 0;
}

static int shm_create_check(struct sysv_ipc *ns, uint64_t size)
{
    const struct sysctl_limits *l = &ns->machine->limits;
    if (size < SHMMIN || size > l->shmmax)
        return -EINVAL;
    uint64_t pages = (size + SHM_PAGE - 1) / SHM_PAGE;
    if (ns->shm_pages + pages < ns->shm_pages || ns->shm_pages + pages > l->shmall)
        return -ENOSPC;
    return 0;
}

/* shmget(key, size, shmflg) */
SYSCALL_DECL(shmget)
{
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    uint64_t size = abi_ulong(task_abi(t), a[1]);
    struct ipc_get g = {
        .key = (int32_t)a[0],
        .flags = (int)a[2],
        .size = sizeof(struct shm_seg),
        .more_checks = shm_more_checks,
        .create_check = shm_create_check,
        .arg = size,
        .limit = t->machine->limits.shmmni,
    };
    struct ipc_obj *o;
    bool created;
    int64_t id = ipc_get(t, &ns->shm, &g, &o, &created);
    if (id >= 0 && created) {
        struct shm_seg *s = (struct shm_seg *)o;
        int err;
        s->size = size;
        s->cpid = t->proc->pid;
        s->ctime = ipc_now(t->machine);
        s->ns = ns;
        s->machine = t->machine;
        ns->shm_pages += seg_pages(s);
        if (!(s->mem = shmem_anon(t->machine, seg_pages(s) * SHM_PAGE, &err))) {
            ns->shm_pages -= seg_pages(s);
            ipc_remove(&ns->shm, &s->perm);
            free(s);
            return err;
        }
        s->mem->owner = s;
        s->mem->unmapped = seg_unmapped;
    }
    return id;
}

/* SHMLBA: the alignment SHM_RND rounds to (a 32-bit task's is 4 pages,
 * as on arm64's compat side). */
static uint64_t shmlba(struct task *t)
{
    return task_abi(t)->sysv.shmlba;
}

/* shmat(shmid, shmaddr, shmflg): the segment mapped shared, read-only with
 * SHM_RDONLY, at shmaddr (rounded down with SHM_RND; replacing what is
 * there only with SHM_REMAP) or where there is room. */
SYSCALL_DECL(shmat)
{
    int id = (int)a[0], flags = (int)a[2];
    uint64_t addr = a[1];
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    if (id < 0)
        return -EINVAL;
    if (addr) {
        if (addr % shmlba(t)) {
            if (!(flags & GUEST_SHM_RND))
                return -EINVAL;
            addr -= addr % shmlba(t);
            if (!addr)
                return -EINVAL;
        }
    } else if (flags & GUEST_SHM_REMAP) {
        return -EINVAL;
    }
    struct shm_seg *s = (struct shm_seg *)ipc_lookup(&ns->shm, id);
    if (!s)
        return -EINVAL;
    bool rdonly = flags & GUEST_SHM_RDONLY;
    if (!ipc_allowed(t, &s->perm, rdonly ? 0444 : 0666) ||
        ((flags & GUEST_SHM_EXEC) && !ipc_allowed(t, &s->perm, 0111)))
        return -EACCES;
    struct mm *mm = task_mm(t);
    uint64_t len = seg_pages(s) * SHM_PAGE;
    if (!addr)
        addr = mm_find_free(mm, 0, len);
    else if (!(flags & GUEST_SHM_REMAP) && mm_find_free(mm, addr, len) != addr)
        return -EINVAL;
    if (!addr || addr + len > mm->limit)
        return -ENOMEM;
    int prot = PROT_READ | (rdonly ? 0 : PROT_WRITE) | (flags & GUEST_SHM_EXEC ? PROT_EXEC : 0);
    char name[32];
    snprintf(name, sizeof name, "/SYSV%08x (deleted)", (unsigned)s->perm.key);
    struct vma_origin origin = {.path = name, .dev = s->mem->dev, .ino = s->mem->ino,
                                .shared_ro = rdonly};
    int err = mm_map_shared(mm, addr, len, prot, &origin, s->mem, 0);
    if (err < 0)
        return err;
    s->atime = ipc_now(t->machine);
    s->lpid = t->proc->pid;
    return (int64_t)addr;
}

/* The segment a VMA maps, if it maps one. */
static struct shm_seg *seg_of(const struct vma *v)
{
    return v && v->shm && v->shm->unmapped == seg_unmapped ? v->shm->owner : NULL;
}

/* shmdt(shmaddr): unmaps the segment attached at shmaddr, every piece of it
 * (mprotect may have split it) up to its size. */
SYSCALL_DECL(shmdt)
{
    struct mm *mm = task_mm(t);
    uint64_t addr = a[0];
    const struct vma *v = mm_find_vma(mm, addr);
    struct shm_seg *s = seg_of(v);
    if (addr % SHM_PAGE || !s || v->start != addr || v->shm_off != 0)
        return -EINVAL;
    uint64_t end = addr + seg_pages(s) * SHM_PAGE, stop = addr;
    while ((v = mm_find_vma(mm, stop)) && v->shm == s->mem && v->start < end &&
           v->shm_off == v->start - addr)
        stop = v->end;
    s->lpid = t->proc->pid;
    return mm_unmap(mm, addr, stop - addr); /* the last detach may free s */
}

/* ---- shmctl ---- */

static int64_t shm_ipc_info(struct task *t, struct sysv_ipc *ns, uint64_t buf)
{
    struct ipc_buf g = ipc_buf_new(t);
    const struct sysctl_limits *l = &t->machine->limits;
    /* struct shminfo64; a 32-bit task sees shmmax clamped to INT_MAX
     * (copy_compat_shminfo_to_user) */
    uint64_t cap = task_abi(t)->sysv.shmmax_cap;
    ipc_buf_word(&g, l->shmmax <= cap ? l->shmmax : cap);
    ipc_buf_word(&g, SHMMIN);
    ipc_buf_word(&g, (uint64_t)l->shmmni);
    ipc_buf_word(&g, (uint64_t)l->shmmni); /* shmseg */
    ipc_buf_word(&g, l->shmall);
    for (int i = 0; i < 4; i++)
        ipc_buf_word(&g, 0);
    if (copy_to_guest(task_mm(t), buf, g.b, g.n) < 0)
        return -EFAULT;
    return ipc_info_result(&ns->shm);
}

static int64_t shm_info(struct task *t, struct sysv_ipc *ns, uint64_t buf)
{
    struct ipc_buf g = ipc_buf_new(t);
    ipc_buf_u32(&g, (uint32_t)ns->shm.in_use); /* used_ids */
    ipc_buf_word(&g, ns->shm_pages);           /* shm_tot */
    for (int i = 0; i < 4; i++)
        ipc_buf_word(&g, 0); /* rss, swp, swap_attempts, swap_successes: nothing is touched */
    if (copy_to_guest(task_mm(t), buf, g.b, g.n) < 0)
        return -EFAULT;
    return ipc_info_result(&ns->shm);
}

static int64_t shm_stat(struct task *t, struct sysv_ipc *ns, int id, int cmd, uint64_t buf)
{
    int err;
    struct shm_seg *s = (struct shm_seg *)ipc_stat_obtain(t, &ns->shm, id, cmd, SHM_STAT_ANY, &err);
    if (!s)
        return err;
    struct ipc_buf g = ipc_buf_start(t, &s->perm);
    ipc_buf_word(&g, s->size);
    ipc_buf_time(&g, s->atime);
    ipc_buf_time(&g, s->dtime);
    ipc_buf_time(&g, s->ctime);
    ipc_buf_u32(&g, (uint32_t)s->cpid);
    ipc_buf_u32(&g, (uint32_t)s->lpid);
    ipc_buf_word(&g, seg_nattch(s));
    ipc_buf_word(&g, 0);
    ipc_buf_word(&g, 0);
    return ipc_stat_done(t, buf, &g, cmd, &s->perm);
}

/* The size of the guest's struct shmid64_ds. */
static size_t shmid_ds_size(struct task *t)
{
    return ipc_perm_size(t) + task_abi(t)->sysv.shm_tail;
}

static int64_t shm_down(struct task *t, struct sysv_ipc *ns, int id, int cmd, uint64_t buf)
{
    struct ipc_set set;
    int err;
    struct shm_seg *s = (struct shm_seg *)ipc_ctl_obtain(t, &ns->shm, id, cmd, buf,
                                                         shmid_ds_size(t), &set, NULL, 0, &err);
    if (!s)
        return err;
    if (cmd == GUEST_IPC_SET) {
        if (!(err = ipc_update_perm(&s->perm, &set)))
            s->ctime = ipc_now(t->machine);
        return err;
    }
    if (seg_nattch(s)) {
        /* destroyed at the last detach; its key is free for a new segment */
        s->perm.mode |= SHM_DEST;
        s->perm.key = IPC_PRIVATE_KEY;
    } else {
        seg_free(ns, s);
    }
    return 0;
}

/* shmctl_do_lock(): without CAP_IPC_LOCK, only the owner or creator, and
 * SHM_LOCK only under a RLIMIT_MEMLOCK above 0. */
static int64_t shm_lock(struct task *t, struct sysv_ipc *ns, int id, int cmd)
{
    struct ipc_obj *s = ipc_lookup(&ns->shm, id);
    if (!s)
        return -EINVAL;
    if (!capable(t, CAP_IPC_LOCK)) {
        uint32_t euid = t->proc->cred.u.eff;
        if (euid != s->uid && euid != s->cuid)
            return -EPERM;
        if (cmd == SHM_LOCK && t->proc->rlim[RLIMIT_MEMLOCK].cur == 0)
            return -EPERM;
    }
    if (cmd == SHM_LOCK)
        s->mode |= SHM_LOCKED;
    else
        s->mode &= ~(unsigned)SHM_LOCKED;
    return 0;
}

/* shmctl(shmid, cmd, buf) */
SYSCALL_DECL(shmctl)
{
    int id = (int)a[0], cmd = (int)a[1];
    if (cmd < 0 || id < 0)
        return -EINVAL;
    struct sysv_ipc *ns = sysv_ipc_of(t->machine);
    if (!ns)
        return -ENOMEM;
    bool v64 = ipc_parse_version(t, &cmd);
    switch (cmd) {
    case GUEST_IPC_INFO:
        return v64 ? shm_ipc_info(t, ns, a[2]) : -EINVAL;
    case SHM_INFO:
        return shm_info(t, ns, a[2]);
    case GUEST_IPC_STAT:
    case SHM_STAT:
    case SHM_STAT_ANY:
        return v64 ? shm_stat(t, ns, id, cmd, a[2]) : -EINVAL;
    case GUEST_IPC_SET:
        if (!v64)
            return -EINVAL;
        /* fall through */
    case GUEST_IPC_RMID:
        return shm_down(t, ns, id, cmd, a[2]);
    case SHM_LOCK:
    case SHM_UNLOCK:
        return shm_lock(t, ns, id, cmd);
    default:
        return -EINVAL;
    }
}

/* ---- /proc/sysvipc/shm ---- */

int shm_proc(struct sysv_ipc *ns, FILE *out)
{
    fprintf(out, "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n");
    for (int i = 0; i <= ns->shm.max_idx; i++) {
        const struct shm_seg *s = (const struct shm_seg *)ns->shm.slot[i];
        if (!s)
            continue;
        fprintf(out,
                "%10d %10d  %4o %21llu %5u %5u %5llu %5u %5u %5u %5u %10llu %10llu %10llu %21llu "
                "%21llu\n",
                s->perm.key, s->perm.id, s->perm.mode, (unsigned long long)s->size,
                (unsigned)s->cpid, (unsigned)s->lpid, (unsigned long long)seg_nattch(s), s->perm.uid,
                s->perm.gid, s->perm.cuid, s->perm.cgid, (unsigned long long)s->atime,
                (unsigned long long)s->dtime, (unsigned long long)s->ctime, 0ULL, 0ULL);
    }
    return 0;
}
