/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall_table.c (arm) - AArch32 EABI syscall numbers (generated from the
 * kernel's uapi headers) to handlers and strace formats (see strace.c). The
 * rows both ABIs share come from syscall_common.h; the rows here are the
 * ones where the 32-bit ABI differs from AArch64 (arch/aarch64/
 * syscall_table.c): each group says why. The handlers particular to the
 * 32-bit ABI (mmap2, _llseek, fstat64, set_tls) live here too; those
 * that join a 64-bit argument from a register pair, in sys32.c. */
#include "abi.h"
#include "file.h"
#include "mm.h"
#include "socket.h"
#include "ptrace.h"
#include "syscall_table.h"
#include "syscalls.h"
#include "task.h"

#include "event.h"
#include "aio.h"
#include "fsnotify.h"
#include "io_uring.h"

#include <errno.h>

#include "file_access.h"
#include "fs_calls.h"
#include "flock.h"
#include "restart.h"
#include "sysv_ipc.h"
#include "mqueue.h"
#include "keys.h"
#include "rlimit.h"
#include "timers.h"
#include "uts.h"
#include "sched_attr.h"
#include "sysreg.h"

#include "syscall_nr_arm.h"

static SYSCALL_DECL(mmap2)
{
    return do_mmap(t, a[0], a[1], (int)a[2], (int)a[3], (int)a[4], a[5] << 12);
}

static SYSCALL_DECL(lseek32)
{
    return do_lseek(t, (int)a[0], (int32_t)a[1], (int)a[2]);
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence) */
static SYSCALL_DECL(llseek)
{
    int64_t off = (int64_t)((a[1] << 32) | (a[2] & 0xffffffffu));
    int64_t r = do_lseek(t, (int)a[0], off, (int)a[4]);
    if (r < 0)
        return r;
    return copy_to_guest(task_mm(t), a[3], &r, sizeof r);
}

static SYSCALL_DECL(fstat64)
{
    return do_fstatat(t, (int)a[0], 0, a[1], 0x1000 /* AT_EMPTY_PATH */);
}

static SYSCALL_DECL(fstatat64)
{
    return do_fstatat(t, (int)a[0], a[1], a[2], (int)a[3]);
}

static SYSCALL_DECL(stat64)
{
    return do_fstatat(t, -100, a[0], a[1], 0);
}

static SYSCALL_DECL(lstat64)
{
    return do_fstatat(t, -100, a[0], a[1], 0x100 /* AT_SYMLINK_NOFOLLOW */);
}

static SYSCALL_DECL(open)
{
    uint64_t b[6] = {(uint64_t)-100, a[0], a[1], a[2], 0, 0};
    return sys_openat(t, b);
}

static SYSCALL_DECL(readlink)
{
    uint64_t b[6] = {(uint64_t)-100, a[0], a[1], a[2], 0, 0};
    return sys_readlinkat(t, b);
}

static SYSCALL_DECL(access)
{
    uint64_t b[6] = {(uint64_t)-100, a[0], a[1], 0, 0, 0};
    return sys_faccessat(t, b);
}

static SYSCALL_DECL(dup2)
{
    if (a[0] == a[1])
        return file_get(t, (int)a[0]) ? (int64_t)a[1] : -EBADF;
    uint64_t b[6] = {a[0], a[1], 0, 0, 0, 0};
    return sys_dup3(t, b);
}

static SYSCALL_DECL(clock_settime64)
{
    return do_clock_settime(t, (int)a[0], a[1], 8);
}

static SYSCALL_DECL(clock_gettime64)
{
    return do_clock_gettime(t, (int)a[0], a[1], 8);
}

static SYSCALL_DECL(clock_getres64)
{
    return do_clock_getres(t, (int)a[0], a[1], 8);
}

static SYSCALL_DECL(clock_nanosleep64)
{
    return do_clock_nanosleep(t, (int)a[0], (int)a[1], a[2], a[3], 8);
}

static SYSCALL_DECL(timer_settime64)
{
    return do_timer_settime(t, (int)a[0], (int)a[1], a[2], a[3], 8);
}

static SYSCALL_DECL(timer_gettime64)
{
    return do_timer_gettime(t, (int)a[0], a[1], 8);
}

static SYSCALL_DECL(futex_time64)
{
    return do_futex(t, a, 8);
}

/* adjtimex and clock_adjtime with an old_timex32 (Linux's
 * sys_adjtimex_time32, sys_clock_adjtime32); clock_adjtime64 is aarch64's
 * clock_adjtime. */
static SYSCALL_DECL(adjtimex_time32)
{
    return do_adjtimex(t, a[0], true);
}

static SYSCALL_DECL(clock_adjtime32)
{
    return do_clock_adjtime(t, (int)a[0], a[1], true);
}

/* io_pgetevents with an old_timespec32; io_pgetevents_time64 with a
 * __kernel_timespec. */
static SYSCALL_DECL(io_pgetevents_time32)
{
    return do_io_pgetevents(t, a, 4);
}

static SYSCALL_DECL(io_pgetevents_time64)
{
    return do_io_pgetevents(t, a, 8);
}

static SYSCALL_DECL(ppoll_time64)
{
    return do_ppoll(t, a, 8);
}

static SYSCALL_DECL(pselect6_time64)
{
    return do_pselect6(t, a, 8);
}

static SYSCALL_DECL(utimensat_time64)
{
    return do_utimensat(t, a, 8);
}

static SYSCALL_DECL(sched_rr_get_interval_time64)
{
    return do_sched_rr_get_interval(t, (int)a[0], a[1], 8);
}

/* The path-based calls of the old ABI, as their *at forms. */
static SYSCALL_DECL(mknod)
{
    return sys_mknodat(t, (uint64_t[6]){(uint64_t)-100, a[0], a[1], a[2]});
}

static SYSCALL_DECL(mkdir)
{
    return sys_mkdirat(t, (uint64_t[6]){(uint64_t)-100, a[0], a[1]});
}

static SYSCALL_DECL(rmdir)
{
    return sys_unlinkat(t, (uint64_t[6]){(uint64_t)-100, a[0], 0x200});
}

static SYSCALL_DECL(unlink)
{
    return sys_unlinkat(t, (uint64_t[6]){(uint64_t)-100, a[0], 0});
}

static SYSCALL_DECL(rename)
{
    return sys_renameat(t, (uint64_t[6]){(uint64_t)-100, a[0], (uint64_t)-100, a[1]});
}

static SYSCALL_DECL(link)
{
    return sys_linkat(t, (uint64_t[6]){(uint64_t)-100, a[0], (uint64_t)-100, a[1], 0});
}

static SYSCALL_DECL(symlink)
{
    return sys_symlinkat(t, (uint64_t[6]){a[0], (uint64_t)-100, a[1]});
}

static SYSCALL_DECL(chmod)
{
    return sys_fchmodat(t, (uint64_t[6]){(uint64_t)-100, a[0], a[1]});
}

/* chown32(path, uid, gid) and lchown32: fchownat from the working directory. */
static SYSCALL_DECL(chown32)
{
    return sys_fchownat(t, (uint64_t[6]){(uint64_t)-100, a[0], a[1], a[2], 0});
}

static SYSCALL_DECL(lchown32)
{
    return sys_fchownat(t, (uint64_t[6]){(uint64_t)-100, a[0], a[1], a[2], 0x100});
}

/* compat_sys_ftruncate(): a compat_ulong_t length, never negative. */
static SYSCALL_DECL(ftruncate32)
{
    return sys_ftruncate(t, (uint64_t[6]){a[0], (uint32_t)a[1]});
}

static SYSCALL_DECL(sendfile64)
{
    return do_sendfile(t, a, true);
}

static SYSCALL_DECL(pipe)
{
    uint64_t b[6] = {a[0], 0, 0, 0, 0, 0};
    return sys_pipe2(t, b);
}

static SYSCALL_DECL(set_tls)
{
    task_abi(t)->set_tls(task_mm(t)->uc, a[0]);
    return 0;
}

#define E(nr, fn, fmt) [ARM_NR_##nr] = {#nr, sys_##fn, fmt, false}
#define EX(nr, fn, fmt) [ARM_NR_##nr] = {#nr, sys_##fn, fmt, true}

const struct syscall_entry syscall_table_arm[SYSCALL_TABLE_ARM_LEN] = {
#define SYSCALL(nr, fn, fmt) E(nr, fn, fmt),
#define SYSCALL_ADDR(nr, fn, fmt) EX(nr, fn, fmt),
#include "syscall_common.h"
    /* The old path calls, from before the *at calls (asm-generic, and so
     * aarch64, has only the *at forms): each is its *at call from the
     * working directory. */
    E(open, open, "soM"),
    E(creat, creat, "sm"),
    E(access, access, "sd"),
    E(readlink, readlink, "sru"),
    E(mkdir, mkdir, "sm"),
    E(mknod, mknod, "smx"),
    E(rmdir, rmdir, "s"),
    E(unlink, unlink, "s"),
    E(rename, rename, "ss"),
    E(symlink, symlink, "ss"),
    E(link, link, "ss"),
    E(chmod, chmod, "sm"),
    E(utimes, utimes, "sp"),
    E(futimesat, futimesat, "asp"),
    /* Other calls of the old ABI that asm-generic does not have (dup2:
     * dup3, pipe: pipe2, poll: ppoll, fork: clone, getdents: getdents64,
     * ...), and arm's pciconfig calls. */
    E(dup2, dup2, "dd"),
    E(pipe, pipe, "p"),
    E(poll, poll, "pud"),
    E(_newselect, select_time32, "dpppp"),
    E(epoll_create, epoll_create, "d"),
    E(epoll_wait, epoll_wait, "dpdd"),
    E(eventfd, eventfd, "u"),
    E(signalfd, signalfd, "dpu"),
    E(inotify_init, inotify_init, ""),
    E(send, send, "dwux"),
    E(recv, recv, "drux"),
    E(getdents, getdents, "dpu"),
    E(fork, fork, ""),
    E(vfork, vfork, ""),
    E(pause, pause, ""),
    E(getpgrp, getpgrp, ""),
    E(nice, nice, "d"),
    E(ustat, ustat, "xp"),
    E(sysfs, sysfs, "dxx"),
    E(pciconfig_read, pciconfig_read, "xxxup"),
    E(pciconfig_write, pciconfig_write, "xxxup"),
    /* The old signal calls, with a one-word mask (signal.c). */
    E(sigaction, sigaction, "Spp"),
    E(sigprocmask, sigprocmask, "dpp"),
    E(sigpending, sigpending, "p"),
    E(sigsuspend, sigsuspend, "ddx"),
    E(sigreturn, sigreturn, ""),
    /* The stat calls: stat, lstat and fstat with the old struct stat,
     * the *64 ones with struct stat64 (aarch64 has only newfstatat and
     * fstat, with its own struct stat). */
    E(stat, stat_compat, "sp"),
    E(lstat, lstat_compat, "sp"),
    E(fstat, fstat_compat, "dp"),
    E(stat64, stat64, "sp"),
    E(lstat64, lstat64, "sp"),
    E(fstat64, fstat64, "dp"),
    E(fstatat64, fstatat64, "aspx"),
    E(statfs64, statfs64, "sup"),
    E(fstatfs64, fstatfs64, "dup"),
    /* fcntl64: the 32-bit ABI's fcntl for struct flock64; sys_fcntl takes
     * both (flock.c). */
    E(fcntl64, fcntl, "ddx"),
    /* getrlimit under the name of the EABI's number (aarch64: getrlimit). */
    E(ugetrlimit, getrlimit, "dp"),
    /* Offsets and lengths: a 32-bit one in one register, or a 64-bit one
     * in a register pair (aligned, hence the pad words and the
     * reordered arm_fadvise64_64 and arm_sync_file_range; preadv's two
     * halves are two plain arguments), which sys32.c's handlers join
     * for the shared ones; aarch64 has one call with a 64-bit register
     * for each. mmap2 takes the offset in 4096-byte pages; sendfile64's
     * offset is a 64-bit loff_t in memory (sendfile's, a long). */
    E(lseek, lseek32, "ddW"),
    E(_llseek, llseek, "dxxpW"),
    E(pread64, aarch32_pread64, "drudd"),
    E(pwrite64, aarch32_pwrite64, "dwudd"),
    E(ftruncate, ftruncate32, "dd"),
    E(ftruncate64, aarch32_ftruncate64, "dxxx"),
    E(truncate, truncate, "sd"),
    E(truncate64, aarch32_truncate64, "sxxx"),
    E(fallocate, aarch32_fallocate, "ddxxxx"),
    E(arm_fadvise64_64, aarch32_fadvise64_64, "ddxxxx"),
    E(arm_sync_file_range, aarch32_sync_file_range2, "dxxxxx"),
    E(readahead, readahead, "dxxxu"),
    E(preadv, compat_preadv, "dpdxx"),
    E(pwritev, compat_pwritev, "dpdxx"),
    E(preadv2, compat_preadv2, "dpdxxx"),
    E(pwritev2, compat_pwritev2, "dpdxxx"),
    E(fanotify_mark, fanotify_mark, "dxxxds"),
    E(sendfile64, sendfile64, "ddpu"),
    EX(mmap2, mmap2, "puPFdx"),
    /* The 16-bit user and group id calls (uid16.c), under the names that
     * are aarch64's 32-bit calls... */
    E(getuid, getuid16, ""),
    E(geteuid, geteuid16, ""),
    E(getgid, getgid16, ""),
    E(getegid, getegid16, ""),
    E(setuid, setuid16, "u"),
    E(setgid, setgid16, "u"),
    E(setreuid, setreuid16, "dd"),
    E(setregid, setregid16, "dd"),
    E(setresuid, setresuid16, "ddd"),
    E(setresgid, setresgid16, "ddd"),
    E(setfsuid, setfsuid16, "u"),
    E(setfsgid, setfsgid16, "u"),
    E(getresuid, getresuid16, "ppp"),
    E(getresgid, getresgid16, "ppp"),
    E(getgroups, getgroups16, "dp"),
    E(setgroups, setgroups16, "dp"),
    E(chown, chown16, "sdd"),
    E(lchown, lchown16, "sdd"),
    E(fchown, fchown16, "ddd"),
    /* ... and the 32-bit ones, the *32 calls. */
    E(getuid32, getuid, ""),
    E(geteuid32, geteuid, ""),
    E(getgid32, getgid, ""),
    E(getegid32, getegid, ""),
    E(setuid32, setuid, "u"),
    E(setgid32, setgid, "u"),
    E(setreuid32, setreuid, "dd"),
    E(setregid32, setregid, "dd"),
    E(setresuid32, setresuid, "ddd"),
    E(setresgid32, setresgid, "ddd"),
    E(getresuid32, getresuid, "ppp"),
    E(getresgid32, getresgid, "ppp"),
    E(setfsuid32, setfsuid, "u"),
    E(setfsgid32, setfsgid, "u"),
    E(getgroups32, getgroups, "dp"),
    E(setgroups32, setgroups, "dp"),
    E(chown32, chown32, "sdd"),
    E(lchown32, lchown32, "sdd"),
    E(fchown32, fchown, "ddd"),
    /* adjtimex and clock_adjtime with an old_timex32 (aarch64's take a
     * __kernel_timex, as clock_adjtime64 does here). */
    E(adjtimex, adjtimex_time32, "p"),
    E(clock_adjtime, clock_adjtime32, "Cp"),
    /* The time64 calls, with a 64-bit timespec (the shared rows of the
     * names without _time64 or 64 take the ABI's own: 32-bit here);
     * io_pgetevents is the time32 call here, the 64-bit one on aarch64. */
    E(clock_gettime64, clock_gettime64, "Cp"),
    E(clock_settime64, clock_settime64, "Cp"),
    E(clock_getres_time64, clock_getres64, "Cp"),
    E(clock_nanosleep_time64, clock_nanosleep64, "Cdpp"),
    E(clock_adjtime64, clock_adjtime, "Cp"),
    E(timer_settime64, timer_settime64, "ddpp"),
    E(timer_gettime64, timer_gettime64, "dp"),
    E(timerfd_settime64, timerfd_settime64, "dxpp"),
    E(timerfd_gettime64, timerfd_gettime64, "dp"),
    E(futex_time64, futex_time64, "pdupxd"),
    E(utimensat_time64, utimensat_time64, "aspx"),
    E(ppoll_time64, ppoll_time64, "pdppu"),
    E(pselect6_time64, pselect6_time64, "dppppp"),
    E(io_pgetevents, io_pgetevents_time32, "xllppp"),
    E(io_pgetevents_time64, io_pgetevents_time64, "xllppp"),
    E(mq_timedsend_time64, mq_timedsend_time64, "dwuup"),
    E(mq_timedreceive_time64, mq_timedreceive_time64, "drupp"),
    E(semtimedop_time64, semtimedop_time64, "dpup"),
    E(recvmmsg_time64, recvmmsg_time64, "dpuxp"),
    E(sched_rr_get_interval_time64, sched_rr_get_interval_time64, "dp"),
    E(rt_sigtimedwait_time64, rt_sigtimedwait_time64, "pppu"),
};

static const struct syscall_entry arm_private[] = {
    {"cacheflush", sysreg_cacheflush, "ppd", false},
    {"set_tls", sys_set_tls, "p", false},
};

const struct syscall_entry *syscall_lookup_arm_private(uint64_t nr)
{
    if (nr == ARM_NR_cacheflush)
        return &arm_private[0];
    if (nr == ARM_NR_set_tls)
        return &arm_private[1];
    return NULL;
}

static const char *const names[SYSCALL_TABLE_ARM_LEN] = {ARM_SYSCALL_NAMES};

const char *syscall_name_arm(uint64_t nr)
{
    return nr < SYSCALL_TABLE_ARM_LEN ? names[nr] : NULL;
}
