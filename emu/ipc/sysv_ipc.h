/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysv_ipc.h - System V IPC of the machine: semaphore sets (sysv_sem.c),
 * message queues (sysv_msg.c) and shared memory segments (sysv_shm.c),
 * with the ids, keys, permissions and guest structures they share
 * (sysv_ipc.c). One namespace per machine, as Linux's initial IPC
 * namespace, with Linux's default limits. */
#ifndef ASYMU_SYSV_IPC_H
#define ASYMU_SYSV_IPC_H

#include "syscalls.h"

#include <stdio.h>

struct machine;
struct process;
struct task;

/* Linux's defaults (include/uapi/linux/{sem,msg,shm}.h, ipc/util.h); the
 * machine's values are m->limits' (sysctl.h), /proc/sys/kernel's. */
#define SEM_SEMMSL 32000
#define SEM_SEMMNS 1024000000
#define SEM_SEMOPM 500
#define SEM_SEMMNI 32000
#define SEM_SEMVMX 32767
#define MSG_MSGMAX 8192
#define MSG_MSGMNB 16384
#define MSG_MSGMNI 32000
#define SHM_SHMMAX (UINT64_MAX - (UINT64_C(1) << 24))
#define SHM_SHMALL SHM_SHMMAX
#define SHM_SHMMNI 4096

/* Commands and flags of the guest ABI (the same on both). */
#define IPC_PRIVATE_KEY 0
#define GUEST_IPC_CREAT 01000
#define GUEST_IPC_EXCL 02000
#define GUEST_IPC_NOWAIT 04000
#define GUEST_IPC_RMID 0
#define GUEST_IPC_SET 1
#define GUEST_IPC_STAT 2
#define GUEST_IPC_INFO 3
#define GUEST_IPC_64 0x100 /* arm: the *ctl command asks for the 64-bit structures */

/* What every object has: Linux's kern_ipc_perm. The id is seq * 32768 + idx. */
struct ipc_obj {
    int32_t key;
    uint32_t uid, gid, cuid, cgid;
    unsigned mode; /* 0777 bits, and SHM_DEST/SHM_LOCKED for segments */
    int id;
};

/* The objects of one kind, by index: Linux's ipc_ids with cyclic index
 * allocation (an index is reused only after the others were tried). */
struct ipc_ids {
    struct ipc_obj **slot;
    int cap, in_use, max_idx, last_idx;
    int seq;
};

struct sem_undo;

struct sysv_ipc {
    struct machine *machine;   /* whose kernel memory messages count in (kmem.h) */
    struct ipc_ids sem, msg, shm;
    uint64_t used_sems;        /* semaphores in all sets */
    uint64_t msg_bytes, msg_hdrs; /* queued message bytes and messages */
    uint64_t shm_pages;        /* pages of all segments */
    struct sem_undo *undos;    /* every process's SEM_UNDO adjustments */
};

/* A doubly linked list of waiters on one object, oldest first. */
struct ipc_link {
    struct ipc_link *next, *prev;
};
static inline void ipc_list_init(struct ipc_link *head) { head->next = head->prev = head; }
static inline void ipc_list_add_tail(struct ipc_link *head, struct ipc_link *l)
{
    l->prev = head->prev;
    l->next = head;
    head->prev->next = l;
    head->prev = l;
}
static inline void ipc_list_del(struct ipc_link *l)
{
    l->prev->next = l->next;
    l->next->prev = l->prev;
    l->next = l->prev = l;
}

/* The machine's namespace, made on first use: NULL when the host has no
 * memory for it. */
struct sysv_ipc *sysv_ipc_of(struct machine *m);
/* Frees every object (machine_shutdown). */
void sysv_ipc_free(struct machine *m);

/* ipcget: the id for key, creating an object of `size` bytes (its struct
 * ipc_obj first) when asked; more_checks, if any, judges an existing one
 * (semget's nsems, shmget's size), create_check a new one: an errno or 0.
 * *created tells a new object, which the caller fills in. */
struct ipc_get {
    int32_t key;
    int flags;
    size_t size;
    int (*more_checks)(struct ipc_obj *o, uint64_t arg);
    /* Before a new object is made: an errno (limits) or 0. */
    int (*create_check)(struct sysv_ipc *ns, uint64_t arg);
    uint64_t arg;
    int limit; /* the objects of the kind there may be: semmni, msgmni, shmmni */
};
int64_t ipc_get(struct task *t, struct ipc_ids *ids, const struct ipc_get *g, struct ipc_obj **out,
                bool *created);
/* Drops a removed object from its table (the caller frees it). */
void ipc_remove(struct ipc_ids *ids, struct ipc_obj *o);
/* The object of a full id (-EINVAL if none), or of an index (*_STAT). */
struct ipc_obj *ipc_lookup(struct ipc_ids *ids, int id);
struct ipc_obj *ipc_at_index(struct ipc_ids *ids, int idx);
/* ipcperms: whether t may use o for `flag` (S_IRUGO/S_IWUGO bits); root may. */
bool ipc_allowed(struct task *t, const struct ipc_obj *o, unsigned flag);
/* What an IPC_SET changes in the ipc64_perm it is given. */
struct ipc_set {
    uint32_t uid, gid;
    unsigned mode;
};
/* IPC_SET and IPC_RMID: reads an IPC_SET's structure of `len` bytes at
 * buf (its perm into *set, the `after_len` bytes after the perm into
 * after), then finds the object, which t must own or have created unless
 * root. NULL with *err -EFAULT, -EINVAL or -EPERM. */
struct ipc_obj *ipc_ctl_obtain(struct task *t, struct ipc_ids *ids, int id, int cmd, uint64_t buf,
                               size_t len, struct ipc_set *set, uint8_t *after, size_t after_len,
                               int *err);
/* ipc_update_perm: uid, gid and the 0777 bits of mode from an IPC_SET. */
int ipc_update_perm(struct ipc_obj *o, const struct ipc_set *set);
/* IPC_STAT (by id), *_STAT and *_STAT_ANY (by index, `stat_any` being the
 * kind's *_STAT_ANY): the object, if t may read it; NULL with *err -EINVAL
 * or -EACCES. */
struct ipc_obj *ipc_stat_obtain(struct task *t, struct ipc_ids *ids, int id, int cmd, int stat_any,
                                int *err);
/* ipc_get_maxidx as the *_INFO commands return it: 0 when there are none. */
int ipc_info_result(const struct ipc_ids *ids);
/* Strips arm's IPC_64 from cmd: false if the caller asked for the old
 * structures (not provided) of a command that has one. */
bool ipc_parse_version(struct task *t, int *cmd);
/* Wall-clock seconds now, for the *_time fields. */
int64_t ipc_now(struct machine *m);

/* Guest structures: the ABI's longs, each aligned to its size, and each
 * time a long, or two where the ABI splits it (abi->sysv.time_high). */
struct ipc_buf {
    uint8_t b[160];
    size_t n;
    unsigned long_size;
    bool time_high;
};
/* An empty one for t's ABI. */
struct ipc_buf ipc_buf_new(struct task *t);
void ipc_buf_u16(struct ipc_buf *g, uint16_t v);
void ipc_buf_u32(struct ipc_buf *g, uint32_t v);
/* A long (truncated to the ABI's), after padding to its alignment. */
void ipc_buf_word(struct ipc_buf *g, uint64_t v);
void ipc_buf_time(struct ipc_buf *g, int64_t secs);
/* A guest *id64_ds for t's ABI, starting with o's struct ipc64_perm. */
struct ipc_buf ipc_buf_start(struct task *t, const struct ipc_obj *o);
/* Copies a *_STAT result to buf: 0 for IPC_STAT, the id for the others,
 * or -EFAULT. */
int64_t ipc_stat_done(struct task *t, uint64_t buf, const struct ipc_buf *g, int cmd,
                      const struct ipc_obj *o);
/* The size of struct ipc64_perm for t's ABI. */
size_t ipc_perm_size(struct task *t);

/* Hooks: t's wait in semop, msgsnd or msgrcv (or a POSIX queue's send or
 * receive, mqueue.h), if any, ends without a result (t exits, or the
 * fuzzer gives the wait up); p's last thread exited (its semaphore
 * adjustments are undone). */
void sysv_cancel_wait(struct task *t);
void sysv_process_exit(struct process *p);
bool sem_task_exit(struct task *t);
bool msg_task_exit(struct task *t);
void sem_process_exit(struct process *p);
/* Whether p has SEM_UNDO adjustments (Linux's task->sysvsem.undo_list is
 * allocated): kcmp's KCMP_SYSVSEM. */
bool sem_process_has_undo(struct process *p);
void sem_free_all(struct sysv_ipc *ns);
void msg_free_all(struct sysv_ipc *ns);
void shm_free_all(struct sysv_ipc *ns);

/* /proc/sysvipc/{sem,msg,shm}: name is the path under /proc; malloc'ed
 * text. */
int sysv_proc_file(struct machine *m, const char *name, char **data, size_t *size);
int sem_proc(struct sysv_ipc *ns, FILE *out);
int msg_proc(struct sysv_ipc *ns, FILE *out);
int shm_proc(struct sysv_ipc *ns, FILE *out);

SYSCALL_DECL(semget);
SYSCALL_DECL(semop);
SYSCALL_DECL(semtimedop);
SYSCALL_DECL(semtimedop_time64);
SYSCALL_DECL(semctl);
SYSCALL_DECL(msgget);
SYSCALL_DECL(msgsnd);
SYSCALL_DECL(msgrcv);
SYSCALL_DECL(msgctl);
SYSCALL_DECL(shmget);
SYSCALL_DECL(shmctl);
SYSCALL_DECL(shmat);
SYSCALL_DECL(shmdt);

#endif
