/* sandbox.c - once the machine is up (its root, /tmp, the FUSE mount and the
 * first program open), asymu confines itself with a seccomp filter to the
 * host syscalls its own work needs: file access through the descriptors it
 * holds, memory for engines and guests, the event loop, and unmounting at the
 * end. Any other syscall stops the emulator with a message naming it (status
 * 70). --no-sandbox turns it off. */
#include "kernel.h"

#include <errno.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const allowed[] = {
    /* files, always relative to descriptors opened before or through openat2 */
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "dup", "dup3",
    "fcntl", "ioctl", "openat", "openat2", "newfstatat", "fstat", "statx", "fstatfs", "statfs",
    "getdents64", "readlink", "readlinkat", "mkdirat", "mkdir", "unlinkat", "unlink", "rmdir",
    "renameat2", "symlinkat", "linkat", "utimensat", "fchmodat", "chmod", "ftruncate",
    "fallocate",
    "mknodat", /* the node of a guest AF_UNIX socket bound to a path: never a host socket */
    "access", "faccessat", "faccessat2", "getcwd",
    /* memory: guest memory and Unicorn's engines and translation buffers */
    "mmap", "munmap", "mprotect", "mremap", "madvise", "brk",
    /* the event loop (libuv), host signals, FUSE */
    "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "eventfd2", "pipe2", "poll",
    "ppoll", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "umount2",
    /* the process itself */
    "futex", "getpid", "gettid", "getuid", "geteuid", "getgid", "getegid", "clock_gettime",
    "clock_nanosleep", "nanosleep", "getrandom", "exit", "exit_group", "tgkill",
    "sched_yield", "restart_syscall", "prlimit64",
};

#ifdef ASYMU_SANITIZED
/* Sanitizer builds only (-DASYMU_SANITIZE): LeakSanitizer's check at exit
 * stops the process's threads from a tracer thread it clones, with ptrace,
 * lists /proc/self/task with open(2) and getdents(2) (a refused call kills
 * the tracer, whose SIGSYS is blocked, and the check then waits for it
 * forever), and stat(2)s its suppressions file. Release builds never allow
 * these. */
static const char *const sanitizer[] = {"clone", "prctl", "ptrace", "wait4", "getppid",
                                        "sched_getaffinity", "process_vm_readv", "open",
                                        "getdents", "stat"};
#endif

/* fusermount3, which a FUSE unmount runs when asymu is not root. */
static const char *const spawn[] = {"clone", "clone3", "vfork", "execve", "wait4"};

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

int sandbox_enter(bool may_spawn, char *why, size_t whylen)
{
    struct sigaction sa = {.sa_sigaction = refused, .sa_flags = SA_SIGINFO};
    sigaction(SIGSYS, &sa, NULL);
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
    if (!ctx) {
        snprintf(why, whylen, "cannot create the seccomp filter (use --no-sandbox)");
        return -ENOMEM;
    }
    int err = allow_all(ctx, allowed, sizeof allowed / sizeof *allowed);
#ifdef ASYMU_SANITIZED
    if (err == 0)
        err = allow_all(ctx, sanitizer, sizeof sanitizer / sizeof *sanitizer);
#endif
    if (err == 0 && may_spawn)
        err = allow_all(ctx, spawn, sizeof spawn / sizeof *spawn);
    if (err == 0)
        err = seccomp_load(ctx);
    seccomp_release(ctx);
    if (err < 0)
        snprintf(why, whylen, "cannot load the seccomp filter: %s (use --no-sandbox)",
                 strerror(-err));
    return err;
}
