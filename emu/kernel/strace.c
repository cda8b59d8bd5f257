/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strace.c - --strace: one line per guest syscall on stderr, in strace's
 * format: `[pid N] openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = 3`.
 * Each table entry's format has one letter per argument:
 *   d int   u unsigned   l 64-bit signed   x hex   p pointer   s string
 *   a dirfd   o open flags   m octal mode   w buffer written (length: next arg)
 *   r buffer read (length: the result)   P prot   F mmap flags   S signal
 *   W whence   C clock id   i ioctl request   M mode, shown only after O_CREAT flags
 *   E epoll_ctl operation   K SysV IPC key   I SysV IPC get flags
 *   c SysV IPC *ctl command (semctl, msgctl, shmctl: by the call's name) */
#include "abi.h"
#include "emu.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "strace.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define STRING_MAX 32
#define READ_MARK '\x01'

struct out {
    char *buf;
    size_t len, used;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    if (o->used >= o->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->used = o->used + (size_t)n < o->len ? o->used + (size_t)n : o->len - 1;
}

static void put_bytes(struct out *o, const uint8_t *p, size_t n, bool truncated)
{
    put(o, "\"");
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\')
            put(o, "\\%c", c);
        else if (c == '\n')
            put(o, "\\n");
        else if (c == '\t')
            put(o, "\\t");
        else if (c == '\r')
            put(o, "\\r");
        else if (c < 0x20 || c >= 0x7f)
            put(o, "\\x%02x", c);
        else
            put(o, "%c", c);
    }
    put(o, truncated ? "\"..." : "\"");
}

static void put_guest_buffer(struct out *o, struct task *t, uint64_t addr, uint64_t len)
{
    uint8_t tmp[STRING_MAX];
    size_t n = len < STRING_MAX ? (size_t)len : STRING_MAX;
    if (copy_from_guest(task_mm(t), tmp, addr, n) < 0) {
        put(o, "0x%" PRIx64, addr);
        return;
    }
    put_bytes(o, tmp, n, len > STRING_MAX);
}

static void put_string(struct out *o, struct task *t, uint64_t addr)
{
    char tmp[STRING_MAX + 1];
    if (!addr) {
        put(o, "NULL");
        return;
    }
    int64_t n = strncpy_from_guest(task_mm(t), tmp, addr, sizeof tmp);
    if (n == -EFAULT) {
        put(o, "0x%" PRIx64, addr);
        return;
    }
    bool truncated = n < 0;
    put_bytes(o, (const uint8_t *)tmp, truncated ? STRING_MAX : (size_t)n, truncated);
}

struct flag {
    unsigned long bit;
    const char *name;
};

static void put_flags(struct out *o, unsigned long v, const struct flag *f, size_t n,
                      const char *zero)
{
    if (v == 0) {
        put(o, "%s", zero);
        return;
    }
    const char *sep = "";
    for (size_t i = 0; i < n; i++) {
        if (f[i].bit && (v & f[i].bit) == f[i].bit) {
            put(o, "%s%s", sep, f[i].name);
            v &= ~f[i].bit;
            sep = "|";
        }
    }
    if (v)
        put(o, "%s0x%lx", sep, v);
}

static void put_open_flags(struct out *o, unsigned long v)
{
    static const struct flag f[] = {
        {O_CREAT, "O_CREAT"},         {O_EXCL, "O_EXCL"},         {O_NOCTTY, "O_NOCTTY"},
        {O_TRUNC, "O_TRUNC"},         {O_APPEND, "O_APPEND"},     {O_NONBLOCK, "O_NONBLOCK"},
        {O_DSYNC, "O_DSYNC"},         {GUEST_O_DIRECTORY, "O_DIRECTORY"},
        {GUEST_O_NOFOLLOW, "O_NOFOLLOW"}, {GUEST_O_DIRECT, "O_DIRECT"},
        {O_CLOEXEC, "O_CLOEXEC"},     {O_PATH, "O_PATH"},
    };
    static const char *const acc[] = {"O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE"};
    put(o, "%s", acc[v & O_ACCMODE]);
    /* strace hides O_LARGEFILE, which glibc adds on both ABIs. */
    v &= ~((unsigned long)O_ACCMODE | GUEST_O_LARGEFILE);
    if (v) {
        put(o, "|");
        put_flags(o, v, f, sizeof f / sizeof *f, "");
    }
}

static const char *const signal_names[] = {
    [SIGHUP] = "SIGHUP",   [SIGINT] = "SIGINT",       [SIGQUIT] = "SIGQUIT", [SIGILL] = "SIGILL",
    [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",     [SIGBUS] = "SIGBUS",   [SIGFPE] = "SIGFPE",
    [SIGKILL] = "SIGKILL", [SIGUSR1] = "SIGUSR1",     [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
    [SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM",     [SIGTERM] = "SIGTERM", [SIGCHLD] = "SIGCHLD",
    [SIGCONT] = "SIGCONT", [SIGSTOP] = "SIGSTOP",     [SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN",
    [SIGTTOU] = "SIGTTOU", [SIGURG] = "SIGURG",       [SIGXCPU] = "SIGXCPU", [SIGXFSZ] = "SIGXFSZ",
    [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF", [SIGWINCH] = "SIGWINCH", [SIGIO] = "SIGIO",
    [SIGPWR] = "SIGPWR",   [SIGSYS] = "SIGSYS",
};

const char *signal_name(int sig)
{
    if (sig > 0 && (size_t)sig < sizeof signal_names / sizeof *signal_names && signal_names[sig])
        return signal_names[sig];
    return NULL;
}

static void put_arg(struct out *o, struct task *t, char f, const uint64_t a[6], int i)
{
    uint64_t v = a[i];
    int32_t sv = (int32_t)v;
    switch (f) {
    case 'd':
        put(o, "%d", sv);
        break;
    case 'u':
        put(o, "%" PRIu64, v);
        break;
    case 'l':
        put(o, "%" PRId64, abi_long(task_abi(t), v)); /* a long of the caller's ABI */
        break;
    case 'x':
        put(o, "0x%" PRIx64, v);
        break;
    case 'i': {
        /* The terminal requests guests make; the same numbers on both ABIs. */
        static const struct flag req[] = {
            {0x5401, "TCGETS"}, {0x5402, "TCSETS"},     {0x5403, "TCSETSW"},
            {0x5404, "TCSETSF"}, {0x540f, "TIOCGPGRP"}, {0x5410, "TIOCSPGRP"},
            {0x5413, "TIOCGWINSZ"}, {0x5414, "TIOCSWINSZ"}, {0x541b, "FIONREAD"},
        };
        const char *name = NULL;
        for (size_t k = 0; k < sizeof req / sizeof *req; k++)
            if (req[k].bit == (uint32_t)v)
                name = req[k].name;
        if (name)
            put(o, "%s", name);
        else
            put(o, "0x%" PRIx64, v);
        break;
    }
    case 'p':
        put(o, v ? "0x%" PRIx64 : "NULL", v);
        break;
    case 'E': {
        static const char *const ops[] = {NULL, "EPOLL_CTL_ADD", "EPOLL_CTL_DEL", "EPOLL_CTL_MOD"};
        if (v < sizeof ops / sizeof *ops && ops[v])
            put(o, "%s", ops[v]);
        else
            put(o, "%d", sv);
        break;
    }
    case 's':
        put_string(o, t, v);
        break;
    case 'a':
        if (sv == AT_FDCWD)
            put(o, "AT_FDCWD");
        else
            put(o, "%d", sv);
        break;
    case 'o':
        put_open_flags(o, (unsigned long)(uint32_t)v);
        break;
    case 'm':
        put(o, "0%" PRIo64, v);
        break;
    case 'w':
        put_guest_buffer(o, t, v, i < 5 ? a[i + 1] : 0);
        break;
    case 'r':
        put(o, "%c", READ_MARK);
        break;
    case 'P': {
        static const struct flag f[] = {
            {PROT_READ, "PROT_READ"}, {PROT_WRITE, "PROT_WRITE"}, {PROT_EXEC, "PROT_EXEC"}};
        put_flags(o, (unsigned long)v, f, 3, "PROT_NONE");
        break;
    }
    case 'F': {
        static const struct flag f[] = {
            {MAP_SHARED, "MAP_SHARED"},       {MAP_PRIVATE, "MAP_PRIVATE"},
            {MAP_FIXED, "MAP_FIXED"},         {MAP_ANONYMOUS, "MAP_ANONYMOUS"},
            {MAP_NORESERVE, "MAP_NORESERVE"}, {MAP_STACK, "MAP_STACK"},
            {MAP_FIXED_NOREPLACE, "MAP_FIXED_NOREPLACE"}, {MAP_GROWSDOWN, "MAP_GROWSDOWN"},
        };
        put_flags(o, (unsigned long)v, f, sizeof f / sizeof *f, "0");
        break;
    }
    case 'S': {
        const char *n = signal_name(sv);
        if (n)
            put(o, "%s", n);
        else
            put(o, "%d", sv);
        break;
    }
    case 'W': {
        static const char *const w[] = {"SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA",
                                        "SEEK_HOLE"};
        if (v < 5)
            put(o, "%s", w[v]);
        else
            put(o, "%d", sv);
        break;
    }
    case 'K':
        if (sv == 0)
            put(o, "IPC_PRIVATE");
        else
            put(o, "%#x", (unsigned)sv);
        break;
    case 'I': {
        static const struct flag f[] = {{01000, "IPC_CREAT"}, {02000, "IPC_EXCL"}};
        if (v & 03000) {
            put_flags(o, (unsigned long)(v & 03000), f, 2, "");
            put(o, "|");
        }
        put(o, "%#o", (unsigned)(v & ~03000ul & 0xffffffffu));
        break;
    }
    case 'C': {
        static const char *const c[] = {"CLOCK_REALTIME", "CLOCK_MONOTONIC",
                                        "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
                                        "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
                                        "CLOCK_MONOTONIC_COARSE", "CLOCK_BOOTTIME"};
        if (v < 8)
            put(o, "%s", c[v]);
        else
            put(o, "%d", sv);
        break;
    }
    default:
        put(o, "0x%" PRIx64, v);
    }
}

/* The command of semctl, msgctl or shmctl (their numbers above 3 differ),
 * with arm's IPC_64. */
static void put_ipc_cmd(struct out *o, const char *call, uint64_t v)
{
    static const char *const common[] = {"IPC_RMID", "IPC_SET", "IPC_STAT", "IPC_INFO"};
    static const char *const sem[] = {[11] = "GETPID", "GETVAL", "GETALL", "GETNCNT", "GETZCNT",
                                      "SETVAL", "SETALL", "SEM_STAT", "SEM_INFO", "SEM_STAT_ANY"};
    static const char *const msg[] = {[11] = "MSG_STAT", "MSG_INFO", "MSG_STAT_ANY"};
    static const char *const shm[] = {[11] = "SHM_LOCK", "SHM_UNLOCK", "SHM_STAT", "SHM_INFO",
                                      "SHM_STAT_ANY"};
    const char *const *names = call[1] == 'e' ? sem : call[1] == 's' ? msg : shm;
    size_t n = call[1] == 'e' ? 21 : call[1] == 's' ? 14 : 16;
    uint32_t cmd = (uint32_t)v & ~0x100u;
    const char *name = cmd < 4 ? common[cmd] : cmd < n ? names[cmd] : NULL;
    if (name)
        put(o, "%s", name);
    else
        put(o, "%u", cmd);
    if (v & 0x100)
        put(o, "|IPC_64");
}

void strace_enter(struct task *t, const struct syscall_entry *e, const uint64_t a[6], char *buf,
                  size_t len)
{
    struct out o = {buf, len, 0};
    buf[0] = '\0';
    put(&o, "[pid %d] %s(", t->tid, e->name);
    for (int i = 0; e->args[i] && i < 6; i++) {
        /* 'M': a mode that only exists with O_CREAT or O_TMPFILE before it. */
        if (e->args[i] == 'M' && (i == 0 || !(a[i - 1] & (O_CREAT | 020000000))))
            continue;
        if (i)
            put(&o, ", ");
        if (e->args[i] == 'c')
            put_ipc_cmd(&o, e->name, a[i]);
        else
            put_arg(&o, t, e->args[i] == 'M' ? 'm' : e->args[i], a, i);
    }
    put(&o, ")");
}

void strace_exit(struct task *t, const struct syscall_entry *e, const uint64_t a[6], int64_t ret,
                 const char *enter)
{
    char line[1024];
    struct out o = {line, sizeof line, 0};
    line[0] = '\0';
    const char *mark = strchr(enter, READ_MARK);
    if (mark) {
        put(&o, "%.*s", (int)(mark - enter), enter);
        int idx = (int)(strchr(e->args, 'r') - e->args);
        if (ret >= 0)
            put_guest_buffer(&o, t, a[idx], (uint64_t)ret);
        else
            put(&o, "0x%" PRIx64, a[idx]);
        put(&o, "%s", mark + 1);
    } else {
        put(&o, "%s", enter);
    }
    if (t->state == TASK_DEAD)
        put(&o, " = ?");
    else if (e->fn == sys_execve && ret == 0)
        put(&o, " = 0");
    else if (restart_code(ret)) {
        const char *note, *name = restart_code_name(ret, &note);
        put(&o, " = ? %s (%s)", name, note);
    } else if (ret < 0 && ret >= -4095)
        put(&o, " = -1 %s (%s)", strerrorname_np((int)-ret) ? strerrorname_np((int)-ret) : "E?",
            strerror((int)-ret));
    else if (e->ret_hex)
        put(&o, " = 0x%" PRIx64, (uint64_t)ret);
    else
        put(&o, " = %" PRId64, ret);
    fprintf(stderr, "%s\n", line);
    if (t->machine->exit_note[0]) {
        fputs(t->machine->exit_note, stderr);
        t->machine->exit_note[0] = '\0';
    }
}

void strace_process_end(struct process *p)
{
    struct machine *m = p->machine;
    if (!m->cfg->strace)
        return;
    char note[sizeof m->exit_note];
    int st = p->wait_status, sig = st & 0x7f;
    if (sig == 0)
        snprintf(note, sizeof note, "[pid %d] +++ exited with %d +++\n", p->pid, (st >> 8) & 0xff);
    else
        snprintf(note, sizeof note, "[pid %d] +++ killed by %s%s +++\n", p->pid,
                 signal_name(sig) ? signal_name(sig) : "signal", (st & 0x80) ? " (core dumped)" : "");
    /* Inside a syscall the note follows its line, as strace prints it. */
    if (m->in_syscall)
        snprintf(m->exit_note, sizeof m->exit_note, "%s", note);
    else
        fputs(note, stderr);
}
