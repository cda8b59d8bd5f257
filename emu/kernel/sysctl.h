/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl.h - the numeric files of /proc/sys that hold the IPC, keys, AIO
 * and inotify limits (sysctl.c): the machine's values, which root may
 * change and which mqueue.c, keys.c, aio.c, inotify.c and the System V
 * files then enforce, as Linux's initial namespaces hold them. The same
 * table serves sched_rt_period_us and sched_rt_runtime_us (the
 * scheduler's values). */
#ifndef ASYMU_SYSCTL_H
#define ASYMU_SYSCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct machine;
struct task;

/* Each value is what its file shows; defaults are Linux 5.15's. */
struct sysctl_limits {
    /* fs/mqueue (ipc/mq_sysctl.c) */
    int mq_queues_max, mq_msg_max, mq_msgsize_max, mq_msg_default, mq_msgsize_default;
    /* kernel/keys (security/keys/sysctl.c) */
    int key_maxkeys, key_maxbytes, key_root_maxkeys, key_root_maxbytes, key_gc_delay;
    /* fs/aio-max-nr (fs/aio.c's aio_max_nr) */
    uint64_t aio_max_nr;
    /* fs/inotify (fs/notify/inotify/inotify_user.c): the first two are
     * the ucount limits, longs */
    uint64_t inotify_max_user_instances, inotify_max_user_watches;
    int inotify_max_queued_events;
    /* kernel/sem: semmsl, semmns, semopm, semmni (ipc/ipc_sysctl.c) */
    int sem[4];
    int msgmax, msgmnb, msgmni, shmmni;
    uint64_t shmmax, shmall;
};

/* Linux's defaults; inotify's watches depend on the machine's memory. */
void sysctl_limits_init(struct machine *m);

/* test_perm(): whether t may open (or read or write) a /proc/sys file of
 * that mode: euid 0 has the owner's bits, a member of group 0 the group's,
 * others the rest (no capability counts). 0 or -EACCES. */
int sysctl_test_perm(const struct task *t, unsigned mode, bool write);

/* The text of /proc/sys/NAME (name is the path under /proc/sys), malloc'ed;
 * -ENOENT for a name not in the table. */
int sysctl_read(struct task *t, const char *name, char **data, size_t *size);

/* A write of len bytes at file position pos (the file's handler as
 * proc_sys_call_handler() calls it): the bytes taken, or -errno. Who may
 * write is the caller's question (sysctl_test_perm):
 * a guest's write(2) asks it, the scenario's and the FUSE export's
 * writes, which are the operator's, do not. */
int64_t sysctl_write(struct task *t, const char *name, const char *data, size_t len, uint64_t pos);

#endif
