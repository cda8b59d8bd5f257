/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keys.h - the kernel key retention service (keys.c): add_key,
 * request_key and keyctl as Linux 5.15's security/keys/ answers them, with
 * the key types "user", "logon" and "keyring", one set of keys per machine. */
#ifndef ASYMU_KEYS_H
#define ASYMU_KEYS_H

#include "syscalls.h"

#include <stdbool.h>
#include <stddef.h>

struct machine;
struct process;
struct task;

/* fork: the child's session keyring is its parent's (copy_creds()); the
 * process keyring is not inherited. */
void keys_fork(struct process *child, const struct process *parent);
/* clone: c keeps t's request_key default; a new thread of a task with a
 * thread keyring gets a new one of its own (copy_creds()). */
void keys_clone_task(struct task *c, struct task *t, bool thread);
/* exec drops the thread and process keyrings (prepare_exec_creds()). */
void keys_exec(struct task *t);
/* The process (its keyrings) or the task (its thread keyring) is gone. */
void keys_process_exit(struct process *p);
void keys_task_free(struct task *t);
/* Frees every key (machine_shutdown). */
void keys_free_all(struct machine *m);
/* /proc/keys and /proc/key-users (name without "/proc/"): 0 with a
 * malloc'd *data, or -ENOENT if not one of them. */
int keys_proc_file(struct task *t, const char *name, char **data, size_t *size);

SYSCALL_DECL(add_key);
SYSCALL_DECL(request_key);
SYSCALL_DECL(keyctl);

#endif
