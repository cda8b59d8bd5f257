/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event.h - event descriptors: epoll, eventfd, timerfd, signalfd and pidfd
 * (epoll.c, eventfd.c, timerfd.c, signalfd.c, pidfd.c), each a FILE_OBJECT,
 * and the hooks the rest of the kernel calls into them. */
#ifndef ASYMU_EVENT_H
#define ASYMU_EVENT_H

#include "syscalls.h"

struct file;
struct file_ops;
struct machine;
struct process;
struct task;

/* A new fd for a file of the object priv (flags: O_* status flags). priv
 * is a malloc'ed object not yet known elsewhere: freed if this fails, by
 * ops->release once the file is installed. The fd, or -ENOMEM/-EMFILE. */
int anon_inode_fd(struct task *t, const struct file_ops *ops, void *priv, int flags, bool cloexec);

/* Whether f is an eventfd; eventfd_signal() on one (AIO's IOCB_FLAG_RESFD). */
bool file_is_eventfd(const struct file *f);
void eventfd_signal_file(struct file *f, uint64_t n);

/* file_notify_events reached obj: queues the epoll items watching it. */
void epoll_notify(struct machine *m, const void *obj, unsigned events);
/* Frees the machine's table of epoll items (machine_shutdown). */
void epoll_machine_free(struct machine *m);
/* get_epoll_tfile_raw_ptr(): the file epoll f watches as its toff'th item
 * of descriptor tfd (in the order they were added), or NULL with *err
 * -EINVAL (f is not an epoll) or -ENOENT (kcmp's KCMP_EPOLL_TFD). */
struct file *epoll_target(struct file *f, int tfd, uint64_t toff, int *err);
/* The last reference to f went: its epoll items go with it. */
void epoll_file_released(struct file *f);

/* sig was queued for some task or process: signalfds of it wake. */
void signalfd_signal_queued(struct machine *m, int sig);

/* p's last thread exited (its pidfds become readable), or p was reaped. */
void pidfd_process_exited(struct process *p);
void pidfd_process_reaped(struct process *p);
/* The pid a pidfd refers to for waitid(P_PIDFD): the pid, -EBADF for an fd
 * that is not a pidfd, -ECHILD once reaped; *nonblock tells PIDFD_NONBLOCK. */
int pidfd_wait_pid(struct task *t, int fd, bool *nonblock);
/* pidfd_get_pid() and get_pid_task(): the process of pidfd fd, or NULL
 * with *err -EBADF (not a pidfd) or -ESRCH (reaped). */
struct process *pidfd_process(struct task *t, int fd, int *err);

SYSCALL_DECL(epoll_create1);
SYSCALL_DECL(epoll_create);
SYSCALL_DECL(epoll_ctl);
SYSCALL_DECL(epoll_wait);
SYSCALL_DECL(epoll_pwait);
SYSCALL_DECL(epoll_pwait2);
SYSCALL_DECL(eventfd2);
SYSCALL_DECL(eventfd);
SYSCALL_DECL(timerfd_create);
SYSCALL_DECL(timerfd_settime);
SYSCALL_DECL(timerfd_gettime);
SYSCALL_DECL(timerfd_settime64);
SYSCALL_DECL(timerfd_gettime64);
SYSCALL_DECL(signalfd4);
SYSCALL_DECL(signalfd);
SYSCALL_DECL(pidfd_open);
SYSCALL_DECL(pidfd_send_signal);
SYSCALL_DECL(pidfd_getfd);

#endif
