/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall_table.c (aarch64) - AArch64 syscall numbers (generated from the
 * kernel's uapi headers) to handlers and strace formats (see strace.c). The
 * rows both ABIs share come from syscall_common.h; the rows here are the
 * ones where AArch64 differs from the AArch32 EABI (arch/arm/syscall_table.c):
 * each group says why. */
#include "socket.h"
#include "ptrace.h"
#include "syscall_table.h"
#include "syscalls.h"

#include "file_access.h"
#include "fs_calls.h"
#include "flock.h"
#include "event.h"
#include "aio.h"
#include "fsnotify.h"
#include "io_uring.h"
#include "restart.h"
#include "sysv_ipc.h"
#include "mqueue.h"
#include "keys.h"
#include "rlimit.h"
#include "timers.h"
#include "uts.h"
#include "sched_attr.h"

#include "syscall_nr_aarch64.h"

#define E(nr, fn, fmt) [AARCH64_NR_##nr] = {#nr, sys_##fn, fmt, false}
#define EX(nr, fn, fmt) [AARCH64_NR_##nr] = {#nr, sys_##fn, fmt, true}

const struct syscall_entry syscall_table_aarch64[SYSCALL_TABLE_AARCH64_LEN] = {
#define SYSCALL(nr, fn, fmt) E(nr, fn, fmt),
#define SYSCALL_ADDR(nr, fn, fmt) EX(nr, fn, fmt),
#include "syscall_common.h"
    /* A 64-bit offset, length or mask in one register; arm passes it in a
     * register pair (its row takes two words for it) or has a 32-bit call
     * under this number and another for 64 bits (lseek32 and _llseek,
     * ftruncate32 and ftruncate64, truncate and truncate64). */
    E(lseek, lseek, "dlW"),
    E(pread64, pread64, "drul"),
    E(pwrite64, pwrite64, "dwul"),
    E(ftruncate, ftruncate, "dl"),
    E(truncate, truncate, "sl"),
    E(fallocate, fallocate, "ddll"),
    E(readahead, readahead, "dxu"),
    E(fanotify_mark, fanotify_mark, "dxxds"),
    /* The offset whole in pos_l (pos_h unused); arm splits it in two
     * registers, unaligned (compat_sys_preadv). */
    E(preadv, preadv, "dpdxx"),
    E(pwritev, pwritev, "dpdxx"),
    E(preadv2, preadv2, "dpdxxx"),
    E(pwritev2, pwritev2, "dpdxxx"),
    /* arm has these as arm_fadvise64_64 and arm_sync_file_range, their
     * arguments reordered so that the 64-bit pairs are aligned. */
    E(fadvise64, fadvise64, "dlld"),
    E(sync_file_range, sync_file_range, "dxxx"),
    /* The offset in bytes; arm's call is mmap2, the offset in pages. */
    EX(mmap, mmap, "puPFdx"),
    /* The 64-bit struct stat: arm's fstat is the old struct stat
     * (fstat_compat) and its newfstatat is fstatat64. */
    E(newfstatat, newfstatat, "aspx"),
    E(fstat, fstat, "dp"),
    /* arm's getrlimit is ugetrlimit (its old getrlimit number is not in
     * the EABI). */
    E(getrlimit, getrlimit, "dp"),
    /* struct __kernel_timex; arm's calls of these names take an
     * old_timex32 (clock_adjtime64 is its __kernel_timex one). */
    E(adjtimex, adjtimex, "p"),
    E(clock_adjtime, clock_adjtime, "Cp"),
    /* io_pgetevents with a 64-bit timespec; arm's io_pgetevents is the
     * time32 call (io_pgetevents_time64 is its 64-bit one). */
    E(io_pgetevents, io_pgetevents, "xllppp"),
    /* 32-bit user and group ids; on arm these numbers are the 16-bit
     * calls (uid16.c) and the 32-bit ones are the *32 calls. */
    E(getuid, getuid, ""),
    E(geteuid, geteuid, ""),
    E(getgid, getgid, ""),
    E(getegid, getegid, ""),
    E(setuid, setuid, "u"),
    E(setgid, setgid, "u"),
    E(setreuid, setreuid, "dd"),
    E(setregid, setregid, "dd"),
    E(setresuid, setresuid, "ddd"),
    E(setresgid, setresgid, "ddd"),
    E(getresuid, getresuid, "ppp"),
    E(getresgid, getresgid, "ppp"),
    E(setfsuid, setfsuid, "u"),
    E(setfsgid, setfsgid, "u"),
    E(getgroups, getgroups, "dp"),
    E(setgroups, setgroups, "dp"),
    E(fchown, fchown, "ddd"),
};

static const char *const names[SYSCALL_TABLE_AARCH64_LEN] = {AARCH64_SYSCALL_NAMES};

const char *syscall_name_aarch64(uint64_t nr)
{
    return nr < SYSCALL_TABLE_AARCH64_LEN ? names[nr] : NULL;
}
