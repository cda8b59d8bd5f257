/* vfs_provider.c - what the kernel layer tells the virtual /dev, /proc and
 * /sys: the vCPUs (with hotplug through cpuN/online), the processes, the
 * command line and the kernel log. ctx is the calling task. */
#include "kernel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void cpus(void *ctx, struct vfs_cpus *out)
{
    const struct task *t = ctx;
    const struct sched *s = &t->machine->sched;
    out->nr = s->nr_cpus;
    out->online = s->online;
    out->aarch32 = s->aarch32;
    out->aarch32_file = s->allow_mismatched;
}

static int set_cpu_online(void *ctx, unsigned cpu, bool online)
{
    struct task *t = ctx;
    struct sched *s = &t->machine->sched;
    bool was_online = cpumask_test_cpu(cpu, &s->online);
    int err = online ? sched_cpu_online(s, cpu) : sched_cpu_offline(s, cpu);
    t->stop = true; /* the scheduler may have moved tasks, this one included */
    uint64_t now = machine_now(t->machine);
    if (err == 0 && was_online && !online) {
        klog_printf(&t->machine->klog, now, KLOG_INFO, "CPU%u: shutdown", cpu);
        klog_printf(&t->machine->klog, now, KLOG_INFO, "psci: CPU%u killed (polled 0 ms)", cpu);
    } else if (err == 0 && !was_online && online) {
        klog_printf(&t->machine->klog, now, KLOG_INFO,
                    "CPU%u: Booted secondary processor 0x%010x", cpu, cpu);
    }
    return err;
}

static int self_pid(void *ctx)
{
    const struct task *t = ctx;
    return t->proc->pid;
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

static int task_info(void *ctx, int pid, struct vfs_task_info *out)
{
    const struct task *t = ctx;
    const struct process *p = NULL;
    for (const struct task *o = t->machine->tasks; o && !p; o = o->next_all)
        if (o->proc->pid == pid)
            p = o->proc;
    if (!p)
        return -ENOENT;
    /* The main thread is the one whose tid is the pid. */
    const struct task *main = NULL;
    for (const struct task *o = p->threads; o; o = o->next_thread)
        if (o->tid == pid)
            main = o;
    memset(out, 0, sizeof *out);
    out->pid = p->pid;
    out->ppid = p->parent ? p->parent->pid : 0;
    out->threads = p->live_threads;
    out->state = p->zombie ? 'Z' : main && main->state == TASK_BLOCKED ? 'S' : 'R';
    snprintf(out->comm, sizeof out->comm, "%s", p->comm);
    if (main) {
        out->allowed = main->se.affinity;
        out->cpu = main->se.cpu;
        out->compat = main->se.compat;
    }
    return 0;
}

static int proc_path(void *ctx, int pid, bool cwd, char *buf, size_t len)
{
    const struct task *t = ctx;
    for (const struct task *o = t->machine->tasks; o; o = o->next_all) {
        if (o->proc->pid == pid && !o->proc->zombie) {
            const char *path = cwd ? o->proc->cwd : o->proc->exe;
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
    return proc_path(ctx, pid, false, buf, len);
}

static int cwd(void *ctx, int pid, char *buf, size_t len)
{
    return proc_path(ctx, pid, true, buf, len);
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

const struct vfs_provider vfs_provider_kernel = {
    .cpus = cpus,
    .set_cpu_online = set_cpu_online,
    .self_pid = self_pid,
    .next_pid = next_pid,
    .task = task_info,
    .exe = exe,
    .cwd = cwd,
    .cmdline = cmdline,
    .kmsg = kmsg,
};
