/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi_user.h - the guest's longs and pointers in its own ABI's width: eight
 * bytes on aarch64, four on arm (compat_long_t, compat_ulong_t,
 * compat_uptr_t), copied from and to guest memory. The one place shared
 * code learns how wide a long of the task's ABI is in memory; abi.h's
 * abi_long()/abi_ulong() are the same for a syscall argument. */
#ifndef ASYMU_ABI_USER_H
#define ASYMU_ABI_USER_H

#include <stddef.h>
#include <stdint.h>

struct task;

/* Bytes of n longs of t's ABI. */
size_t abi_longs_size(struct task *t, unsigned n);
/* Reads n signed longs at addr (arm's sign-extended): 0 or -EFAULT. */
int get_user_longs(struct task *t, uint64_t addr, int64_t *v, unsigned n);
/* Reads n unsigned longs or pointers at addr (arm's zero-extended). */
int get_user_ulongs(struct task *t, uint64_t addr, uint64_t *v, unsigned n);
/* Writes n longs at addr, each truncated to the ABI's width: 0 or -EFAULT. */
int put_user_longs(struct task *t, uint64_t addr, const int64_t *v, unsigned n);

/* The unsigned long or pointer at raw, bytes of a structure already
 * copied from the guest whole (arm's zero-extended). */
uint64_t abi_ulong_at(struct task *t, const void *raw);
/* The size of each member of the ABI's own struct timespec and timeval,
 * those of the calls without time64 in their names: longs
 * (__kernel_old_timespec; arm's old_timespec32, old_timeval32). The
 * `field` of the calls that take either. */
unsigned abi_time_field(struct task *t);

#endif
