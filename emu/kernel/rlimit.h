/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rlimit.h - resource limits of a process (rlimit.c): getrlimit,
 * setrlimit, prlimit64, and the checks the rest of the kernel makes
 * against them (docs/processes.md, "Limits"). */
#ifndef ASYMU_RLIMIT_H
#define ASYMU_RLIMIT_H

#include "syscalls.h"

struct process;
struct task;

/* Linux's fs.nr_open: the highest RLIMIT_NOFILE hard limit (EPERM above). */
#define RLIMIT_NR_OPEN 1048576u

/* Linux's boot-time limits for the first process. */
void rlimit_init(struct process *p);
/* The soft limit of resource res. */
uint64_t rlimit_cur(const struct process *p, int res);
/* The descriptors t may have: RLIMIT_NOFILE's soft limit, at most FD_MAX. */
int rlimit_nofile(const struct task *t);
/* The bytes of the stack exec maps: RLIMIT_STACK's soft limit, bounded
 * (see rlimit.c). */
uint64_t rlimit_stack_size(const struct process *p);
/* A write of *len bytes at pos to a regular file: shortened to end at
 * RLIMIT_FSIZE, or -EFBIG when pos is at or past it. */
int rlimit_fsize_clamp(const struct task *t, uint64_t pos, size_t *len);
/* A write or truncate failed with EFBIG because of RLIMIT_FSIZE: SIGXFSZ
 * to the process, as Linux sends. Returns -EFBIG. */
int rlimit_fsize_exceeded(struct task *t);
/* A file may not grow to size: 0, or -EFBIG (with SIGXFSZ) past RLIMIT_FSIZE. */
int rlimit_fsize_check(struct task *t, uint64_t size);
/* After a slice: SIGXCPU each CPU second past RLIMIT_CPU's soft limit,
 * SIGKILL at the hard one. */
void rlimit_cpu_check(struct task *t);

SYSCALL_DECL(prlimit64);
SYSCALL_DECL(getrlimit);
SYSCALL_DECL(setrlimit);

#endif
