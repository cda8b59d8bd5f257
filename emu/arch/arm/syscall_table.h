/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall_table.h (arm) - the AArch32 EABI syscall table. */
#ifndef ASYMU_SYSCALL_TABLE_ARM_H
#define ASYMU_SYSCALL_TABLE_ARM_H
#include "syscalls.h"

struct sigaction_guest;
struct task;
#define SYSCALL_TABLE_ARM_LEN 512
extern const struct syscall_entry syscall_table_arm[SYSCALL_TABLE_ARM_LEN];
/* ARM's private syscalls (__ARM_NR_*: set_tls, cacheflush, ...). */
const struct syscall_entry *syscall_lookup_arm_private(uint64_t nr);
const char *syscall_name_arm(uint64_t nr);

/* The 16-bit id calls (uid16.c). */
SYSCALL_DECL(getuid16);
SYSCALL_DECL(geteuid16);
SYSCALL_DECL(getgid16);
SYSCALL_DECL(getegid16);
SYSCALL_DECL(setuid16);
SYSCALL_DECL(setgid16);
SYSCALL_DECL(setreuid16);
SYSCALL_DECL(setregid16);
SYSCALL_DECL(setresuid16);
SYSCALL_DECL(setresgid16);
SYSCALL_DECL(setfsuid16);
SYSCALL_DECL(setfsgid16);
SYSCALL_DECL(chown16);
SYSCALL_DECL(lchown16);
SYSCALL_DECL(fchown16);
SYSCALL_DECL(getresuid16);
SYSCALL_DECL(getresgid16);
SYSCALL_DECL(getgroups16);
SYSCALL_DECL(setgroups16);

/* The old calls of the 32-bit ABI (compat_old.c). */
SYSCALL_DECL(creat);
SYSCALL_DECL(nice);
SYSCALL_DECL(stat_compat);
SYSCALL_DECL(lstat_compat);
SYSCALL_DECL(fstat_compat);
SYSCALL_DECL(getdents);
SYSCALL_DECL(sysfs);
SYSCALL_DECL(utimes);
SYSCALL_DECL(futimesat);
SYSCALL_DECL(rt_sigtimedwait_time64);
SYSCALL_DECL(pciconfig_read);
SYSCALL_DECL(pciconfig_write);

/* The calls with a 64-bit argument in a register pair (sys32.c). */
SYSCALL_DECL(aarch32_pread64);
SYSCALL_DECL(aarch32_pwrite64);
SYSCALL_DECL(aarch32_truncate64);
SYSCALL_DECL(aarch32_ftruncate64);
SYSCALL_DECL(aarch32_fallocate);
SYSCALL_DECL(aarch32_fadvise64_64);
SYSCALL_DECL(aarch32_sync_file_range2);
SYSCALL_DECL(compat_preadv);
SYSCALL_DECL(compat_pwritev);
SYSCALL_DECL(compat_preadv2);
SYSCALL_DECL(compat_pwritev2);

int arm_setup_frame(struct task *t, int sig, const struct sigaction_guest *sa, uint64_t sp);
/* The ptrace requests of a 32-bit tracer (ptrace.c, abi->arch_ptrace). */
int64_t arm_arch_ptrace(struct task *t, struct task *c, long req, uint64_t addr, uint64_t data);
int64_t arm_sigreturn(struct task *t, bool rt);
extern const uint32_t arm_sigtramp_code[4];
#endif
