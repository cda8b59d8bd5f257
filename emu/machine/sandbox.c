/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sandbox.c - once the machine is up (its root, /tmp, the FUSE mount and the
 * first program open), asymu confines itself: as root, a mount namespace
 * where only the guest's writable places are writable (mountns.c), then
 * Landlock to the guest's host directories (landlock.c), then a seccomp
 * filter to the host syscalls its own work needs, with their arguments
 * checked where a syscall could reach beyond that work: paths only relative
 * to descriptors it holds (never AT_FDCWD), a file's mode, times and
 * extended attributes changed through a descriptor only (Landlock has no
 * right for them, so no path-based call that changes them is allowed), only
 * the ioctl requests it issues, signals and resource limits only for
 * itself, and no new processes or programs. Any other call stops the
 * emulator with a message naming it (status 70). --no-sandbox turns all
 * off. docs/security.md has the threat model. */
#include "emu.h"
#include "pagecopy.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Allowed whatever their arguments. */
static const char *const allowed[] = {
    /* descriptors the emulator holds */
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "dup", "dup3",
    "fstat", "fstatfs", "getdents64", "ftruncate", "fallocate",
    /* metadata through a descriptor open for real (vfs_reopen opens it under
     * Landlock; O_PATH descriptors are EBADF to these) */
    "fchmod", "fgetxattr", "fsetxattr", "flistxattr", "fremovexattr",
    /* memory: guest memory and Unicorn's engines and translation buffers */
    "mmap", "munmap", "mprotect", "mremap", "madvise", "brk",
    /* the guest's shared memory (shmem.c, MAP_SHARED, memfd_create) */
    "memfd_create", "msync", "mincore",
    /* the event loop (libuv), host signals, FUSE */
    "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "eventfd2", "pipe2", "poll",
    "ppoll", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
    /* the process itself */
    "futex", "getpid", "gettid", "getuid", "geteuid", "getgid", "getegid", "clock_gettime",
    "clock_nanosleep", "nanosleep", "getrandom", "exit", "exit_group", "sched_yield",
    "restart_syscall",
    /* glibc's qsort of more than 1 KiB asks the RAM size once (msort.c,
     * sysconf(_SC_PHYS_PAGES)); it only fills a struct, and tells nothing
     * /proc/meminfo, held open, does not */
    "sysinfo",
};

/* Allowed only relative to a directory descriptor: the directories of the
 * guest's places (openat2 with RESOLVE_IN_ROOT, sysfs-fs/vfs.c) and the
 * parents vfs_parent opens in them. Argument 0 is the directory. Landlock
 * bounds what the opens (not O_PATH ones) and changes reach; the look-ups
 * (stat, readlink, access) reach any host path (docs/security.md, "Known
 * limits"). No fchmodat, fchmodat2, utimensat with a path or *xattrat:
 * Landlock does not cover them. */
static const char *const at_dirfd[] = {
    "openat", "openat2", "newfstatat", "statx", "readlinkat", "faccessat", "faccessat2",
    "mkdirat", "unlinkat",
    "mknodat", /* the node of a guest AF_UNIX socket bound to a path: never a host socket */
};

/* The terminal queries sys_ioctl.c passes through (and isatty's TCGETS),
 * FIONREAD of a FIFO or the console (a count), libuv making the console
 * non-blocking when it watches it, and PAGEMAP_SCAN on asymu's own
 * /proc/self/pagemap, read-only without PM_SCAN_WP_MATCHING (pagecopy.c:
 * a fork of a huge reservation). */
static const unsigned long ioctl_requests[] = {TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO,
                                               PAGEMAP_SCAN_REQUEST};

/* Descriptor flags and status flags (libuv, libfuse); never F_SETOWN or
 * F_SETSIG, which would aim SIGIO at another process. */
static const unsigned long fcntl_commands[] = {F_GETFD, F_SETFD, F_GETFL, F_SETFL,
                                               F_DUPFD_CLOEXEC};

#ifdef ASYMU_SANITIZED
/* Sanitizer builds only (-DASYMU_SANITIZE): LeakSanitizer's check at exit
 * stops the process's threads from a tracer thread it clones, with ptrace,
 * lists /proc/PID/task with open(2) and getdents(2), and reads
 * /proc/self/maps and its modules with openat(AT_FDCWD), newfstatat and
 * readlink. Release builds never allow these. */
static const char *const sanitizer[] = {"clone", "prctl", "ptrace", "wait4", "getppid",
                                        "sched_getaffinity", "process_vm_readv", "open",
                                        "openat", "newfstatat", "stat", "getdents", "readlink"};
#endif

/* SIGSYS from the filter: say which syscall, in async-signal-safe calls. */
static void refused(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)uctx;
    char msg[160] = "asymu: the sandbox refused host syscall ";
    size_t n = strlen(msg);
    char digits[12];
    int d = 0;
    for (unsigned v = (unsigned)info->si_syscall; d == 0 || v; v /= 10)
        digits[d++] = (char)('0' + v % 10);
    while (d)
        msg[n++] = digits[--d];
    static const char tail[] = "; this is a bug: rerun with --no-sandbox and report it\n";
    memcpy(msg + n, tail, sizeof tail - 1);
    n += sizeof tail - 1;
    ssize_t w = write(STDERR_FILENO, msg, n);
    (void)w;
    _exit(70);
}

static int allow_all(scmp_filter_ctx ctx, const char *const *names, size_t n)
{
    int err = 0;
    for (size_t i = 0; i < n && err == 0; i++) {
        int nr = seccomp_syscall_resolve_name(names[i]);
        if (nr != __NR_SCMP_ERROR)
            err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
    }
    return err;
}

/* A directory argument that is a descriptor, never AT_FDCWD. The kernel
 * reads it as an int (the syscalls' `int dfd`), so only its low 32 bits
 * count: 0x00000000ffffff9c and the sign-extended 0xffffffffffffff9c are
 * both AT_FDCWD. libseccomp's SCMP_CMP32 only truncates the datum and
 * still compares 64 bits, so an NE test would let one of them through:
 * require instead that bit 31 is clear (a non-negative int), whatever the
 * upper half holds. Any other negative value is EBADF to the kernel. */
#define DIRFD_ARG(i) SCMP_CMP64(i, SCMP_CMP_MASKED_EQ, (uint64_t)0x80000000u, 0)

static int allow_checked(scmp_filter_ctx ctx, const struct sandbox_paths *p)
{
    int err = 0;
    /* --control's connections: accepted on its socket, no other. */
    if (p->control_fd >= 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(accept4), 1,
                               SCMP_A0_32(SCMP_CMP_EQ, (uint32_t)p->control_fd));
    /* --gdb's connection likewise, on its socket alone. */
    if (p->gdb_fd >= 0 && err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(accept4), 1,
                               SCMP_A0_32(SCMP_CMP_EQ, (uint32_t)p->gdb_fd));
    for (size_t i = 0; i < sizeof at_dirfd / sizeof *at_dirfd && err == 0; i++)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, seccomp_syscall_resolve_name(at_dirfd[i]), 1,
                               DIRFD_ARG(0));
    /* futimens: utimensat with a NULL path changes the file of the
     * descriptor itself, never one a path names. */
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(utimensat), 1,
                               SCMP_A1_64(SCMP_CMP_EQ, 0));
    /* Two directories each; symlinkat's is its second argument. */
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(renameat2), 2, DIRFD_ARG(0),
                               DIRFD_ARG(2));
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(linkat), 2, DIRFD_ARG(0),
                               DIRFD_ARG(2));
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(symlinkat), 1, DIRFD_ARG(1));
    /* The request is an unsigned int for the kernel: compare all 64 bits so
     * that nothing in the upper half slips another request through. */
    for (size_t i = 0; i < sizeof ioctl_requests / sizeof *ioctl_requests && err == 0; i++)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
                               SCMP_A1_64(SCMP_CMP_EQ, ioctl_requests[i]));
    for (size_t i = 0; i < sizeof fcntl_commands / sizeof *fcntl_commands && err == 0; i++)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1,
                               SCMP_A1_64(SCMP_CMP_EQ, fcntl_commands[i]));
    /* raise() and abort() signal the emulator itself; no other process. */
    uint64_t self = (uint64_t)getpid();
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                               SCMP_A0_64(SCMP_CMP_EQ, self));
    /* getrlimit is prlimit64(0, ...). */
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1,
                               SCMP_A0_64(SCMP_CMP_EQ, 0));
    if (err == 0)
        err = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1,
                               SCMP_A0_64(SCMP_CMP_EQ, self));
    return err;
}

static int seccomp_confine(const struct sandbox_paths *p, char *why, size_t whylen)
{
    struct sigaction sa = {.sa_sigaction = refused, .sa_flags = SA_SIGINFO};
    sigaction(SIGSYS, &sa, NULL);
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
    if (!ctx) {
        snprintf(why, whylen, "cannot create the seccomp filter (use --no-sandbox)");
        return -ENOMEM;
    }
    int err = allow_all(ctx, allowed, sizeof allowed / sizeof *allowed);
    if (err == 0)
        err = allow_checked(ctx, p);
#ifdef ASYMU_SANITIZED
    if (err == 0)
        err = allow_all(ctx, sanitizer, sizeof sanitizer / sizeof *sanitizer);
#endif
    if (err == 0)
        err = seccomp_load(ctx);
    seccomp_release(ctx);
    if (err < 0)
        snprintf(why, whylen, "cannot load the seccomp filter: %s (use --no-sandbox)",
                 strerror(-err));
    return err;
}

int sandbox_enter(const struct sandbox_paths *p, char *why, size_t whylen)
{
    /* Landlock needs no_new_privs; seccomp_load would set it too, but
     * Landlock comes first: its own syscalls are not in the filter. */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
        snprintf(why, whylen, "cannot set no_new_privs: %s (use --no-sandbox)", strerror(errno));
        return -errno;
    }
    /* Mounting is refused once Landlock is in force: the namespace first. */
    int err = mountns_readonly(p, why, whylen);
    if (err >= 0)
        err = landlock_restrict(p, why, whylen);
    return err < 0 ? err : seccomp_confine(p, why, whylen);
}

void emu_confinement(char *out, size_t len)
{
    int abi = landlock_abi();
    if (abi > 0)
        snprintf(out, len, "seccomp (argument-checked) + landlock ABI %d", abi);
    else
        snprintf(out, len, "seccomp (argument-checked) only (landlock unavailable: %s)",
                 abi == -EOPNOTSUPP ? "disabled at boot" : abi == -ENOSYS ? "not in this kernel"
                                                                          : strerror(-abi));
}
