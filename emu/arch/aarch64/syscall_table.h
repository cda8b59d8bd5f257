/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall_table.h (aarch64) - the AArch64 syscall table. */
#ifndef ASYMU_SYSCALL_TABLE_AARCH64_H
#define ASYMU_SYSCALL_TABLE_AARCH64_H
#include "syscalls.h"

struct sigaction_guest;
struct task;
#define SYSCALL_TABLE_AARCH64_LEN 512
extern const struct syscall_entry syscall_table_aarch64[SYSCALL_TABLE_AARCH64_LEN];
const char *syscall_name_aarch64(uint64_t nr);

int aarch64_setup_frame(struct task *t, int sig, const struct sigaction_guest *sa, uint64_t sp);
int64_t aarch64_sigreturn(struct task *t, bool rt);
extern const uint32_t aarch64_sigtramp_code[2];
#endif
