/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv_ipc.c - what System V semaphores, message queues and shared memory
 * share: the machine's namespace, ids and keys (Linux's ipcget, with its
 * cyclic index allocation and sequence numbers), permissions, the guest's
 * ipc64_perm and the /proc files. */
#include "abi.h"
#include "abi_user.h"
#include "cred.h"
#include "machine.h"
#include "mm.h"
#include "mqueue.h"
#include "sysv_ipc.h"
#include "task.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IPC_INDEX_SPAN 32768 /* IPCMNI: id = seq * 32768 + index */
#define IPC_SEQ_MAX (INT32_MAX / IPC_INDEX_SPAN)
#define IPC_MIN_CYCLE 64     /* RADIX_TREE_MAP_SIZE: indexes cycle over at least this many */

static void ids_init(struct ipc_ids *ids)
{
    *ids = (struct ipc_ids){.max_idx = -1, .last_idx = -1};
}

struct sysv_ipc *sysv_ipc_of(struct machine *m)
{
    if (!m->sysv) {
        struct sysv_ipc *ns = calloc(1, sizeof *ns);
        if (!ns)
            return NULL;
        ids_init(&ns->sem);
        ids_init(&ns->msg);
        ids_init(&ns->shm);
        ns->machine = m;
        m->sysv = ns;
    }
    return m->sysv;
}

void sysv_ipc_free(struct machine *m)
{
    struct sysv_ipc *ns = m->sysv;
    if (!ns)
        return;
    sem_free_all(ns);
    msg_free_all(ns);
    shm_free_all(ns);
    free(ns->sem.slot);
    free(ns->msg.slot);
    free(ns->shm.slot);
    free(ns);
    m->sysv = NULL;
}

int64_t ipc_now(struct machine *m)
{
    return (int64_t)(machine_realtime_ns(m) / 1000000000u);
}

/* ---- ids ---- */

/* A free index as idr_alloc_cyclic gives it: after the last one handed
 * out, below max(in_use * 3/2, 64), wrapping to 0; -1 when full. */
static int ids_alloc(struct ipc_ids *ids)
{
    int span = ids->in_use * 3 / 2;
    if (span < IPC_MIN_CYCLE)
        span = IPC_MIN_CYCLE;
    if (span > IPC_INDEX_SPAN)
        span = IPC_INDEX_SPAN;
    if (span > ids->cap) {
        struct ipc_obj **s = realloc(ids->slot, (size_t)span * sizeof *s);
        if (!s)
            return -1;
        memset(s + ids->cap, 0, (size_t)(span - ids->cap) * sizeof *s);
        ids->slot = s;
        ids->cap = span;
    }
    for (int i = 0; i < span; i++) {
        int idx = (ids->last_idx + 1 + i) % span;
        if (!ids->slot[idx])
            return idx;
    }
    return -1;
}

/* ipc_addid(): limit is the kind's *mni sysctl, at most IPCMNI. */
static int ids_add(struct ipc_ids *ids, struct ipc_obj *o, int limit)
{
    if (ids->in_use >= (limit < IPC_INDEX_SPAN ? limit : IPC_INDEX_SPAN))
        return -ENOSPC;
    int idx = ids_alloc(ids);
    if (idx < 0)
        return -ENOSPC;
    if (idx <= ids->last_idx && ++ids->seq > IPC_SEQ_MAX)
        ids->seq = 0;
    ids->last_idx = idx;
    ids->slot[idx] = o;
    ids->in_use++;
    if (idx > ids->max_idx)
        ids->max_idx = idx;
    o->id = ids->seq * IPC_INDEX_SPAN + idx;
    return 0;
}

void ipc_remove(struct ipc_ids *ids, struct ipc_obj *o)
{
    int idx = o->id % IPC_INDEX_SPAN;
    ids->slot[idx] = NULL;
    ids->in_use--;
    while (ids->max_idx >= 0 && !ids->slot[ids->max_idx])
        ids->max_idx--;
}

struct ipc_obj *ipc_at_index(struct ipc_ids *ids, int idx)
{
    return idx >= 0 && idx < ids->cap ? ids->slot[idx] : NULL;
}

struct ipc_obj *ipc_lookup(struct ipc_ids *ids, int id)
{
    if (id < 0)
        return NULL;
    struct ipc_obj *o = ipc_at_index(ids, id % IPC_INDEX_SPAN);
    return o && o->id == id ? o : NULL;
}

int ipc_info_result(const struct ipc_ids *ids)
{
    return ids->max_idx < 0 ? 0 : ids->max_idx;
}

/* ---- permissions ---- */

bool ipc_allowed(struct task *t, const struct ipc_obj *o, unsigned flag)
{
    const struct cred *c = &t->proc->cred;
    if (cred_capable(c, CAP_IPC_OWNER))
        return true;
    unsigned requested = (flag >> 6 | flag >> 3 | flag) & 7, granted = o->mode;
    if (c->u.eff == o->cuid || c->u.eff == o->uid)
        granted >>= 6;
    else if (cred_in_group(c, o->cgid) || cred_in_group(c, o->gid))
        granted >>= 3;
    return !(requested & ~granted & 7);
}

int ipc_update_perm(struct ipc_obj *o, const struct ipc_set *set)
{
    if (set->uid == UINT32_MAX || set->gid == UINT32_MAX)
        return -EINVAL; /* not a valid id in the namespace */
    o->uid = set->uid;
    o->gid = set->gid;
    o->mode = (o->mode & ~0777u) | (set->mode & 0777u);
    return 0;
}

struct ipc_obj *ipc_stat_obtain(struct task *t, struct ipc_ids *ids, int id, int cmd, int stat_any,
                                int *err)
{
    struct ipc_obj *o = cmd == GUEST_IPC_STAT ? ipc_lookup(ids, id) : ipc_at_index(ids, id);
    *err = !o ? -EINVAL : cmd != stat_any && !ipc_allowed(t, o, 0444) ? -EACCES : 0;
    return *err ? NULL : o;
}

int64_t ipc_get(struct task *t, struct ipc_ids *ids, const struct ipc_get *g, struct ipc_obj **out,
                bool *created)
{
    *created = false;
    struct ipc_obj *o = NULL;
    if (g->key != IPC_PRIVATE_KEY)
        for (int i = 0; i <= ids->max_idx && !o; i++)
            if (ids->slot[i] && ids->slot[i]->key == g->key)
                o = ids->slot[i];
    if (o) {
        if ((g->flags & GUEST_IPC_CREAT) && (g->flags & GUEST_IPC_EXCL))
            return -EEXIST;
        int err = g->more_checks ? g->more_checks(o, g->arg) : 0;
        if (err)
            return err;
        if (!ipc_allowed(t, o, (unsigned)g->flags))
            return -EACCES;
        *out = o;
        return o->id;
    }
    if (g->key != IPC_PRIVATE_KEY && !(g->flags & GUEST_IPC_CREAT))
        return -ENOENT;
    int err = g->create_check ? g->create_check(t->machine->sysv, g->arg) : 0;
    if (err)
        return err;
    o = calloc(1, g->size);
    if (!o)
        return -ENOMEM;
    const struct cred *c = &t->proc->cred;
    o->key = g->key;
    o->uid = o->cuid = c->u.eff;
    o->gid = o->cgid = c->g.eff;
    o->mode = (unsigned)g->flags & 0777u;
    err = ids_add(ids, o, g->limit);
    if (err) {
        free(o);
        return err;
    }
    *out = o;
    *created = true;
    return o->id;
}

bool ipc_parse_version(struct task *t, int *cmd)
{
    if (!task_abi(t)->sysv.ipc_64_flag)
        return true; /* arm64 has only the 64-bit structures; IPC_64 is no command */
    bool v64 = *cmd & GUEST_IPC_64;
    *cmd &= ~GUEST_IPC_64;
    return v64;
}

/* ---- guest structures ---- */

static void buf_put(struct ipc_buf *g, const void *v, size_t len)
{
    if (g->n + len <= sizeof g->b) {
        memcpy(g->b + g->n, v, len);
        g->n += len;
    }
}

void ipc_buf_u16(struct ipc_buf *g, uint16_t v)
{
    buf_put(g, &v, sizeof v);
}

void ipc_buf_u32(struct ipc_buf *g, uint32_t v)
{
    buf_put(g, &v, sizeof v);
}

struct ipc_buf ipc_buf_new(struct task *t)
{
    return (struct ipc_buf){.long_size = (unsigned)abi_longs_size(t, 1),
                            .time_high = task_abi(t)->sysv.time_high};
}

void ipc_buf_word(struct ipc_buf *g, uint64_t v)
{
    while (g->n % g->long_size)
        ipc_buf_u16(g, 0); /* sizes here are even: pad to the long */
    buf_put(g, &v, g->long_size); /* its low bytes: little-endian, as both ISAs */
}

void ipc_buf_time(struct ipc_buf *g, int64_t secs)
{
    ipc_buf_word(g, (uint64_t)secs);
    if (g->time_high)
        ipc_buf_word(g, (uint64_t)secs >> 32); /* the *_high word */
}

size_t ipc_perm_size(struct task *t)
{
    return task_abi(t)->sysv.perm_size;
}

struct ipc_buf ipc_buf_start(struct task *t, const struct ipc_obj *o)
{
    struct ipc_buf b = ipc_buf_new(t), *g = &b;
    ipc_buf_u32(g, (uint32_t)o->key);
    ipc_buf_u32(g, o->uid);
    ipc_buf_u32(g, o->gid);
    ipc_buf_u32(g, o->cuid);
    ipc_buf_u32(g, o->cgid);
    /* mode: an unsigned int on arm64, an unsigned short and padding on arm */
    ipc_buf_u32(g, o->mode);
    ipc_buf_u16(g, (uint16_t)(o->id / IPC_INDEX_SPAN)); /* seq */
    ipc_buf_u16(g, 0);
    ipc_buf_word(g, 0);
    ipc_buf_word(g, 0);
    return b;
}

int64_t ipc_stat_done(struct task *t, uint64_t buf, const struct ipc_buf *g, int cmd,
                      const struct ipc_obj *o)
{
    if (copy_to_guest(task_mm(t), buf, g->b, g->n) < 0)
        return -EFAULT;
    return cmd == GUEST_IPC_STAT ? 0 : o->id;
}

/* Reads an IPC_SET's ipc64_perm fields from a guest struct of `len` bytes
 * at addr, and the `after_len` bytes after the perm: 0 or -EFAULT. */
static int read_set(struct task *t, uint64_t addr, size_t len, struct ipc_set *set,
                    uint8_t *after, size_t after_len)
{
    uint8_t b[160];
    size_t perm = ipc_perm_size(t);
    if (len > sizeof b || perm + after_len > len || copy_from_guest(task_mm(t), b, addr, len) < 0)
        return -EFAULT;
    uint16_t m16;
    memcpy(&set->uid, b + 4, 4);
    memcpy(&set->gid, b + 8, 4);
    memcpy(&m16, b + 20, 2); /* the low half of arm64's int: the 0777 bits are there */
    set->mode = m16;
    if (after_len)
        memcpy(after, b + perm, after_len);
    return 0;
}

struct ipc_obj *ipc_ctl_obtain(struct task *t, struct ipc_ids *ids, int id, int cmd, uint64_t buf,
                               size_t len, struct ipc_set *set, uint8_t *after, size_t after_len,
                               int *err)
{
    *err = 0;
    if (cmd == GUEST_IPC_SET && read_set(t, buf, len, set, after, after_len) < 0)
        *err = -EFAULT;
    struct ipc_obj *o = *err ? NULL : ipc_lookup(ids, id);
    uint32_t euid = t->proc->cred.u.eff;
    if (!*err && !o)
        *err = -EINVAL;
    else if (o && euid != o->cuid && euid != o->uid && !capable(t, CAP_SYS_ADMIN))
        *err = -EPERM;
    return *err ? NULL : o;
}

/* ---- hooks ---- */

void sysv_cancel_wait(struct task *t)
{
    if (t->machine->sysv && t->resume && (sem_task_exit(t) || msg_task_exit(t)))
        return;
    if (t->resume)
        mq_task_exit(t); /* POSIX queues (mqueue.c) */
}

void sysv_process_exit(struct process *p)
{
    if (p->machine->sysv)
        sem_process_exit(p);
}

/* ---- /proc ---- */

int sysv_proc_file(struct machine *m, const char *name, char **data, size_t *size)
{
    struct sysv_ipc *ns = sysv_ipc_of(m);
    if (!ns)
        return -ENOMEM;
    FILE *out = open_memstream(data, size);
    if (!out)
        return -ENOMEM;
    int err = 0;
    if (strcmp(name, "sysvipc/sem") == 0)
        err = sem_proc(ns, out);
    else if (strcmp(name, "sysvipc/msg") == 0)
        err = msg_proc(ns, out);
    else if (strcmp(name, "sysvipc/shm") == 0)
        err = shm_proc(ns, out);
    else
        err = -ENOENT;
    if (fclose(out) != 0 && !err)
        err = -ENOMEM;
    if (err) {
        free(*data);
        *data = NULL;
    }
    return err;
}
