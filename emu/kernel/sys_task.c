/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_task.c - process lifetime syscalls: clone/clone3/fork/vfork, execve,
 * exit/exit_group, wait4/waitid, sessions and process groups. */
#include "kcost.h"
#include "abi.h"
#include "abi_user.h"
#include "emu.h"
#include "event.h"
#include "ptrace.h"
#include "exec.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "pty.h"
#include "restart.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "timers.h"
#include "vfs.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GUEST_WNOHANG 1
#define GUEST_WUNTRACED 2
#define GUEST_WEXITED 4
#define GUEST_WCONTINUED 8
#define GUEST_WNOWAIT 0x01000000
#define GUEST_WALL 0x40000000
#define GUEST_WCLONE 0x80000000u
#define P_PIDFD_ 3
#define CLONE_VM 0x100
#define CLONE_VFORK 0x4000

/* A process's teardown (do_exit()'s exit_mm, exit_files...) costs its last
 * thread's time; a thread that leaves others behind costs only its syscall. */
static void charge_exit(struct task *t, bool group)
{
    if (group || t->proc->live_threads <= 1)
        kcost_charge(t, EMU_COST_EXIT);
}

SYSCALL_DECL(exit)
{
    charge_exit(t, false);
    task_exit(t, (int)((a[0] & 0xff) << 8));
    return 0;
}

SYSCALL_DECL(exit_group)
{
    charge_exit(t, true);
    process_exit_group(t->proc, (int)((a[0] & 0xff) << 8));
    return 0;
}

/* clone(flags, newsp, parent_tid, tls, child_tid): the same order on arm64
 * and arm (CLONE_BACKWARDS). */
SYSCALL_DECL(clone)
{
    return do_clone(t, a[0], a[1], a[2], a[3], a[4]);
}

/* clone3(struct clone_args *, size): 64-bit fields on both ABIs. */
SYSCALL_DECL(clone3)
{
    uint64_t args[11] = {0};
    if (a[1] < 64 || a[1] > 4096)
        return -EINVAL;
    if (copy_from_guest(task_mm(t), args, a[0], a[1] < sizeof args ? a[1] : sizeof args) < 0)
        return -EFAULT;
    uint64_t flags = args[0], exit_signal = args[4], stack = args[5], stack_size = args[6];
    if (exit_signal > NSIG_GUEST || (flags & 0xff) || args[1] /* pidfd */ || args[9] /* set_tid */)
        return -EINVAL;
    uint64_t sp = stack ? stack + stack_size : 0;
    return do_clone(t, flags | exit_signal, sp, args[3], args[7], args[2]);
}

SYSCALL_DECL(fork)
{
    (void)a;
    return do_clone(t, SIGCHLD, 0, 0, 0, 0);
}

SYSCALL_DECL(vfork)
{
    (void)a;
    return do_clone(t, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0);
}

/* ---- wait ---- */

static bool wait_matches(const struct process *c, int idtype, int id)
{
    return idtype == P_ALL || (idtype == P_PID && c->pid == id) ||
           (idtype == P_PGID && c->pgid == id);
}

/* Finds a child with something to report (exited, and with WUNTRACED or
 * WCONTINUED stopped or continued): 0 if children exist but none is ready,
 * -ECHILD if none matches at all. */
static int find_child(struct task *t, int idtype, int id, int options, struct process **out)
{
    bool any = false;
    *out = NULL;
    for (struct process *c = t->proc->children; c; c = c->next_sibling) {
        if (!wait_matches(c, idtype, id))
            continue;
        any = true;
        if (ptrace_hides_exit(c))
            continue; /* its tracer collects the exit first */
        if ((c->zombie && (options & GUEST_WEXITED)) ||
            (c->stop_report && (options & GUEST_WUNTRACED)) ||
            (c->cont_report && (options & GUEST_WCONTINUED))) {
            *out = c;
            return 0;
        }
    }
    return any ? 0 : -ECHILD;
}

/* The wait status of what c reports now; consumes a stop or continue report
 * unless WNOWAIT. Zombies are reaped by the caller. */
static int take_report(struct process *c, int options, int *code, int *status)
{
    bool keep = options & GUEST_WNOWAIT;
    if (c->zombie) {
        int st = c->wait_status;
        bool exited = (st & 0x7f) == 0;
        *code = exited ? CLD_EXITED : (st & 0x80) ? CLD_DUMPED : CLD_KILLED;
        *status = exited ? (st >> 8) & 0xff : st & 0x7f;
        return st;
    }
    if (c->stop_report) {
        *code = CLD_STOPPED;
        *status = c->stop_report;
        int st = (c->stop_report << 8) | 0x7f;
        if (!keep)
            c->stop_report = 0;
        return st;
    }
    *code = CLD_CONTINUED;
    *status = SIGCONT;
    if (!keep)
        c->cont_report = false;
    return 0xffff;
}

static int64_t do_wait4(struct task *t, const uint64_t a[6])
{
    int pid = (int)a[0], options = (int)a[2];
    if (options & ~(GUEST_WNOHANG | GUEST_WUNTRACED | GUEST_WCONTINUED | GUEST_WALL | (int)GUEST_WCLONE))
        return -EINVAL;
    if (pid == INT_MIN)
        return -ESRCH; /* -INT_MIN names no process group (kernel_wait4) */
    int idtype = pid == -1 ? P_ALL : pid > 0 ? P_PID : P_PGID;
    int id = pid > 0 ? pid : pid == 0 ? t->proc->pgid : -pid;
    struct ptrace_report pr;
    int traced = ptrace_wait(t, idtype, id, options, &pr);
    if (traced > 0)
        return a[1] && copy_to_guest(task_mm(t), a[1], &pr.status, sizeof pr.status) < 0 ? -EFAULT
                                                                                       : pr.pid;
    struct process *c;
    int err = find_child(t, idtype, id, options | GUEST_WEXITED, &c);
    if (err < 0 && traced < 0)
        return err;
    if (!c) {
        if (options & GUEST_WNOHANG)
            return 0;
        if (signal_pending(t))
            return -ERESTARTSYS;
        t->wait_obj = t->proc;
        return -EBLOCK;
    }
    int code, info_status, cpid = c->pid;
    int status = take_report(c, options, &code, &info_status);
    if (a[1] && copy_to_guest(task_mm(t), a[1], &status, sizeof status) < 0)
        return -EFAULT;
    /* The child's CPU time and that of the children it reaped. */
    uint64_t all = process_cpu_ns(c) + c->child_cpu_ns, sys = process_sys_ns(c) + c->child_sys_ns;
    if (a[3] && rusage_to_guest(t, a[3], all - sys, sys) < 0)
        return -EFAULT;
    if (c->zombie) {
        cputime_reap(c);
        process_reap(c);
    }
    return cpid;
}

SYSCALL_DECL(wait4)
{
    return do_wait4(t, a);
}

/* waitid(idtype, id, siginfo, options, rusage) */
SYSCALL_DECL(waitid)
{
    int idtype = (int)a[0], id = (int)a[1], options = (int)a[3];
    bool nonblock_pidfd = false;
    if (idtype < P_ALL || idtype > P_PIDFD_ ||
        !(options & (GUEST_WEXITED | GUEST_WUNTRACED | GUEST_WCONTINUED)))
        return -EINVAL;
    if (idtype == P_PIDFD_) {
        /* The pidfd's process, waited for as P_PID; a PIDFD_NONBLOCK one
         * answers EAGAIN where a wait would block. */
        if ((id = pidfd_wait_pid(t, id, &nonblock_pidfd)) < 0)
            return id;
        idtype = P_PID;
    }
    struct ptrace_report pr;
    int traced = ptrace_wait(t, idtype, id, options, &pr);
    if (traced > 0) {
        if (!a[2])
            return 0;
        t->delivering = (struct siginfo_lite){.code = pr.code, .pid = pr.pid, .status = pr.child_status};
        uint8_t info[128];
        signal_fill_info(t, SIGCHLD, &t->delivering, info);
        return copy_to_guest(task_mm(t), a[2], info, sizeof info) < 0 ? -EFAULT : 0;
    }
    struct process *c;
    int err = find_child(t, idtype, id, options, &c);
    if (err < 0 && traced < 0)
        return err;
    if (!c) {
        if (nonblock_pidfd && !(options & GUEST_WNOHANG))
            return -EAGAIN;
        if (options & GUEST_WNOHANG) {
            uint8_t zero[128] = {0};
            return a[2] && copy_to_guest(task_mm(t), a[2], zero, sizeof zero) < 0 ? -EFAULT : 0;
        }
        if (signal_pending(t))
            return -ERESTARTSYS;
        t->wait_obj = t->proc;
        return -EBLOCK;
    }
    int code, status;
    take_report(c, options, &code, &status);
    if (a[2]) {
        t->delivering = (struct siginfo_lite){.code = code, .pid = c->pid, .status = status};
        uint8_t info[128];
        signal_fill_info(t, SIGCHLD, &t->delivering, info);
        if (copy_to_guest(task_mm(t), a[2], info, sizeof info) < 0)
            return -EFAULT;
    }
    if (c->zombie && !(options & GUEST_WNOWAIT)) {
        cputime_reap(c);
        process_reap(c);
    }
    return 0;
}

/* ---- sessions and groups ---- */

SYSCALL_DECL(setsid)
{
    (void)a;
    struct process *p = t->proc;
    if (p->pgid == p->pid)
        return -EPERM;
    p->sid = p->pgid = p->pid;
    pty_leave_ctty(p);
    return p->sid;
}

SYSCALL_DECL(getsid)
{
    struct process *p = a[0] ? process_find(t->machine, (int)a[0]) : t->proc;
    return p ? p->sid : -ESRCH;
}

SYSCALL_DECL(setpgid)
{
    int pid = (int)a[0], pgid = (int)a[1];
    if (pgid < 0)
        return -EINVAL;
    struct process *p = pid ? process_find(t->machine, pid) : t->proc;
    if (!p || (p != t->proc && p->parent != t->proc))
        return -ESRCH;
    if (p->sid == p->pid)
        return -EPERM;
    p->pgid = pgid ? pgid : p->pid;
    return 0;
}

SYSCALL_DECL(getpgid)
{
    struct process *p = a[0] ? process_find(t->machine, (int)a[0]) : t->proc;
    return p ? p->pgid : -ESRCH;
}

SYSCALL_DECL(getpgrp)
{
    (void)a;
    return t->proc->pgid;
}

/* ---- execve ---- */

#define ARG_MAX_GUEST (2u << 20)
#define MAX_ARGS 65536

/* Copies a NULL-terminated guest array of strings (argv, envp) into a
 * NULL-terminated host array. The array grows as it fills: allocated at its
 * limit (MAX_ARGS, 512 KiB) and zeroed, it cost every execve a tenth of a
 * fork+exec+wait in host page faults. */
static int64_t strings_from_guest(struct task *t, uint64_t uarr, char ***out, size_t *total)
{
    size_t ptr_size = abi_longs_size(t, 1); /* the array's pointers are the caller's */
    size_t cap = 16;
    char **v = malloc(cap * sizeof *v);
    if (!v)
        return -ENOMEM;
    int64_t err = 0;
    int n = 0;
    for (; uarr && n < MAX_ARGS; n++) {
        v[n] = NULL;
        uint64_t ptr;
        if (get_user_ulongs(t, uarr + abi_longs_size(t, (unsigned)n), &ptr, 1) < 0) {
            err = -EFAULT;
            goto fail;
        }
        if (!ptr)
            break;
        char buf[VFS_PATH_MAX * 32];
        int64_t len = strncpy_from_guest(task_mm(t), buf, ptr, sizeof buf);
        if (len < 0) {
            err = len == -ENAMETOOLONG ? -E2BIG : len;
            goto fail;
        }
        *total += (size_t)len + 1 + ptr_size;
        if (*total > ARG_MAX_GUEST || !(v[n] = strdup(buf))) {
            err = -E2BIG;
            goto fail;
        }
        if ((size_t)n + 1 == cap) {
            char **more = realloc(v, cap * 2 * sizeof *v);
            if (!more) {
                n++;
                err = -ENOMEM;
                goto fail;
            }
            v = more, cap *= 2;
        }
    }
    if (n == MAX_ARGS) {
        err = -E2BIG;
        goto fail;
    }
    v[n] = NULL;
    *out = v;
    return n;
fail:
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
    return err;
}

static void strings_free(char **v)
{
    for (int i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* execve, and execveat with name (bprm->filename) and path apart; a
 * host_fd >= 0 is the program itself (fexecve of a memfd has no path). */
static int64_t do_execve(struct task *t, const char *path, const char *name, int host_fd,
                         uint64_t uargv, uint64_t uenvp)
{
    char **argv = NULL, **envp = NULL;
    size_t total = 0;
    int64_t argc = strings_from_guest(t, uargv, &argv, &total);
    if (argc < 0)
        return argc;
    int64_t envc = strings_from_guest(t, uenvp, &envp, &total);
    if (envc < 0) {
        strings_free(argv);
        return envc;
    }
    char why[512];
    int64_t err;
    if (host_fd >= 0) {
        err = exec_program(t, host_fd, name, argv, (int)argc, envp, why, sizeof why);
        if (err == 0)
            snprintf(t->proc->exe, sizeof t->proc->exe, "%s", path);
    } else if (name) {
        err = exec_path_named(t, path, name, argv, (int)argc, envp, why, sizeof why);
    } else {
        err = exec_path(t, path, argv, (int)argc, envp, why, sizeof why);
    }
    if (err >= 0)
        kcost_charge(t, EMU_COST_EXECVE);
    if (err < 0 && t->machine->cfg->strace)
        fprintf(stderr, "[pid %d] execve %s\n", t->tid, why);
    strings_free(argv);
    strings_free(envp);
    return err;
}

SYSCALL_DECL(execve)
{
    char path[VFS_PATH_MAX];
    int64_t err = path_from_guest(t, -100, a[0], path, sizeof path);
    if (err < 0)
        return err;
    return do_execve(t, path, NULL, -1, a[1], a[2]);
}

#define GUEST_AT_FDCWD (-100)
#define GUEST_AT_SYMLINK_NOFOLLOW 0x100
#define GUEST_AT_EMPTY_PATH 0x1000

/* Whether the host file open on fd starts with "#!". */
static bool fd_is_script(int fd)
{
    char head[2] = "";
    return pread(fd, head, 2, 0) == 2 && head[0] == '#' && head[1] == '!';
}

/* The same for the guest file at path. */
static bool is_script(struct task *t, const char *path)
{
    struct file *f;
    if (file_open_path(t, path, O_RDONLY, 0, &f) < 0)
        return false;
    bool script = f->kind == FILE_HOST && fd_is_script(f->host_fd);
    file_put(f);
    return script;
}

/* execveat(dirfd, path, argv, envp, flags) (do_execveat_common()): a path
 * relative to dirfd, or with AT_EMPTY_PATH and "" dirfd's own file
 * (fexecve); AT_SYMLINK_NOFOLLOW refuses a symlink at the end (ELOOP).
 * Through a descriptor the program's name (argv of a script, AT_EXECFN,
 * comm) is "/dev/fd/N" or "/dev/fd/N/path" (alloc_bprm()); a script
 * reached through a close-on-exec descriptor is ENOENT, as its
 * interpreter could not open that name (BINPRM_FLAGS_PATH_INACCESSIBLE). */
SYSCALL_DECL(execveat)
{
    int dirfd = (int)a[0], flags = (int)a[4];
    char rel[VFS_PATH_MAX], path[VFS_PATH_MAX], name[VFS_PATH_MAX + 32];
    int64_t n = strncpy_from_guest(task_mm(t), rel, a[1], sizeof rel);
    if (n < 0)
        return n;
    if (n >= (int64_t)sizeof rel)
        return -ENAMETOOLONG;
    if (rel[0] == '\0' && !(flags & GUEST_AT_EMPTY_PATH))
        return -ENOENT;
    if (flags & ~(GUEST_AT_SYMLINK_NOFOLLOW | GUEST_AT_EMPTY_PATH))
        return -EINVAL;
    struct stat st;
    int err = stat_at(t, dirfd, a[1], flags, &st);
    if (err < 0)
        return err;
    if (S_ISLNK(st.st_mode))
        return -ELOOP; /* AT_SYMLINK_NOFOLLOW: open_exec's O_NOFOLLOW */
    bool through_fd = dirfd != GUEST_AT_FDCWD && rel[0] != '/';
    int host_fd = -1;
    if (rel[0] == '\0') {
        struct file *f = file_get(t, dirfd);
        /* The open file itself (a memfd has no path to open again), unless
         * it is O_PATH: then its path. A pipe or socket is no regular file. */
        if (!f || f->kind != FILE_HOST || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
            return -EACCES;
        if (!(f->flags & O_PATH))
            host_fd = f->host_fd;
        else if (!f->path)
            return -EACCES;
        snprintf(path, sizeof path, "%s", f->path ? f->path : "");
    } else if ((err = (int)path_from_guest(t, dirfd, a[1], path, sizeof path)) < 0) {
        return err;
    }
    if (!through_fd)
        snprintf(name, sizeof name, "%s", rel);
    else if (rel[0] == '\0')
        snprintf(name, sizeof name, "/dev/fd/%d", dirfd);
    else
        snprintf(name, sizeof name, "/dev/fd/%d/%s", dirfd, rel);
    if (through_fd && t->proc->files->cloexec[dirfd] &&
        (host_fd >= 0 ? fd_is_script(host_fd) : is_script(t, path)))
        return -ENOENT;
    return do_execve(t, path, name, host_fd, a[2], a[3]);
}
