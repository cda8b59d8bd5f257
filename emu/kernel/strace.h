/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strace.h - one line per guest syscall on stderr (strace.c). */
#ifndef ASYMU_STRACE_H
#define ASYMU_STRACE_H

#include <stddef.h>
#include <stdint.h>

struct process;
struct syscall_entry;
struct task;

/* "SIGSEGV" for 11, NULL for numbers without a name. */
const char *signal_name(int sig);
void strace_enter(struct task *t, const struct syscall_entry *e, const uint64_t a[6],
                  char *buf, size_t len);
void strace_exit(struct task *t, const struct syscall_entry *e, const uint64_t a[6],
                 int64_t ret, const char *enter);
/* strace's "+++ exited with N +++" / "+++ killed by SIG +++" for a process. */
void strace_process_end(struct process *p);

#endif
