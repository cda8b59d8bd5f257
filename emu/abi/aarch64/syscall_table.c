/* syscall_table.c (aarch64) - AArch64 syscall numbers (generated from the
 * kernel's uapi headers) to handlers and strace formats (see strace.c). */
#include "syscall_table.h"

#include "syscall_nr_aarch64.h"

#define E(nr, fn, fmt) [AARCH64_NR_##nr] = {#nr, sys_##fn, fmt, false}
#define EX(nr, fn, fmt) [AARCH64_NR_##nr] = {#nr, sys_##fn, fmt, true}

const struct syscall_entry syscall_table_aarch64[SYSCALL_TABLE_AARCH64_LEN] = {
    E(getcwd, getcwd, "pu"),
    E(dup, dup, "d"),
    E(dup3, dup3, "ddo"),
    E(fcntl, fcntl, "ddx"),
    E(ioctl, ioctl, "dip"),
    E(faccessat, faccessat, "asd"),
    E(faccessat2, faccessat, "asdd"),
    E(chdir, chdir, "s"),
    E(openat, openat, "asom"),
    E(close, close, "d"),
    E(getdents64, getdents64, "dpu"),
    E(lseek, lseek, "dlW"),
    E(read, read, "dru"),
    E(write, write, "dwu"),
    E(readv, readv, "dpd"),
    E(writev, writev, "dpd"),
    E(pread64, pread64, "drul"),
    E(readlinkat, readlinkat, "asru"),
    E(newfstatat, newfstatat, "aspx"),
    E(fstat, fstat, "dp"),
    E(exit, exit, "d"),
    E(exit_group, exit_group, "d"),
    E(set_tid_address, set_tid_address, "p"),
    E(futex, futex, "pdupxd"),
    E(set_robust_list, set_robust_list, "pu"),
    E(nanosleep, nanosleep, "pp"),
    E(clock_gettime, clock_gettime, "Cp"),
    E(clock_getres, clock_getres, "Cp"),
    E(clock_nanosleep, clock_nanosleep, "Cdpp"),
    E(sched_yield, sched_yield, ""),
    E(sched_getaffinity, sched_getaffinity, "dup"),
    E(kill, kill, "dS"),
    E(tkill, tkill, "dS"),
    E(tgkill, tgkill, "ddS"),
    E(rt_sigaction, rt_sigaction, "Sppu"),
    E(rt_sigprocmask, rt_sigprocmask, "dppu"),
    E(uname, uname, "p"),
    E(getrlimit, getrlimit, "dp"),
    E(umask, umask, "m"),
    E(prctl, prctl, "dxxxx"),
    E(getcpu, getcpu, "ppp"),
    E(gettimeofday, gettimeofday, "pp"),
    E(getpid, getpid, ""),
    E(getppid, getppid, ""),
    E(getuid, getuid, ""),
    E(geteuid, getuid, ""),
    E(getgid, getuid, ""),
    E(getegid, getuid, ""),
    E(gettid, gettid, ""),
    E(sysinfo, sysinfo, "p"),
    EX(brk, brk, "p"),
    E(munmap, munmap, "pu"),
    EX(mremap, mremap, "puuxp"),
    EX(mmap, mmap, "puPFdx"),
    E(mprotect, mprotect, "puP"),
    E(madvise, madvise, "pud"),
    E(personality, personality, "x"),
    E(prlimit64, prlimit64, "ddpp"),
    E(getrandom, getrandom, "pux"),
    E(statx, statx, "asxxp"),
    E(rseq, rseq, "pudx"),
};

static const char *const names[SYSCALL_TABLE_AARCH64_LEN] = {AARCH64_SYSCALL_NAMES};

const char *syscall_name_aarch64(uint64_t nr)
{
    return nr < SYSCALL_TABLE_AARCH64_LEN ? names[nr] : NULL;
}
