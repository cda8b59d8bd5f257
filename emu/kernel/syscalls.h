/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscalls.h - dispatching guest syscalls (syscall.c), the handlers both
 * ABIs share (sys_*.c) and the cores their per-ABI wrappers call. */
#ifndef ASYMU_SYSCALLS_H
#define ASYMU_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct task;

/* A syscall handler: arguments are the raw register values (zero-extended on
 * AArch32); returns the value for x0/r0, a negative errno on failure. */
typedef int64_t (*syscall_fn)(struct task *t, const uint64_t a[6]);

struct syscall_entry {
    const char *name;
    syscall_fn fn;
    const char *args; /* strace argument format, one letter per argument (strace.c) */
    bool ret_hex;     /* the result is an address */
};

struct abi;
/* The handler of syscall nr in an ABI's table or its private range, or
 * NULL (ENOSYS). */
const struct syscall_entry *syscall_lookup(const struct abi *abi, uint64_t nr);
void syscall_dispatch(struct task *t);
/* Completes t's blocked syscall if its resume function allows: false while
 * it must keep waiting. t's registers are loaded. */
bool syscall_resume(struct task *t);

/* Handlers shared by both ABIs, grouped by area (sys_*.c). */
#define SYSCALL_DECL(name) int64_t sys_##name(struct task *t, const uint64_t a[6])
SYSCALL_DECL(exit);
SYSCALL_DECL(seccomp);
SYSCALL_DECL(futex_waitv);
SYSCALL_DECL(exit_group);
SYSCALL_DECL(clone);
SYSCALL_DECL(clone3);
SYSCALL_DECL(fork);
SYSCALL_DECL(vfork);
SYSCALL_DECL(execve);
SYSCALL_DECL(execveat);
SYSCALL_DECL(wait4);
SYSCALL_DECL(waitid);
SYSCALL_DECL(setsid);
SYSCALL_DECL(getsid);
SYSCALL_DECL(setpgid);
SYSCALL_DECL(getpgid);
SYSCALL_DECL(getpgrp);
SYSCALL_DECL(rt_sigreturn);
SYSCALL_DECL(sigreturn);
SYSCALL_DECL(rt_sigsuspend);
SYSCALL_DECL(rt_sigpending);
SYSCALL_DECL(rt_sigtimedwait);
int64_t do_rt_sigtimedwait(struct task *t, const uint64_t a[6], unsigned field);
/* arm's old signal calls: one-word masks, struct old sigaction. */
SYSCALL_DECL(sigaction);
SYSCALL_DECL(sigprocmask);
SYSCALL_DECL(sigpending);
SYSCALL_DECL(sigsuspend);
SYSCALL_DECL(sigaltstack);
SYSCALL_DECL(pause);
SYSCALL_DECL(rt_sigqueueinfo);
SYSCALL_DECL(rt_tgsigqueueinfo);
SYSCALL_DECL(pipe2);
SYSCALL_DECL(ppoll);
SYSCALL_DECL(poll);
int64_t do_ppoll(struct task *t, const uint64_t a[6], unsigned field);
/* Installs the signal mask at guest umask (size bytes) for a wait, as
 * ppoll does: 0, or -EINVAL/-EFAULT. */
int wait_with_mask(struct task *t, uint64_t umask, uint64_t size);
int64_t do_pselect6(struct task *t, const uint64_t a[6], unsigned field);
SYSCALL_DECL(pselect6);
/* Administrative calls Linux refuses here, or asymu does (sys_admin.c). */
SYSCALL_DECL(reboot);
SYSCALL_DECL(kexec_load);
SYSCALL_DECL(kexec_file_load);
SYSCALL_DECL(init_module);
SYSCALL_DECL(finit_module);
SYSCALL_DECL(delete_module);
SYSCALL_DECL(swapon);
SYSCALL_DECL(swapoff);
SYSCALL_DECL(acct);
SYSCALL_DECL(quotactl);
SYSCALL_DECL(quotactl_fd);
SYSCALL_DECL(pivot_root);
SYSCALL_DECL(landlock_create_ruleset);
SYSCALL_DECL(landlock_add_rule);
SYSCALL_DECL(landlock_restrict_self);
SYSCALL_DECL(perf_event_open);
SYSCALL_DECL(bpf);
SYSCALL_DECL(userfaultfd);
SYSCALL_DECL(fanotify_init);
SYSCALL_DECL(fanotify_mark);
SYSCALL_DECL(name_to_handle_at);
SYSCALL_DECL(open_by_handle_at);
SYSCALL_DECL(remap_file_pages);
/* The new mount API (sys_mount_api.c). */
SYSCALL_DECL(open_tree);
SYSCALL_DECL(move_mount);
SYSCALL_DECL(fsopen);
SYSCALL_DECL(fsconfig);
SYSCALL_DECL(fsmount);
SYSCALL_DECL(fspick);
SYSCALL_DECL(mount_setattr);
/* arm's _newselect: select with a struct old_timeval32 (sys_poll.c). */
SYSCALL_DECL(select_time32);
SYSCALL_DECL(getpid);
SYSCALL_DECL(getppid);
SYSCALL_DECL(gettid);
SYSCALL_DECL(set_tid_address);
SYSCALL_DECL(set_robust_list);
SYSCALL_DECL(get_robust_list);
SYSCALL_DECL(membarrier);
SYSCALL_DECL(vhangup);
SYSCALL_DECL(unshare);
SYSCALL_DECL(setns);
SYSCALL_DECL(mlock);
SYSCALL_DECL(mlock2);
SYSCALL_DECL(munlock);
SYSCALL_DECL(mlockall);
SYSCALL_DECL(munlockall);
SYSCALL_DECL(rseq);
SYSCALL_DECL(uname);
SYSCALL_DECL(personality);
SYSCALL_DECL(kill);
SYSCALL_DECL(tgkill);
SYSCALL_DECL(tkill);
SYSCALL_DECL(rt_sigaction);
SYSCALL_DECL(rt_sigprocmask);
SYSCALL_DECL(sched_yield);
SYSCALL_DECL(sched_getaffinity);
SYSCALL_DECL(sched_setaffinity);
SYSCALL_DECL(getcpu);
SYSCALL_DECL(setpriority);
SYSCALL_DECL(getpriority);
SYSCALL_DECL(sched_setscheduler);
SYSCALL_DECL(sched_getscheduler);
SYSCALL_DECL(sched_getparam);
SYSCALL_DECL(sched_setparam);
SYSCALL_DECL(sched_get_priority_max);
SYSCALL_DECL(sched_get_priority_min);
SYSCALL_DECL(syslog);
SYSCALL_DECL(futex);
SYSCALL_DECL(sysinfo);
SYSCALL_DECL(prctl);
SYSCALL_DECL(umask);

SYSCALL_DECL(read);
SYSCALL_DECL(write);
SYSCALL_DECL(readv);
SYSCALL_DECL(writev);
SYSCALL_DECL(pread64);
SYSCALL_DECL(openat);
SYSCALL_DECL(openat2);
SYSCALL_DECL(close);
SYSCALL_DECL(lseek);
SYSCALL_DECL(fstat);
SYSCALL_DECL(newfstatat);
SYSCALL_DECL(statx);
SYSCALL_DECL(readlinkat);
SYSCALL_DECL(faccessat);
SYSCALL_DECL(ioctl);
SYSCALL_DECL(fcntl);
SYSCALL_DECL(dup);
SYSCALL_DECL(dup3);
SYSCALL_DECL(getcwd);
SYSCALL_DECL(chdir);
SYSCALL_DECL(chroot);
SYSCALL_DECL(getdents64);
/* getdents64 into a host buffer of len bytes (at most 64 KiB): the bytes
 * of linux_dirent64 records, or a negative errno. */
int64_t do_getdents64(struct task *t, int fd, uint8_t *buf, size_t len);
SYSCALL_DECL(pwrite64);
SYSCALL_DECL(sendfile);
int64_t do_sendfile(struct task *t, const uint64_t a[6], bool loff);
SYSCALL_DECL(mkdirat);
SYSCALL_DECL(mount);
SYSCALL_DECL(umount2);
SYSCALL_DECL(unlinkat);
SYSCALL_DECL(renameat);
SYSCALL_DECL(renameat2);
SYSCALL_DECL(symlinkat);
SYSCALL_DECL(linkat);
SYSCALL_DECL(utimensat);
SYSCALL_DECL(fchmodat);
SYSCALL_DECL(fchmod);
SYSCALL_DECL(fchownat);
SYSCALL_DECL(fchown);
SYSCALL_DECL(ftruncate);
SYSCALL_DECL(fsync);
SYSCALL_DECL(fchdir);
SYSCALL_DECL(close_range);
int64_t do_utimensat(struct task *t, const uint64_t a[6], unsigned field);
/* do_utimes(): times is {atime sec, nsec, mtime sec, nsec} (UTIME_NOW and
 * UTIME_OMIT in nsec) or NULL for now; a NULL upath with a descriptor
 * works on its file, as futimesat(fd, NULL, tv) does. */
int64_t do_utimes(struct task *t, int dirfd, uint64_t upath, const int64_t *times,
                  uint64_t flags);

SYSCALL_DECL(brk);
SYSCALL_DECL(mmap);
SYSCALL_DECL(munmap);
SYSCALL_DECL(mprotect);
SYSCALL_DECL(mremap);
SYSCALL_DECL(madvise);
SYSCALL_DECL(msync);
SYSCALL_DECL(mincore);
SYSCALL_DECL(memfd_create);
SYSCALL_DECL(copy_file_range);
SYSCALL_DECL(splice); /* splice.c */
SYSCALL_DECL(tee);
SYSCALL_DECL(vmsplice);
SYSCALL_DECL(sync);
SYSCALL_DECL(syncfs);

SYSCALL_DECL(clock_gettime);
SYSCALL_DECL(clock_getres);
SYSCALL_DECL(clock_settime);
SYSCALL_DECL(gettimeofday);
SYSCALL_DECL(settimeofday);
SYSCALL_DECL(adjtimex);
SYSCALL_DECL(clock_adjtime);
/* adjtimex and clock_adjtime on a struct __kernel_timex or, time32, an
 * old_timex32 (arm's own calls of those names, sys_adjtimex_time32 and
 * sys_clock_adjtime32). */
int64_t do_adjtimex(struct task *t, uint64_t addr, bool time32);
int64_t do_clock_adjtime(struct task *t, int clk, uint64_t addr, bool time32);
SYSCALL_DECL(ioprio_set);
SYSCALL_DECL(ioprio_get);
SYSCALL_DECL(kcmp);
SYSCALL_DECL(process_madvise);
SYSCALL_DECL(process_mrelease);
SYSCALL_DECL(mbind);
SYSCALL_DECL(get_mempolicy);
SYSCALL_DECL(set_mempolicy);
SYSCALL_DECL(migrate_pages);
SYSCALL_DECL(move_pages);
SYSCALL_DECL(nanosleep);
SYSCALL_DECL(clock_nanosleep);
SYSCALL_DECL(getrandom);

/* Shared cores that ABI-specific wrappers call. */
int64_t do_mmap(struct task *t, uint64_t addr, uint64_t len, int prot, int flags, int fd,
                uint64_t off);
int64_t do_lseek(struct task *t, int fd, int64_t off, int whence);
int64_t do_fstatat(struct task *t, int dirfd, uint64_t path, uint64_t statbuf, int flags);
struct stat;
/* The stat of (dirfd, path) with AT_* flags (AT_EMPTY_PATH,
 * AT_SYMLINK_NOFOLLOW), as fstatat finds it: 0 or a negative errno. */
int stat_at(struct task *t, int dirfd, uint64_t upath, int flags, struct stat *st);
/* Clocks with `field`-byte timespec members: 8 on arm64 and for arm's
 * *_time64 calls, 4 for arm's legacy calls. */
int64_t do_clock_gettime(struct task *t, int clk, uint64_t addr, unsigned field);
int64_t do_clock_getres(struct task *t, int clk, uint64_t addr, unsigned field);
int64_t do_clock_settime(struct task *t, int clk, uint64_t addr, unsigned field);
int64_t do_clock_nanosleep(struct task *t, int clk, int flags, uint64_t req, uint64_t rem,
                           unsigned field);
int64_t do_nanosleep(struct task *t, uint64_t req, uint64_t rem, unsigned field);
/* A guest timespec as nanoseconds, or -EFAULT/-EINVAL. */
int64_t timespec_from_guest(struct task *t, uint64_t addr, unsigned field);
/* Writes ns as a guest timespec: 0 or -EFAULT. */
int timespec_to_guest(struct task *t, uint64_t addr, uint64_t ns, unsigned field);
int64_t do_futex(struct task *t, const uint64_t a[6], unsigned field);
/* Resolves a guest (dirfd, path) pair to an absolute guest path. */
int path_at(struct task *t, int dirfd, const char *path, char *out, size_t len);
int64_t path_from_guest(struct task *t, int dirfd, uint64_t upath, char *out, size_t len);

/* Prints once per syscall number that the guest used and asymu lacks. */
void syscall_report_unknown(struct task *t, uint64_t nr);
/* Why Linux 5.15 on Debian 12's arm64 kernel answers syscall nr of abi with
 * ENOSYS too, or NULL when Linux has the call (syscall_ni.c). */
const char *syscall_linux_enosys(const struct abi *abi, uint64_t nr);

#endif
