/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqueue.h - POSIX message queues (mqueue.c): mq_open and the rest, one
 * namespace of "/name" queues per machine, as Linux's ipc/mqueue.c in the
 * initial IPC namespace with its default limits. */
#ifndef ASYMU_MQUEUE_H
#define ASYMU_MQUEUE_H

#include "syscalls.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

struct file;
struct machine;
struct process;
struct task;

/* Linux's defaults (ipc/mq_sysctl.c, include/linux/ipc_namespace.h):
 * /proc/sys/fs/mqueue/{msg_max,msgsize_max,queues_max,msg_default,
 * msgsize_default}, whose values are the machine's (m->limits, sysctl.h),
 * and what root (CAP_SYS_RESOURCE) may ask past them. */
#define MQ_MSG_MAX 10
#define MQ_MSGSIZE_MAX 8192
#define MQ_QUEUES_MAX 256
#define MQ_MSG_DEFAULT 10
#define MQ_MSGSIZE_DEFAULT 8192
#define MQ_HARD_MSGMAX 65536
#define MQ_HARD_MSGSIZEMAX (16 * 1024 * 1024)
#define MQ_PRIO_MAX_LINUX 32768

/* Hooks: t's wait in mq_timedsend or mq_timedreceive ends without a result
 * (true if it was in one); p closed f, or exited (f NULL): a notification
 * p registered on f's queue (or any, at exit) goes, as Linux's
 * mqueue_flush_file; frees every queue (machine_shutdown). */
bool mq_task_exit(struct task *t);
void mq_process_closed(struct process *p, struct file *f);
void mq_free_all(struct machine *m);

/* The mqueue file system's side (sysfs-fs/mqueue_fs.c): a queue's inode
 * by name (no '/'), the names, an open(2) in a mount (O_CREAT makes a queue
 * with the default attributes, as mqueue_create; path is the file's
 * /proc/PID/fd link) and an unlink (mq_unlink's rules, may_delete). 0 or
 * -errno. */
int mq_fs_stat(struct machine *m, const char *name, struct stat *st);
int mq_fs_list(struct machine *m, void (*emit)(const char *name, unsigned char type, void *arg),
               void *arg);
int mq_fs_open(struct task *t, const char *name, const char *path, int flags, unsigned mode,
               struct file **out);
int mq_fs_unlink(struct task *t, const char *name);
/* chmod (mode >= 0) or chown (mode -1; UINT32_MAX keeps the uid or gid)
 * of the queue of mq descriptor f, or else of the queue named name, with
 * notify_change's rules (simple_setattr): 0, -EPERM, -ENOENT, -EBADF. */
int mq_fs_setattr(struct task *t, struct file *f, const char *name, int64_t mode, uint32_t uid,
                  uint32_t gid);
/* utimensat of such a queue: times (atime sec, nsec, mtime sec, nsec, with
 * UTIME_NOW and UTIME_OMIT) or NULL for now; 0, -EPERM, -EACCES, -EINVAL. */
int mq_fs_times(struct task *t, struct file *f, const char *name, const int64_t *times);
/* umount2 of the mqueue mount at dir: false while a queue is open through
 * it (do_umount's EBUSY), unless detach (MNT_DETACH), which leaves the open
 * files working but no longer in the mount. */
bool mq_fs_umount(struct machine *m, const char *dir, bool detach);

SYSCALL_DECL(mq_open);
SYSCALL_DECL(mq_unlink);
SYSCALL_DECL(mq_timedsend);
SYSCALL_DECL(mq_timedreceive);
SYSCALL_DECL(mq_timedsend_time64);
SYSCALL_DECL(mq_timedreceive_time64);
SYSCALL_DECL(mq_notify);
SYSCALL_DECL(mq_getsetattr);

#endif
