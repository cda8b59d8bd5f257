/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vfs_provider.c - what the kernel layer tells the virtual /dev, /proc and
 * /sys: the vCPUs (with hotplug through cpuN/online), the processes and
 * their threads, files and mappings, the command line, the kernel log and
 * the console. ctx is the calling task. */
#include "abi.h"
#include "cgroup.h"
#include "cpu_model.h"
#include "cred.h"
#include "keys.h"
#include "emu.h"
#include "file.h"
#include "futex.h"
#include "klog.h"
#include "loader.h"
#include "machine.h"
#include "machine_events.h"
#include "mm.h"
#include "mqueue.h"
#include "hotplug_log.h"
#include "shmem.h"
#include "ptrace.h"
#include "pty.h"
#include "scheduler.h"
#include "shmem.h"
#include "socket.h"
#include "sysv_ipc.h"
#include "task.h"
#include "trace-int.h"
#include "tracefs.h"
#include "uts.h"
#include "vfs.h"
#include "page.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/mman.h>
#include <unistd.h>

/* As uname(2) reports them (sys_proc.c). */
/* /proc/PID/cmdline reads at most this much of a process's memory. */
#define ARGV_MAX (8u << 20)

static void cpus(void *ctx, struct vfs_cpus *out)
{
    const struct task *t = ctx;
    const struct sched *s = &t->machine->sched;
    out->nr = s->nr_cpus;
    out->online = s->online;
    out->aarch32 = s->aarch32;
    out->aarch32_file = s->allow_mismatched;
    out->layout = &t->machine->cfg->layout;
    out->kvm = !t->machine->cfg->no_kvm;
    out->hwcap = abi_aarch64.hwcap;
    out->hwcap2 = abi_aarch64.hwcap2;
    out->compat_hwcap = (uint32_t)abi_arm.hwcap;
    out->compat_hwcap2 = (uint32_t)abi_arm.hwcap2;
}

/* comm_write(): the first 15 bytes as they are (a newline included), for
 * a thread of the writer's own process only (EINVAL otherwise). */
static int set_comm(void *ctx, int pid, int tid, const char *data, size_t len)
{
    struct task *t = ctx;
    struct task *th = task_find(t->machine, tid);
    if (!th || th->proc->pid != pid || th->state == TASK_DEAD)
        return -ESRCH;
    if (th->proc != t->proc)
        return -EINVAL;
    char name[16] = "";
    memcpy(name, data, len < sizeof name - 1 ? len : sizeof name - 1);
    mev_rename(th, name);
    sched_task_set_comm(&th->se, name);
    return 0;
}

static int set_cpu_online(void *ctx, unsigned cpu, bool online)
{
    struct task *t = ctx;
    struct sched *s = &t->machine->sched;
    bool was_online = cpumask_test_cpu(cpu, &s->online);
    int err = online ? sched_cpu_online(s, cpu) : sched_cpu_offline(s, cpu);
    t->stop = true; /* the scheduler may have moved tasks, this one included */
    struct klog *log = &t->machine->klog;
    uint64_t now = machine_now(t->machine);
    if (err == 0 && was_online != online)
        cgroup_hotplug(t->machine); /* cpuset_hotplug_workfn() */
    if (err == 0 && was_online && !online)
        hotplug_log_offline(log, now, cpu);
    else if (err == 0 && !was_online && online)
        hotplug_log_online(log, now, cpu,
                           cpu_layout_midr(&t->machine->cfg->layout, cpu,
                                           cpumask_test_cpu(cpu, &s->aarch32)));
    return err;
}

static int self_pid(void *ctx)
{
    const struct task *t = ctx;
    return t->proc->pid;
}

static int self_tid(void *ctx)
{
    const struct task *t = ctx;
    return t->tid;
}

static int next_pid(void *ctx, int after)
{
    const struct task *t = ctx;
    int best = -1;
    for (const struct task *o = t->machine->tasks; o; o = o->next_all) {
        const struct process *p = o->proc;
        if (o == p->threads && p->pid > after && (best < 0 || p->pid < best))
            best = p->pid;
    }
    return best;
}

/* The process with this pid, zombies included, or NULL. */
static const struct process *find_process(const struct task *t, int pid)
{
    for (const struct task *o = t->machine->tasks; o; o = o->next_all)
        if (o->proc->pid == pid)
            return o->proc;
    return NULL;
}

/* The live process with this pid and its address space, or NULL. */
static struct mm *process_mm(const struct task *t, int pid, const struct process **out)
{
    const struct process *p = find_process(t, pid);
    *out = p;
    return p && !p->zombie ? p->mm : NULL;
}

static char thread_state(const struct process *p, const struct task *th)
{
    if (p->zombie || !th || th->state == TASK_DEAD)
        return 'Z'; /* a main thread that ended before the others is a zombie */
    if (ptrace_stopped(th))
        return 't';
    if (p->stopped)
        return 'T';
    return th->state == TASK_BLOCKED ? 'S' : 'R';
}

static int thread_info(void *ctx, int pid, int tid, struct vfs_task_info *out)
{
    const struct task *t = ctx;
    const struct process *p = find_process(t, pid);
    if (!p)
        return -ENOENT;
    /* The main thread is the one whose tid is the pid. */
    const struct task *th = NULL;
    for (const struct task *o = p->threads; o; o = o->next_thread)
        if (o->tid == tid && (tid == pid || o->state != TASK_DEAD))
            th = o;
    if (!th && tid != pid)
        return -ENOENT;
    memset(out, 0, sizeof *out);
    out->pid = p->pid;
    out->tid = tid;
    out->ppid = p->parent ? p->parent->pid : 0;
    out->tracer_pid = th ? ptrace_tracer_pid(th) : 0;
    out->pgid = p->pgid;
    out->sid = p->sid;
    out->state = thread_state(p, th);
    /* A main thread that ended still counts until the process is reaped. */
    const struct task *main = th;
    for (const struct task *o = p->threads; o && tid != pid; o = o->next_thread)
        if (o->tid == pid)
            main = o;
    out->threads = p->live_threads + (!main || main->state == TASK_DEAD);
    /* comm is each thread's own (prctl PR_SET_NAME); /proc/PID/comm is the main thread's. */
    snprintf(out->comm, sizeof out->comm, "%s", th ? th->se.comm : "");
    out->personality = p->personality;
    const struct cred *c = &p->cred;
    memcpy(out->uid, (uint32_t[4]){c->u.real, c->u.eff, c->u.saved, c->u.fs}, sizeof out->uid);
    memcpy(out->gid, (uint32_t[4]){c->g.real, c->g.eff, c->g.saved, c->g.fs}, sizeof out->gid);
    out->ngroups = c->groups ? c->groups->n : 0;
    out->groups = c->groups ? c->groups->gid : NULL;
    out->cap_inh = c->cap.inh;
    out->cap_prm = c->cap.prm;
    out->cap_eff = c->cap.eff;
    out->cap_bnd = c->cap.bnd;
    out->cap_amb = c->cap.amb;
    out->no_new_privs = th && th->no_new_privs;
    out->umask = p->umask;
    out->exit_signal = tid == pid ? p->exit_signal : -1;
    out->exit_code = p->zombie ? p->wait_status : 0;
    for (int sig = 1; sig <= NSIG_GUEST && p->sighand; sig++) {
        uint64_t handler = p->sighand->action[sig].handler;
        out->sig_ignored |= handler == 1 ? SIGBIT(sig) : 0;
        out->sig_caught |= handler > 1 ? SIGBIT(sig) : 0;
    }
    out->prio = 120; /* DEFAULT_PRIO */
    if (th) {
        out->allowed = th->se.affinity;
        out->cpu = th->se.cpu;
        out->compat = th->se.compat;
        out->nice = th->se.nice;
        out->policy = th->sched_policy;
        out->rt_priority = th->rt_priority;
        out->prio = futex_pi_prio(th);
        out->sig_pending = th->pending.set;
        out->sig_blocked = th->sigmask;
        out->runtime_ns = th->se.sum_exec_ns;
    }
    if (tid == pid) {
        out->runtime_ns = 0;
        for (const struct task *o = p->threads; o; o = o->next_thread)
            out->runtime_ns += o->se.sum_exec_ns;
    }
    const struct mm *mm = p->zombie ? NULL : p->mm;
    if (mm) {
        out->has_mm = true;
        out->vm_bytes = mm->total;
        out->vm_locked = mm_locked_bytes(mm);
        out->vm_usable = mm->usable;
        out->vm_limit = mm->max_total;
        out->start_brk = mm->brk_start;
        out->arg_start = mm->arg_start;
        out->arg_end = mm->arg_end;
    }
    return 0;
}

static int task_info(void *ctx, int pid, struct vfs_task_info *out)
{
    return thread_info(ctx, pid, pid, out);
}

/* Live threads, and the main thread even when it has ended: it stays in
 * the group until the process is reaped. */
static int next_tid(void *ctx, int pid, int after)
{
    const struct process *p = find_process(ctx, pid);
    int best = -1;
    for (const struct task *o = p ? p->threads : NULL; o; o = o->next_thread)
        if ((o->state != TASK_DEAD || o->tid == pid) && o->tid > after &&
            (best < 0 || o->tid < best))
            best = o->tid;
    return best;
}

/* The argument strings, as get_mm_cmdline() reads them: when the byte
 * that ended the last one is no longer NUL (setproctitle), the text from
 * the first argument up to a NUL within a page. */
static int argv_of(void *ctx, int pid, char **data, size_t *size)
{
    const struct process *p;
    struct mm *mm = process_mm(ctx, pid, &p);
    if (!p)
        return -ENOENT;
    uint64_t len = mm && mm->arg_end > mm->arg_start ? mm->arg_end - mm->arg_start : 0;
    len = len > ARGV_MAX ? ARGV_MAX : len;
    char *buf = malloc(len > PAGE ? len + 1 : PAGE + 1);
    if (!buf)
        return -ENOMEM;
    if (len && copy_from_guest(mm, buf, mm->arg_start, len) < 0)
        len = 0;
    if (len && buf[len - 1] != '\0') {
        len = 0;
        while (len < PAGE && copy_from_guest(mm, buf + len, mm->arg_start + len, 1) == 0 &&
               buf[len++] != '\0')
            ;
    }
    *data = buf;
    *size = len;
    return 0;
}

/* A copy of [start, end) of a process's memory (malloc'ed). */
static int copy_range(struct mm *mm, uint64_t start, uint64_t end, char **data, size_t *size)
{
    uint64_t len = mm && end > start ? end - start : 0;
    len = len > ARGV_MAX ? ARGV_MAX : len;
    char *buf = malloc(len ? len : 1);
    if (!buf)
        return -ENOMEM;
    if (len && copy_from_guest(mm, buf, start, len) < 0)
        len = 0;
    *data = buf;
    *size = len;
    return 0;
}

/* The auxiliary vector the process started with, as the kernel keeps it. */
static int auxv_of(void *ctx, int pid, char **data, size_t *size)
{
    const struct process *p;
    struct mm *mm = process_mm(ctx, pid, &p);
    if (!p)
        return -ENOENT;
    return copy_range(mm, mm ? mm->auxv_start : 0, mm ? mm->auxv_end : 0, data, size);
}

/* The environment strings as they are now in the process's memory. */
static int environ_of(void *ctx, int pid, char **data, size_t *size)
{
    const struct process *p;
    struct mm *mm = process_mm(ctx, pid, &p);
    if (!p)
        return -ENOENT;
    return copy_range(mm, mm ? mm->env_start : 0, mm ? mm->env_end : 0, data, size);
}

static int next_fd(void *ctx, int pid, int after)
{
    const struct process *p = find_process(ctx, pid);
    if (!p || p->zombie || !p->files)
        return -1;
    for (int fd = after < 0 ? 0 : after + 1; fd < FD_MAX; fd++)
        if (p->files->fd[fd])
            return fd;
    return -1;
}

static int fd_target(void *ctx, int pid, int fd, char *buf, size_t len, int *accmode)
{
    const struct process *p = find_process(ctx, pid);
    if (!p || p->zombie || !p->files || fd < 0 || fd >= FD_MAX || !p->files->fd[fd])
        return -ENOENT;
    const struct file *f = p->files->fd[fd];
    char target[VFS_PATH_MAX];
    int n;
    switch (f->kind) {
    case FILE_PIPE:
        /* The inode number fstat gives (sys_stat.c). */
        n = snprintf(target, sizeof target, "pipe:[%lu]",
                     (unsigned long)((uintptr_t)f->pipe >> 4 & 0xffffff));
        break;
    case FILE_OBJECT: {
        /* "socket:[123]"; anonymous inodes name themselves whole, device
         * nodes (/dev/pts/N) by their path. */
        size_t l = strlen(f->ops->name);
        n = f->path ? snprintf(target, sizeof target, "%s", f->path)
            : l && f->ops->name[l - 1] == ':'
                ? snprintf(target, sizeof target, "%s[%llu]", f->ops->name, (unsigned long long)f->ino)
                : snprintf(target, sizeof target, "%s", f->ops->name);
        break;
    }
    case FILE_CONSOLE:
        /* The kernel opens /dev/console for init's stdin, stdout and stderr. */
        n = snprintf(target, sizeof target, "%s", f->path ? f->path : "/dev/console");
        break;
    default:
        n = snprintf(target, sizeof target, "%s", f->path ? f->path : "anon_inode:[unknown]");
        break;
    }
    n = (size_t)n < len ? n : (int)len;
    memcpy(buf, target, (size_t)n);
    *accmode = f->flags & O_ACCMODE;
    return n;
}

/* Names of the mappings the kernel names itself. The heap is what brk
 * added; the kernel's test (start <= brk && end >= start_brk) would also
 * name the data segment before it, which the kernel skips for being
 * file-backed, something emu's mappings do not record. */
static void vma_name(const struct mm *mm, uint64_t start, uint64_t end, char *name, size_t len)
{
    const struct abi *abi = mm->abi;
    const char *n = "";
    if (start < mm->brk && end > mm->brk_start)
        n = "[heap]";
    else if (start < abi->stack_top && end >= abi->stack_top)
        n = "[stack]";
    else if (abi->isa == LOADER_ISA_ARM && start == LOADER_KUSER_ADDR)
        n = "[vectors]";
    else if (start == abi->sigtramp)
        n = abi->isa == LOADER_ISA_ARM ? "[sigpage]" : "[vdso]"; /* the sigreturn page */
    snprintf(name, len, "%s", n);
}

/* Where Linux keeps separate mappings that emu may have merged (same
 * rights, adjacent): the heap's bounds and the special pages, which the
 * kernel never merges. */
static uint64_t next_cut(const struct mm *mm, uint64_t after, uint64_t end)
{
    const uint64_t cuts[] = {mm->brk_start, (mm->brk + PAGE - 1) & ~(uint64_t)(PAGE - 1),
                             mm->abi->sigtramp, mm->abi->sigtramp + PAGE, LOADER_KUSER_ADDR,
                             LOADER_KUSER_ADDR + PAGE};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++)
        if (cuts[i] > after && cuts[i] < end)
            end = cuts[i];
    return end;
}

static int vma_at(void *ctx, int pid, unsigned index, struct vfs_vma *out)
{
    const struct process *p;
    struct mm *mm = process_mm(ctx, pid, &p);
    if (!p)
        return -ENOENT;
    unsigned i = 0;
    for (const struct vma *v = mm ? mm->vmas : NULL; v; v = v->next) {
        for (uint64_t start = v->start, end; start < v->end; start = end) {
            end = next_cut(mm, start, v->end);
            if (i++ < index)
                continue;
            memset(out, 0, sizeof *out);
            out->start = start;
            out->end = end;
            out->prot = v->prot & (PROT_READ | PROT_WRITE | PROT_EXEC);
            out->shared = v->shm != NULL;
            if (v->origin.path) {
                out->pgoff = v->origin.pgoff + (start - v->start);
                out->dev_major = major(v->origin.dev);
                out->dev_minor = minor(v->origin.dev);
                out->ino = v->origin.ino;
                /* as the reader sees it from its root (d_path()) */
                vfs_path_in_root(((const struct task *)ctx)->proc->root, v->origin.path,
                                 out->name, sizeof out->name);
            } else if (v->shm) { /* shared anonymous memory, as Linux names it */
                out->pgoff = v->shm_off + (start - v->start);
                out->dev_minor = 1;
                out->ino = v->shm->ino;
                snprintf(out->name, sizeof out->name, "/dev/zero (deleted)");
            } else {
                vma_name(mm, start, end, out->name, sizeof out->name);
            }
            return 1;
        }
    }
    return 0;
}

static void stats(void *ctx, struct vfs_stats *out)
{
    const struct task *t = ctx;
    struct machine *m = t->machine;
    memset(out, 0, sizeof *out);
    out->now_ns = machine_now(m);
    out->boot_time = (machine_realtime_ns(m) - out->now_ns) / 1000000000u;
    for (const struct task *o = m->tasks; o; o = o->next_all) {
        out->nr_threads += o->state != TASK_DEAD;
        out->nr_running += o->state == TASK_RUNNABLE;
    }
    out->last_pid = m->next_pid - 1;
    out->forks = (uint64_t)(m->next_pid - 1);
    for (unsigned cpu = 0; cpu < m->sched.nr_cpus; cpu++)
        out->ctxt += m->sched.cpus[cpu].nr_switches;
}

static int next_pty(void *ctx, int after)
{
    const struct task *t = ctx;
    return pty_next_index(t->machine, after);
}

static uint64_t cpu_busy_ns(void *ctx, unsigned cpu)
{
    const struct task *t = ctx;
    return cpu < t->machine->sched.nr_cpus ? t->machine->sched.cpus[cpu].busy_ns : 0;
}

static unsigned cpu_capacity(void *ctx, unsigned cpu)
{
    const struct task *t = ctx;
    unsigned c = cpu < NR_CPUS_MAX ? t->machine->cfg->capacity[cpu] : 0;
    return c ? c : 1024;
}

/* scaling_cur_freq: the frequency the time model runs cpu at. */
static uint32_t cpu_cur_khz(void *ctx, unsigned cpu)
{
    const struct task *t = ctx;
    return cpu < t->machine->sched.nr_cpus ? t->machine->sched.cpus[cpu].cur_freq_khz : 0;
}

static const char *release(void *ctx)
{
    (void)ctx;
    return KERNEL_RELEASE;
}

static const char *version(void *ctx)
{
    (void)ctx;
    return KERNEL_VERSION;
}

enum proc_path_kind { PATH_EXE, PATH_CWD, PATH_ROOT };

static int proc_path(void *ctx, int pid, enum proc_path_kind kind, char *buf, size_t len)
{
    const struct task *t = ctx;
    for (const struct task *o = t->machine->tasks; o; o = o->next_all) {
        if (o->proc->pid == pid && !o->proc->zombie) {
            const char *path = kind == PATH_CWD    ? o->proc->cwd
                               : kind == PATH_ROOT ? o->proc->root
                                                   : o->proc->exe;
            size_t n = strlen(path);
            n = n < len ? n : len;
            memcpy(buf, path, n);
            return (int)n;
        }
    }
    return -ENOENT;
}

static int exe(void *ctx, int pid, char *buf, size_t len)
{
    return proc_path(ctx, pid, PATH_EXE, buf, len);
}

static int cwd(void *ctx, int pid, char *buf, size_t len)
{
    return proc_path(ctx, pid, PATH_CWD, buf, len);
}

static int root(void *ctx, int pid, char *buf, size_t len)
{
    const struct task *t = ctx;
    if (pid == 0) { /* every walk asks: the caller's own, without a search */
        size_t n = strlen(t->proc->root);
        n = n < len ? n : len;
        memcpy(buf, t->proc->root, n);
        return (int)n;
    }
    return proc_path(ctx, pid, PATH_ROOT, buf, len);
}

static const char *cmdline(void *ctx)
{
    const struct task *t = ctx;
    return t->machine->cfg->cmdline;
}

static int kmsg(void *ctx, char **data, size_t *size)
{
    const struct task *t = ctx;
    const struct klog *log = &t->machine->klog;
    size_t total = 0;
    char rec[KLOG_TEXT_MAX + 64];
    for (uint64_t seq = klog_first_seq(log); seq < klog_next_seq(log); seq++)
        total += klog_format_kmsg(klog_get(log, seq), rec, sizeof rec);
    char *buf = malloc(total + 1);
    if (!buf)
        return -ENOMEM;
    size_t off = 0;
    for (uint64_t seq = klog_first_seq(log); seq < klog_next_seq(log); seq++)
        off += klog_format_kmsg(klog_get(log, seq), buf + off, total + 1 - off);
    *data = buf;
    *size = off;
    return 0;
}

static int net_table(void *ctx, const char *name, char **data, size_t *size)
{
    const struct task *t = ctx;
    return sock_proc_net(t->machine, name, data, size);
}

static int sysvipc(void *ctx, const char *name, char **data, size_t *size)
{
    const struct task *t = ctx;
    int err = keys_proc_file((struct task *)t, name, data, size);
    if (err != -ENOENT)
        return err;
    return sysv_proc_file(t->machine, name, data, size);
}

static int sysctl_text(void *ctx, const char *name, char **data, size_t *size)
{
    return sysctl_read(ctx, name, data, size);
}

static int64_t sysctl_store(void *ctx, const char *name, const char *data, size_t len,
                            uint64_t pos)
{
    return sysctl_write(ctx, name, data, len, pos);
}

/* --- tracefs (trace/tracefs.h) --- */

/* The machine's tracefs, made at first use, subscribed to trace_marker's
 * prints then and to the scheduler's events once the guest enables one. */
static struct tracefs *tracefs_of(struct machine *m)
{
    if (!m->tracefs && !(m->tracefs = tracefs_new(m->sched.nr_cpus)))
        return NULL;
    uint32_t want = TRACEFS_PRINT_KINDS | (tracefs_any_enabled(m->tracefs) ? tracefs_kinds() : 0);
    uint32_t missing = want & ~m->tracefs_kinds;
    if (missing && mevent_subscribe(&m->sched.events, missing, tracefs_event, m->tracefs) == 0)
        m->tracefs_kinds |= missing;
    return m->tracefs;
}

static int tfs_lookup(void *ctx, const char *rel, unsigned *mode, bool *dir)
{
    struct tracefs *tf = tracefs_of(((struct task *)ctx)->machine);
    return tf ? tracefs_lookup(tf, rel, mode, dir) : -ENOMEM;
}

static int tfs_list(void *ctx, const char *rel,
                    void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    struct tracefs *tf = tracefs_of(((struct task *)ctx)->machine);
    return tf ? tracefs_list(tf, rel, emit, arg) : -ENOMEM;
}

static int tfs_read(void *ctx, const char *rel, char **data, size_t *size)
{
    struct machine *m = ((struct task *)ctx)->machine;
    struct tracefs *tf = tracefs_of(m);
    return tf ? tracefs_read(tf, rel, machine_now(m), data, size) : -ENOMEM;
}

/* What one write to trace_marker or trace_marker_raw records at most
 * (kernel/trace/trace.h's TRACE_BUF_SIZE). */
enum { TRACE_BUF_SIZE = 1024 };

/* tracing_mark_write(): the text (at most TRACE_BUF_SIZE bytes, the
 * count the write returns) becomes a print event of the writer's on its
 * vCPU, in the machine's event stream, which both this tracefs and the
 * host-side --trace writers read. -EBADF while tracing is off (the
 * ring buffer refuses the reservation). */
static int64_t mark_write(struct task *t, struct tracefs *tf, const char *rel, const char *data,
                          size_t len)
{
    if (!tracefs_on(tf, rel))
        return -EBADF;
    size_t cnt = len > TRACE_BUF_SIZE ? TRACE_BUF_SIZE : len;
    char msg[TRACE_BUF_SIZE + 1];
    memcpy(msg, data, cnt);
    msg[cnt] = '\0';
    if (strcmp(rel, "trace_marker") == 0) {
        mev_print(t, msg, TRACE_MARK_WRITE_IP);
        return (int64_t)cnt;
    }
    /* an instance's: its buffer only, as machine_events.c's emit() makes the event */
    struct machine *m = t->machine;
    struct mevent ev = {.kind = MEVENT_PRINT, .ts_ns = machine_now(m)};
    ev.cpu = ev.src_cpu = t == m->slice_task ? m->slice_cpu : t->se.cpu;
    sched_event_task(&t->se, &ev.task);
    ev.print.msg = msg;
    ev.print.ip = TRACE_MARK_WRITE_IP;
    tracefs_mark(tf, rel, &ev);
    return (int64_t)cnt;
}

/* tracing_mark_raw_write(): 4 bytes (the id) to RAW_DATA_MAX_SIZE, else
 * EINVAL, then EBADF while tracing is off; at most TRACE_BUF_SIZE of them
 * are recorded, the count returned. A raw_data record of the writer's on
 * its vCPU in the tracefs (the host-side --trace has no such event). */
static int64_t mark_raw_write(struct task *t, struct tracefs *tf, const char *rel, const char *data,
                              size_t len)
{
    enum { RAW_DATA_MAX_SIZE = 3 * 1024 };
    if (len < 4 || len > RAW_DATA_MAX_SIZE)
        return -EINVAL;
    if (!tracefs_on(tf, rel))
        return -EBADF;
    size_t cnt = len > TRACE_BUF_SIZE ? TRACE_BUF_SIZE : len;
    struct machine *m = t->machine;
    struct mevent_task task;
    sched_event_task(&t->se, &task);
    /* the vCPU as machine_events.c's emit() names it */
    unsigned cpu = t == m->slice_task ? m->slice_cpu : t->se.cpu;
    tracefs_mark_raw(tf, rel, cpu, machine_now(m), &task, data, cnt);
    return (int64_t)cnt;
}

static int64_t tfs_write(void *ctx, const char *rel, const char *data, size_t len)
{
    struct task *t = ctx;
    struct tracefs *tf = tracefs_of(t->machine);
    if (!tf)
        return -ENOMEM;
    /* the top level's or an instance's (instances/NAME/trace_marker) */
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    if (strcmp(base, "trace_marker") == 0)
        return mark_write(t, tf, rel, data, len);
    if (strcmp(base, "trace_marker_raw") == 0)
        return mark_raw_write(t, tf, rel, data, len);
    int64_t n = tracefs_write(tf, rel, data, len);
    tracefs_of(t->machine); /* subscribes the events once one is enabled */
    return n;
}

static void tfs_truncate(void *ctx, const char *rel)
{
    struct tracefs *tf = tracefs_of(((struct task *)ctx)->machine);
    if (tf)
        tracefs_truncate(tf, rel);
}

static int tfs_dir(void *ctx, const char *rel, bool make)
{
    struct tracefs *tf = tracefs_of(((struct task *)ctx)->machine);
    if (!tf)
        return -ENOMEM;
    return make ? tracefs_mkdir(tf, rel) : tracefs_rmdir(tf, rel);
}

static int cg_node(void *ctx, unsigned hier, const char *rel, bool *dir, unsigned *mode)
{
    const struct task *t = ctx;
    return cgroup_node(t->machine, hier, rel, dir, mode);
}

static int cg_list(void *ctx, unsigned hier, const char *rel,
                   void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    const struct task *t = ctx;
    return cgroup_list(t->machine, hier, rel, emit, arg);
}

static int cg_read(void *ctx, unsigned hier, const char *rel, char **data, size_t *size)
{
    const struct task *t = ctx;
    return cgroup_read(t->machine, hier, rel, data, size);
}

static int64_t cg_write(void *ctx, unsigned hier, const char *rel, const char *data, size_t len)
{
    struct task *t = ctx;
    int64_t r = cgroup_write(t, hier, rel, data, len);
    t->stop = true; /* tasks may have moved, this one included */
    return r;
}

static int proc_cgroup(void *ctx, int pid, char **data, size_t *size)
{
    const struct task *t = ctx;
    return cgroup_proc_file(t->machine, pid, data, size);
}

static int mqueue_stat(void *ctx, const char *name, struct stat *st)
{
    const struct task *t = ctx;
    return mq_fs_stat(t->machine, name, st);
}

static int mqueue_list(void *ctx, void (*emit)(const char *name, unsigned char type, void *arg),
                       void *arg)
{
    const struct task *t = ctx;
    return mq_fs_list(t->machine, emit, arg);
}

const struct vfs_provider vfs_provider_kernel = {
    .cpus = cpus,
    .set_cpu_online = set_cpu_online,
    .set_comm = set_comm,
    .self_pid = self_pid,
    .self_tid = self_tid,
    .next_pid = next_pid,
    .task = task_info,
    .exe = exe,
    .cwd = cwd,
    .root = root,
    .cmdline = cmdline,
    .auxv = auxv_of,
    .environ = environ_of,
    .kmsg = kmsg,
    .net = net_table,
    .sysvipc = sysvipc,
    .sysctl_read = sysctl_text,
    .sysctl_write = sysctl_store,
    .thread = thread_info,
    .next_tid = next_tid,
    .argv = argv_of,
    .next_fd = next_fd,
    .fd = fd_target,
    .vma = vma_at,
    .stats = stats,
    .cpu_capacity = cpu_capacity,
    .release = release,
    .version = version,
    .cpu_busy_ns = cpu_busy_ns,
    .next_pty = next_pty,
    .cpu_cur_khz = cpu_cur_khz,
    .tracefs_lookup = tfs_lookup,
    .tracefs_list = tfs_list,
    .tracefs_read = tfs_read,
    .tracefs_write = tfs_write,
    .tracefs_truncate = tfs_truncate,
    .tracefs_dir = tfs_dir,
    .cgroup_node = cg_node,
    .cgroup_list = cg_list,
    .cgroup_read = cg_read,
    .cgroup_write = cg_write,
    .proc_cgroup = proc_cgroup,
    .mqueue_stat = mqueue_stat,
    .mqueue_list = mqueue_list,
};
