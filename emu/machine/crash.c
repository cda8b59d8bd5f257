/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crash.c - when asymu itself dies. Two guards:
 *
 * - A fatal host signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT: a bug in
 *   asymu or in Unicorn) prints one report on stderr, with the host pc, the
 *   guest task that was running, its pc and its last syscall, and exits with
 *   EXIT_HOST_CRASH. The handler runs on its own stack and uses only
 *   async-signal-safe calls.
 * - A janitor process, forked at boot before the sandbox, holds the read end
 *   of a pipe whose write end only asymu has. It removes the guest's private
 *   /tmp and /dev/shm and unmounts the FUSE export (if asymu mounted it) in two cases:
 *   asymu asks at its orderly end and waits for the answer, or asymu is gone
 *   for any other reason (a crash, SIGKILL, the OOM killer) and the pipe
 *   reads as ended. The janitor does it because it stays unconfined: the
 *   sandboxed emulator may neither unmount (Landlock refuses it), run
 *   fusermount3, nor remove the /tmp directory itself from its parent. */
#include "abi.h"
#include "crash.h"
#include "engine_exact.h"
#include "machine.h"
#include "mm_window.h"
#include "shmem.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

/* Process-wide: the machine a fatal host signal reports on; a signal
 * handler takes no argument, and the handler is the process's. */
static struct machine *crash_machine;
/* The stack on_fatal runs on (the host's fault may be a stack overflow).
 * Process-wide: the process's, as its signal handlers are, not any
 * machine's. */
static char altstack[64 * 1024];
/* Process-wide: one janitor per host process, which it outlives. */
static int janitor_fd = -1;   /* asymu's requests to the janitor */
static int janitor_done = -1; /* the janitor's answer: it has cleaned up */

/* What asymu writes to the janitor. */
#define JANITOR_MOUNTED 'M' /* the FUSE export is mounted now */
#define JANITOR_CLEAN 'C'   /* clean up now and answer */

/* ---- the report ---- */

struct line {
    char buf[512];
    size_t n;
};

static void put(struct line *l, const char *s)
{
    while (*s && l->n < sizeof l->buf - 1)
        l->buf[l->n++] = *s++;
}

static void put_num(struct line *l, uint64_t v, unsigned base)
{
    char digits[24];
    int d = 0;
    do {
        digits[d++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    if (base == 16)
        put(l, "0x");
    while (d && l->n < sizeof l->buf - 1)
        l->buf[l->n++] = digits[--d];
}

static const char *host_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a fatal signal";
    }
}

/* The host instruction a fault signal came from. */
static uintptr_t host_pc_of(const void *uctx)
{
#if defined(__x86_64__)
    return (uintptr_t)((const ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#else
    (void)uctx;
    return 0;
#endif
}

static void on_fatal(int sig, siginfo_t *info, void *uctx)
{
    struct machine *m = crash_machine;
    if (sig == SIGBUS && info->si_code == BUS_ADRERR && shmem_bus_owned(info->si_addr)) {
        /* Guest code touched it and gets the SIGBUS (run.c): at the
         * instruction that did (engine_exact_abort, which does not
         * return), else at the end of the block, the page replaced by
         * zeros for the access to finish (uc_emu_stop only sets flags, as
         * qemu's own kicks from signal handlers do). */
        if (m && m->running_uc && m->current) {
            m->bus_fault_host = (uintptr_t)info->si_addr;
            engine_exact_abort(m->running_uc, task_abi(m->current), sig, host_pc_of(uctx));
        }
        if (shmem_bus_recover(info->si_addr)) {
            if (m && m->running_uc)
                uc_emu_stop(m->running_uc);
            return;
        }
    }
    if (sig == SIGSEGV && info->si_code > 0 &&
        window_fault_recover(m, info->si_addr, host_pc_of(uctx)))
        return; /* guest code in an engine window: the guest gets it (run.c) */
    struct line l = {.n = 0};
    put(&l, "asymu: internal error: host ");
    put(&l, host_signal_name(sig));
#if defined(__x86_64__)
    put(&l, " at host pc ");
    put_num(&l, (uint64_t)host_pc_of(uctx), 16);
#endif
    if ((sig == SIGSEGV || sig == SIGBUS) && info->si_code > 0 /* from the kernel */) {
        put(&l, ", address ");
        put_num(&l, (uint64_t)(uintptr_t)info->si_addr, 16);
    }
    if (info->si_code == SI_USER || info->si_code == SI_TKILL) {
        put(&l, ", sent by host pid ");
        put_num(&l, (uint64_t)info->si_pid, 10);
    }
    struct task *t = m ? m->current : NULL;
    if (t) {
        put(&l, "; guest pid ");
        put_num(&l, (uint64_t)t->proc->pid, 10);
        put(&l, " tid ");
        put_num(&l, (uint64_t)t->tid, 10);
        put(&l, " (");
        put(&l, t->se.comm);
        put(&l, ")");
        if (m->running_uc) {
            /* Best effort: the engine's registers may be mid-update. */
            put(&l, " pc ");
            put_num(&l, task_abi(t)->get_pc(m->running_uc), 16);
        }
    } else {
        put(&l, "; no guest task was running");
    }
    if (m && m->last_syscall_abi) {
        const char *name = m->last_syscall_abi->syscall_name(m->last_syscall_nr);
        put(&l, "; last guest syscall ");
        put(&l, name ? name : "?");
        put(&l, " (");
        put(&l, m->last_syscall_abi->name);
        put(&l, " ");
        put_num(&l, m->last_syscall_nr, 10);
        put(&l, ")");
    }
    put(&l, "\nasymu: this is a bug in asymu; the guest's /tmp, /dev/shm and any --sysfs-mount are "
            "cleaned up\n");
    ssize_t w = write(STDERR_FILENO, l.buf, l.n);
    (void)w;
    _exit(EXIT_HOST_CRASH);
}

void crash_guard_start(struct machine *m)
{
    crash_machine = m;
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {.sa_sigaction = on_fatal, .sa_flags = SA_SIGINFO | SA_ONSTACK};
    sigemptyset(&sa.sa_mask);
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
        sigaction(fatal[i], &sa, NULL);
}

void crash_guard_stop(void)
{
    crash_machine = NULL;
}

/* ---- the janitor ---- */

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

static void unmount(const char *dir)
{
    if (geteuid() == 0) {
        umount2(dir, MNT_DETACH);
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        execlp("fusermount3", "fusermount3", "-u", "-z", dir, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
}

/* The mount point is unmounted only once asymu said it mounted it; p is
 * NULL once cleaned. */
static void clean_up(bool mounted, const struct janitor_paths *p, const char *mount)
{
    if (mounted && mount)
        unmount(mount);
    if (!p)
        return;
    for (size_t i = 0; i < sizeof p->dirs / sizeof *p->dirs; i++)
        if (p->dirs[i] && p->dirs[i][0])
            nftw(p->dirs[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    struct stat st;
    if (p->control && lstat(p->control, &st) == 0 && S_ISSOCK(st.st_mode))
        unlink(p->control);
}

/* Process-wide: set by the janitor process's own SIGTERM handler. */
static volatile sig_atomic_t janitor_stop;

static void on_janitor_stop(int sig)
{
    (void)sig;
    janitor_stop = 1;
}

/* The janitor's life: clean up when asymu asks (and answer on done), or
 * when it is gone, or when someone sends it SIGTERM (its owner wants it
 * gone: it cleans up and ends as if asymu had). It ends only then, so
 * asymu never sees it exit. */
static void janitor(int fd, int done, const struct janitor_paths *dirs)
{
    const char *mount = dirs->mount;
    prctl(PR_SET_NAME, "asymu-janitor");
    /* A Ctrl-C reaches the whole process group: the janitor outlives asymu
     * (setsid below already takes it out of the group; this covers the
     * moment before). SIGTERM is no group signal: kill(1)'s default. */
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    /* No SA_RESTART: the read below returns EINTR and the loop sees it. */
    sigaction(SIGTERM, &(struct sigaction){.sa_handler = on_janitor_stop}, NULL);
    bool mounted = false;
    char c;
    ssize_t n;
    while (!janitor_stop && (n = read(fd, &c, 1)) != 0) {
        if (n < 0 && errno != EINTR)
            break;
        if (n == 1 && c == JANITOR_MOUNTED)
            mounted = true;
        if (n == 1 && c == JANITOR_CLEAN) {
            clean_up(mounted, dirs, mount);
            mounted = false;
            dirs = NULL;
            ssize_t w = write(done, "D", 1);
            (void)w;
        }
    }
    clean_up(mounted, dirs, mount);
    _exit(0);
}

/* Closes descriptors lo to hi: close_range (Linux 5.9) in one call, else
 * one by one up to the descriptor limit. */
static void close_span(unsigned lo, unsigned hi)
{
    if (lo > hi || syscall(SYS_close_range, lo, hi, 0) == 0)
        return;
    struct rlimit rl;
    unsigned long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY
                            ? (unsigned long)rl.rlim_max
                            : 1UL << 20;
    for (unsigned long fd = lo; fd <= hi && fd < max; fd++)
        close((int)fd);
}

/* Closes every descriptor but a and b (a < b), however many asymu holds:
 * with a bound of 1024, the write end of the janitor's own pipe (past it
 * when asymu inherited or opened 1,024 descriptors) stayed open here, and
 * the janitor never saw asymu end (issue 24, item 7). */
static void close_all_but(unsigned a, unsigned b)
{
    if (a > 0)
        close_span(0, a - 1);
    close_span(a + 1, b - 1);
    close_span(b + 1, ~0U);
}

int crash_janitor_start(const struct janitor_paths *paths)
{
    int p[2], d[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -errno;
    if (pipe2(d, O_CLOEXEC) < 0) {
        int err = -errno;
        close(p[0]), close(p[1]);
        return err;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int err = -errno;
        close(p[0]), close(p[1]), close(d[0]), close(d[1]);
        return err;
    }
    if (pid == 0) {
        /* Nothing of asymu's may stay open here: a reader of asymu's stdout
         * must see its end when asymu ends, not when the janitor does. */
        if (p[0] < d[1])
            close_all_but((unsigned)p[0], (unsigned)d[1]);
        else
            close_all_but((unsigned)d[1], (unsigned)p[0]);
        open("/dev/null", O_RDWR);
        dup2(0, 1);
        dup2(0, 2);
        setsid();
        janitor(p[0], d[1], paths);
    }
    close(p[0]);
    close(d[1]);
    janitor_fd = p[1];
    janitor_done = d[0];
    return 0;
}

void crash_janitor_mounted(void)
{
    if (janitor_fd >= 0) {
        ssize_t w = write(janitor_fd, (char[]){JANITOR_MOUNTED}, 1);
        (void)w;
    }
}

int crash_janitor_clean(void)
{
    if (janitor_fd < 0)
        return -ESRCH;
    char c = JANITOR_CLEAN;
    ssize_t n = write(janitor_fd, &c, 1);
    if (n == 1)
        do
            n = read(janitor_done, &c, 1);
        while (n < 0 && errno == EINTR);
    return n == 1 ? 0 : -EIO;
}
