/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guest_seccomp.h - strict mode and classic-BPF syscall filters per thread
 * (guest_seccomp.c, Linux 5.15's kernel/seccomp.c). The functions say "guest_"
 * because libseccomp, which confines asymu itself (sandbox.c), owns the
 * seccomp_* names and <seccomp.h>: a function of the same name was a
 * host crash, a header of the same name a broken fresh build. */
#ifndef ASYMU_GUEST_SECCOMP_H
#define ASYMU_GUEST_SECCOMP_H

#include <stdint.h>

struct task;
struct seccomp_filter;

/* A thread's mode (task->seccomp_mode, PR_GET_SECCOMP's answer). */
#define SECCOMP_MODE_DISABLED 0
#define SECCOMP_MODE_STRICT 1
#define SECCOMP_MODE_FILTER 2

/* What guest_seccomp_check() decides for a syscall. */
enum {
    SECCOMP_RUN,       /* run the handler */
    SECCOMP_SKIP,      /* do not run it: *ret is the call's result */
    SECCOMP_SKIP_DEAD, /* do not run it: the thread or its process is ending */
};

/* __secure_computing() for syscall nr with arguments a of a thread whose
 * mode is not SECCOMP_MODE_DISABLED. */
int guest_seccomp_check(struct task *t, uint64_t nr, const uint64_t a[6], int64_t *ret);
/* clone: the child runs under the parent thread's mode and filters. */
void guest_seccomp_fork(struct task *child, const struct task *parent);
/* The thread is freed: drops its filters. */
void guest_seccomp_release(struct task *t);
/* The filters in a thread's chain (/proc/PID/status's Seccomp_filters). */
unsigned guest_seccomp_filters(const struct task *t);
/* seccomp(2)'s operations, and prctl(PR_SET_SECCOMP, mode, filter). */
int64_t guest_seccomp_set_mode(struct task *t, unsigned op, unsigned flags, uint64_t uargs);
int64_t guest_seccomp_prctl(struct task *t, uint64_t mode, uint64_t filter);

#endif
