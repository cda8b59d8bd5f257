/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flock.h - advisory file locks between guest processes (flock.c): BSD
 * flock locks, owned by an open file description, and POSIX record locks
 * (fcntl F_SETLK, lockf), owned by a process or, for the F_OFD_* commands,
 * by an open file description. Every guest process lives in the one host
 * process, whose own locks could not tell them apart, so asymu keeps the
 * locks itself, by the file's device and inode. */
#ifndef ASYMU_FLOCK_H
#define ASYMU_FLOCK_H

#include "syscalls.h"

struct file;
struct machine;
struct process;
struct task;

struct file_lock;

/* fcntl's lock commands (F_GETLK ... F_OFD_SETLKW, and arm's F_*LK64):
 * whether cmd is one, and the command itself on fd. */
bool fcntl_is_lock_cmd(struct task *t, int cmd);
int64_t fcntl_lock(struct task *t, int fd, int cmd, uint64_t arg);

/* f's last reference went: its flock and OFD locks go. */
void locks_file_released(struct file *f);
/* p closed a descriptor of f, or exited (f NULL: every file): its POSIX
 * locks on that file go, as Linux drops them at any close. */
void locks_process_closed(struct process *p, struct file *f);
/* The machine's locks still held at its shutdown go (no task waits). */
void locks_machine_free(struct machine *m);

SYSCALL_DECL(flock);

#endif
