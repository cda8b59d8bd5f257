/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall_table.c (arm) - AArch32 EABI syscall numbers (generated from the
 * kernel's uapi headers) to handlers and strace formats (see strace.c). The
 * handlers particular to the 32-bit ABI (mmap2, _llseek, fstat64, set_tls)
 * live here too. */
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

/* truncate64(path, pad, lo, hi): the length in an aligned register pair. */
static SYSCALL_DECL(truncate64)
{
    return do_truncate(t, a[0], (int64_t)((a[3] << 32) | (a[2] & 0xffffffffu)));
}

/* arm_fadvise64_64(fd, advice, offset lo, hi, len lo, hi) */
static SYSCALL_DECL(arm_fadvise64_64)
{
    return do_fadvise(t, (int)a[0], (int64_t)((a[5] << 32) | (a[4] & 0xffffffffu)), (int)a[1]);
}

/* arm_sync_file_range(fd, flags, offset lo, hi, nbytes lo, hi): arm's
 * sync_file_range2, flags second so the 64-bit halves pair up. */
static SYSCALL_DECL(arm_sync_file_range)
{
    return do_sync_file_range(t, (int)a[0], (int64_t)((a[3] << 32) | (a[2] & 0xffffffffu)),
                              (int64_t)((a[5] << 32) | (a[4] & 0xffffffffu)), (unsigned)a[1]);
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

static SYSCALL_DECL(ftruncate32)
{
    return sys_ftruncate(t, (uint64_t[6]){a[0], 0, a[1], 0});
}

static SYSCALL_DECL(sendfile64)
{
    return do_sendfile(t, a, 8);
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
    E(exit, exit, "d"),
    E(read, read, "dru"),
    E(write, write, "dwu"),
    E(open, open, "soM"),
    E(close, close, "d"),
    E(lseek, lseek32, "ddW"),
    E(getpid, getpid, ""),
    E(access, access, "sd"),
    E(kill, kill, "dS"),
    E(ptrace, ptrace, "ddpp"),
    E(process_vm_readv, process_vm_readv, "dpdpdx"),
    E(process_vm_writev, process_vm_writev, "dpdpdx"),
    E(dup, dup, "d"),
    EX(brk, brk, "p"),
    E(ioctl, ioctl, "dip"),
    E(fcntl, fcntl, "ddx"),
    E(fcntl64, fcntl, "ddx"),
    E(umask, umask, "m"),
    E(dup2, dup2, "dd"),
    E(getppid, getppid, ""),
    E(gettimeofday, gettimeofday, "pp"),
    E(settimeofday, settimeofday, "pp"),
    E(ioprio_set, ioprio_set, "ddx"),
    E(ioprio_get, ioprio_get, "dd"),
    E(kcmp, kcmp, "ddduu"),
    E(process_madvise, process_madvise, "dpudx"),
    E(process_mrelease, process_mrelease, "dx"),
    E(mbind, mbind, "pudpux"),
    E(get_mempolicy, get_mempolicy, "ppupx"),
    E(set_mempolicy, set_mempolicy, "dpu"),
    E(migrate_pages, migrate_pages, "dupp"),
    E(move_pages, move_pages, "dupppx"),
    E(adjtimex, adjtimex, "p"),
    E(clock_adjtime, clock_adjtime, "Cp"),
    E(clock_adjtime64, clock_adjtime64, "Cp"),
    E(readlink, readlink, "sru"),
    E(munmap, munmap, "pu"),
    E(sysinfo, sysinfo, "p"),
    E(uname, uname, "p"),
    E(sethostname, sethostname, "su"),
    E(setdomainname, setdomainname, "su"),
    E(mprotect, mprotect, "puP"),
    E(personality, personality, "x"),
    E(_llseek, llseek, "dxxpW"),
    E(readv, readv, "dpd"),
    E(writev, writev, "dpd"),
    E(sched_yield, sched_yield, ""),
    E(nanosleep, nanosleep, "pp"),
    EX(mremap, mremap, "puuxp"),
    E(rt_sigaction, rt_sigaction, "Sppu"),
    E(rt_sigprocmask, rt_sigprocmask, "dppu"),
    E(pread64, pread64, "drudd"),
    E(getcwd, getcwd, "pu"),
    E(ugetrlimit, getrlimit, "dp"),
    E(setrlimit, setrlimit, "dp"),
    EX(mmap2, mmap2, "puPFdx"),
    E(stat64, stat64, "sp"),
    E(lstat64, lstat64, "sp"),
    E(fstat64, fstat64, "dp"),
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
    E(chown, chown16, "sdd"),
    E(lchown, lchown16, "sdd"),
    E(fchown, fchown16, "ddd"),
    E(getresuid, getresuid16, "ppp"),
    E(getresgid, getresgid16, "ppp"),
    E(getgroups, getgroups16, "dp"),
    E(setgroups, setgroups16, "dp"),
    E(getuid32, getuid, ""),
    E(getgid32, getgid, ""),
    E(geteuid32, geteuid, ""),
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
    E(getdents64, getdents64, "dpu"),
    E(madvise, madvise, "pud"),
    E(mlock, mlock, "pu"),
    E(mlock2, mlock2, "pux"),
    E(munlock, munlock, "pu"),
    E(mlockall, mlockall, "x"),
    E(munlockall, munlockall, ""),
    E(msync, msync, "pux"),
    E(mincore, mincore, "pup"),
    E(memfd_create, memfd_create, "sx"),
    E(copy_file_range, copy_file_range, "dpdpux"),
    E(splice, splice, "dpdpux"),
    E(tee, tee, "ddux"),
    E(vmsplice, vmsplice, "dpux"),
    E(sync, sync, ""),
    E(syncfs, syncfs, "d"),
    E(gettid, gettid, ""),
    E(tkill, tkill, "dS"),
    E(futex, futex, "pdupxd"),
    E(futex_waitv, futex_waitv, "pdxpd"),
    E(sched_getaffinity, sched_getaffinity, "dup"),
    E(sched_setaffinity, sched_setaffinity, "dup"),
    E(setpriority, setpriority, "ddd"),
    E(getpriority, getpriority, "dd"),
    E(sched_setscheduler, sched_setscheduler, "ddp"),
    E(sched_getscheduler, sched_getscheduler, "d"),
    E(sched_setparam, sched_setparam, "dp"),
    E(sched_getparam, sched_getparam, "dp"),
    E(sched_get_priority_max, sched_get_priority_max, "d"),
    E(sched_get_priority_min, sched_get_priority_min, "d"),
    E(sched_setattr, sched_setattr, "dpx"),
    E(sched_getattr, sched_getattr, "dpux"),
    E(syslog, syslog, "dpd"),
    E(exit_group, exit_group, "d"),
    E(set_tid_address, set_tid_address, "p"),
    E(clock_gettime, clock_gettime, "Cp"),
    E(clock_settime, clock_settime, "Cp"),
    E(clock_getres, clock_getres, "Cp"),
    E(clock_nanosleep, clock_nanosleep, "Cdpp"),
    E(tgkill, tgkill, "ddS"),
    E(openat, openat, "asoM"),
    E(openat2, openat2, "aspu"),
    E(fstatat64, fstatat64, "aspx"),
    E(readlinkat, readlinkat, "asru"),
    E(faccessat, faccessat, "asd"),
    E(faccessat2, faccessat, "asdd"),
    E(set_robust_list, set_robust_list, "pu"),
    E(get_robust_list, get_robust_list, "dpp"),
    E(membarrier, membarrier, "ddd"),
    E(vhangup, vhangup, ""),
    E(unshare, unshare, "x"),
    E(setns, setns, "dx"),
    E(getcpu, getcpu, "ppp"),
    E(dup3, dup3, "ddo"),
    E(prlimit64, prlimit64, "ddpp"),
    E(getrandom, getrandom, "pux"),
    E(statx, statx, "asxxp"),
    E(rseq, rseq, "pudx"),
    E(prctl, prctl, "dxxxx"),
    E(capget, capget, "pp"),
    E(capset, capset, "pp"),
    E(seccomp, seccomp, "dxp"),
    E(chdir, chdir, "s"),
    E(chroot, chroot, "s"),
    E(clock_gettime64, clock_gettime64, "Cp"),
    E(clock_settime64, clock_settime64, "Cp"),
    E(clock_getres_time64, clock_getres64, "Cp"),
    E(clock_nanosleep_time64, clock_nanosleep64, "Cdpp"),
    E(futex_time64, futex_time64, "pdupxd"),
    E(fork, fork, ""),
    E(vfork, vfork, ""),
    E(clone, clone, "xpppp"),
    E(clone3, clone3, "pu"),
    E(execve, execve, "spp"),
    E(wait4, wait4, "dpdp"),
    E(waitid, waitid, "ddpdp"),
    E(setsid, setsid, ""),
    E(getsid, getsid, "d"),
    E(setpgid, setpgid, "dd"),
    E(getpgid, getpgid, "d"),
    E(getpgrp, getpgrp, ""),
    E(rt_sigreturn, rt_sigreturn, ""),
    E(sigreturn, sigreturn, ""),
    E(rt_sigsuspend, rt_sigsuspend, "pu"),
    E(rt_sigpending, rt_sigpending, "pu"),
    E(rt_sigqueueinfo, rt_sigqueueinfo, "dSp"),
    E(rt_tgsigqueueinfo, rt_tgsigqueueinfo, "ddSp"),
    E(rt_sigtimedwait, rt_sigtimedwait, "pppu"),
    E(sigaltstack, sigaltstack, "pp"),
    E(pause, pause, ""),
    E(pipe, pipe, "p"),
    E(pipe2, pipe2, "px"),
    E(pwrite64, pwrite64, "dwudd"),
    E(sendfile, sendfile, "ddpu"),
    E(sendfile64, sendfile64, "ddpu"),
    E(mkdir, mkdir, "sm"),
    E(rmdir, rmdir, "s"),
    E(unlink, unlink, "s"),
    E(rename, rename, "ss"),
    E(symlink, symlink, "ss"),
    E(link, link, "ss"),
    E(chmod, chmod, "sm"),
    E(mkdirat, mkdirat, "asm"),
    E(mount, mount, "sssxp"),
    E(umount2, umount2, "sx"),
    E(unlinkat, unlinkat, "asx"),
    E(renameat, renameat, "asas"),
    E(renameat2, renameat2, "asasx"),
    E(symlinkat, symlinkat, "sas"),
    E(linkat, linkat, "asasx"),
    E(utimensat, utimensat, "aspx"),
    E(utimensat_time64, utimensat_time64, "aspx"),
    E(fchmodat, fchmodat, "asm"),
    E(fchmod, fchmod, "dm"),
    E(fchownat, fchownat, "asddx"),
    E(fchown32, fchown, "ddd"),
    E(lchown32, lchown32, "sdd"),
    E(chown32, chown32, "sdd"),
    E(ftruncate, ftruncate32, "dd"),
    E(ftruncate64, ftruncate, "dxxx"),
    E(fsync, fsync, "d"),
    E(fallocate, fallocate, "ddxxxx"),
    E(arm_fadvise64_64, arm_fadvise64_64, "ddxxxx"),
    E(arm_sync_file_range, arm_sync_file_range, "dxxxxx"),
    E(readahead, readahead, "dxxxu"),
    E(flock, flock, "dd"),
    E(fdatasync, fsync, "d"),
    E(fchdir, fchdir, "d"),
    E(close_range, close_range, "ddx"),
    E(poll, poll, "pud"),
    E(ppoll, ppoll, "pdppu"),
    E(ppoll_time64, ppoll_time64, "pdppu"),
    E(pselect6, pselect6, "dppppp"),
    E(pselect6_time64, pselect6_time64, "dppppp"),
    E(epoll_create1, epoll_create1, "x"),
    E(epoll_ctl, epoll_ctl, "dEdp"),
    E(epoll_pwait, epoll_pwait, "dpddpu"),
    E(epoll_pwait2, epoll_pwait2, "dpdppu"),
    E(eventfd2, eventfd2, "ux"),
    E(io_setup, io_setup, "up"),
    E(io_destroy, io_destroy, "x"),
    E(io_submit, io_submit, "xlp"),
    E(io_cancel, io_cancel, "xpp"),
    E(io_getevents, io_getevents, "xllpp"),
    E(io_uring_setup, io_uring_setup, "up"),
    E(io_uring_enter, io_uring_enter, "duuxpu"),
    E(io_uring_register, io_uring_register, "dupu"),
    E(io_pgetevents, io_pgetevents_time32, "xllppp"),
    E(io_pgetevents_time64, io_pgetevents_time64, "xllppp"),
    E(timerfd_create, timerfd_create, "Cx"),
    E(timerfd_settime, timerfd_settime, "dxpp"),
    E(timerfd_gettime, timerfd_gettime, "dp"),
    E(signalfd4, signalfd4, "dpux"),
    E(inotify_init1, inotify_init1, "x"),
    E(inotify_add_watch, inotify_add_watch, "dsx"),
    E(inotify_rm_watch, inotify_rm_watch, "dd"),
    E(inotify_init, inotify_init, ""),
    E(pidfd_open, pidfd_open, "dx"),
    E(pidfd_send_signal, pidfd_send_signal, "dSpx"),
    E(pidfd_getfd, pidfd_getfd, "ddx"),
    E(epoll_create, epoll_create, "d"),
    E(epoll_wait, epoll_wait, "dpdd"),
    E(eventfd, eventfd, "u"),
    E(timerfd_settime64, timerfd_settime64, "dxpp"),
    E(timerfd_gettime64, timerfd_gettime64, "dp"),
    E(signalfd, signalfd, "dpu"),
    E(restart_syscall, restart_syscall, ""),
    E(timer_create, timer_create, "Cpp"),
    E(timer_settime, timer_settime, "ddpp"),
    E(timer_settime64, timer_settime64, "ddpp"),
    E(timer_gettime, timer_gettime, "dp"),
    E(timer_gettime64, timer_gettime64, "dp"),
    E(timer_getoverrun, timer_getoverrun, "d"),
    E(timer_delete, timer_delete, "d"),
    E(setitimer, setitimer, "dpp"),
    E(getitimer, getitimer, "dp"),
    E(times, times, "p"),
    E(getrusage, getrusage, "dp"),
    E(socket, socket, "dxd"),
    E(socketpair, socketpair, "dxdp"),
    E(bind, bind, "dpd"),
    E(listen, listen, "dd"),
    E(accept, accept, "dpp"),
    E(accept4, accept4, "dppx"),
    E(connect, connect, "dpd"),
    E(getsockname, getsockname, "dpp"),
    E(getpeername, getpeername, "dpp"),
    E(sendto, sendto, "dwuxpd"),
    E(recvfrom, recvfrom, "druxpp"),
    E(setsockopt, setsockopt, "dddpd"),
    E(getsockopt, getsockopt, "dddpp"),
    E(shutdown, shutdown, "dd"),
    /* System V IPC (sysv_ipc.h) */
    E(semget, semget, "KdI"),
    E(semop, semop, "dpu"),
    E(semtimedop, semtimedop, "dpup"),
    E(semctl, semctl, "ddcx"),
    E(msgget, msgget, "KI"),
    E(msgsnd, msgsnd, "dpux"),
    E(msgrcv, msgrcv, "dpulx"),
    E(msgctl, msgctl, "dcp"),
    E(shmget, shmget, "KuI"),
    E(shmctl, shmctl, "dcp"),
    E(shmat, shmat, "dpx"),
    E(shmdt, shmdt, "p"),
    /* POSIX message queues (mqueue.h) */
    E(mq_open, mq_open, "soMp"),
    E(add_key, add_key, "sspud"),
    E(request_key, request_key, "sssd"),
    E(keyctl, keyctl, "ddxxx"),
    E(mq_unlink, mq_unlink, "s"),
    E(mq_timedsend, mq_timedsend, "dwuup"),
    E(mq_timedreceive, mq_timedreceive, "drupp"),
    E(mq_timedsend_time64, mq_timedsend_time64, "dwuup"),
    E(mq_timedreceive_time64, mq_timedreceive_time64, "drupp"),
    E(mq_notify, mq_notify, "dp"),
    E(mq_getsetattr, mq_getsetattr, "dpp"),
    E(semtimedop_time64, semtimedop_time64, "dpup"),
    E(sendmsg, sendmsg, "dpx"),
    E(recvmsg, recvmsg, "dpx"),
    E(sendmmsg, sendmmsg, "dpux"),
    E(recvmmsg, recvmmsg, "dpuxp"),
    E(send, send, "dwux"),
    E(recv, recv, "drux"),
    E(recvmmsg_time64, recvmmsg_time64, "dpuxp"),
    /* file calls (fs_calls.h) */
    E(setxattr, setxattr, "sspux"),
    E(lsetxattr, lsetxattr, "sspux"),
    E(fsetxattr, fsetxattr, "dspux"),
    E(getxattr, getxattr, "sspu"),
    E(lgetxattr, lgetxattr, "sspu"),
    E(fgetxattr, fgetxattr, "dspu"),
    E(listxattr, listxattr, "spu"),
    E(llistxattr, llistxattr, "spu"),
    E(flistxattr, flistxattr, "dpu"),
    E(removexattr, removexattr, "ss"),
    E(lremovexattr, lremovexattr, "ss"),
    E(fremovexattr, fremovexattr, "ds"),
    E(statfs, statfs, "sp"),
    E(fstatfs, fstatfs, "dp"),
    E(mknodat, mknodat, "asmx"),
    E(preadv, preadv, "dpdxx"),
    E(pwritev, pwritev, "dpdxx"),
    E(preadv2, preadv2, "dpdxxx"),
    E(pwritev2, pwritev2, "dpdxxx"),
    E(sched_rr_get_interval, sched_rr_get_interval, "dp"),
    E(truncate, truncate, "sd"),
    E(truncate64, truncate64, "sxxx"),
    E(statfs64, statfs64, "sup"),
    E(fstatfs64, fstatfs64, "dup"),
    E(mknod, mknod, "smx"),
    E(sched_rr_get_interval_time64, sched_rr_get_interval_time64, "dp"),
    /* administrative calls (sys_admin.c), the new mount API (sys_mount_api.c), execveat */
    E(execveat, execveat, "asppx"),
    E(reboot, reboot, "xxxp"),
    E(kexec_load, kexec_load, "pupx"),
    E(kexec_file_load, kexec_file_load, "ddusx"),
    E(init_module, init_module, "pus"),
    E(finit_module, finit_module, "dsx"),
    E(delete_module, delete_module, "sx"),
    E(swapon, swapon, "sx"),
    E(swapoff, swapoff, "s"),
    E(acct, acct, "s"),
    E(quotactl, quotactl, "xsdp"),
    E(quotactl_fd, quotactl_fd, "dxdp"),
    E(pivot_root, pivot_root, "ss"),
    E(open_tree, open_tree, "asx"),
    E(move_mount, move_mount, "asasx"),
    E(fsopen, fsopen, "sx"),
    E(fsconfig, fsconfig, "ddspd"),
    E(fsmount, fsmount, "dxx"),
    E(fspick, fspick, "asx"),
    E(mount_setattr, mount_setattr, "asxpu"),
    E(landlock_create_ruleset, landlock_create_ruleset, "pux"),
    E(landlock_add_rule, landlock_add_rule, "ddpx"),
    E(landlock_restrict_self, landlock_restrict_self, "dx"),
    E(perf_event_open, perf_event_open, "pdddx"),
    E(bpf, bpf, "dpu"),
    E(userfaultfd, userfaultfd, "x"),
    E(fanotify_init, fanotify_init, "xx"),
    E(name_to_handle_at, name_to_handle_at, "asppx"),
    E(open_by_handle_at, open_by_handle_at, "dpx"),
    E(remap_file_pages, remap_file_pages, "puxxx"),
    E(fanotify_mark, fanotify_mark, "dxxxds"),
    E(creat, creat, "sm"),
    E(nice, nice, "d"),
    E(ustat, ustat, "xp"),
    E(sigaction, sigaction, "Spp"),
    E(sigsuspend, sigsuspend, "ddx"),
    E(sigpending, sigpending, "p"),
    E(sigprocmask, sigprocmask, "dpp"),
    E(stat, stat_compat, "sp"),
    E(lstat, lstat_compat, "sp"),
    E(fstat, fstat_compat, "dp"),
    E(sysfs, sysfs, "dxx"),
    E(getdents, getdents, "dpu"),
    E(_newselect, select_time32, "dpppp"),
    E(utimes, utimes, "sp"),
    E(futimesat, futimesat, "asp"),
    E(rt_sigtimedwait_time64, rt_sigtimedwait_time64, "pppu"),
    E(pciconfig_read, pciconfig_read, "xxxup"),
    E(pciconfig_write, pciconfig_write, "xxxup"),
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
