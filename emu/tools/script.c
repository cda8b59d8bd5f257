/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script.c - runs a machine_script (script.h): its tasks start as
 * parentless top-level processes, each with its own stdout and a stdin pipe,
 * and its actions happen from outside the machine at their virtual times as
 * ktimers fired by the machine loop with no task loaded. */
#include "script.h"

#include "abi.h"
#include "cgroup.h"
#include "exec.h"
#include "file.h"
#include "ktimer.h"
#include "machine.h"
#include "machine_trace.h"
#include "mm.h"
#include "recording.h"
#include "signals.h"
#include "script_events.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct script_timer {
    struct ktimer kt;
    struct machine *m;
    size_t index; /* a task's or an action's */
};

/* The script a machine runs (machine->script, NULL for a machine started
 * by one command line), and the timers of its actions (after those of its
 * tasks). */
struct script_run {
    struct machine_script *s;
    struct script_timer *action_timers;
};

#define timer_of(k) ((struct script_timer *)(k))

bool script_machine_done(const struct machine *m)
{
    const struct machine_script *active = m->script ? m->script->s : NULL;
    if (!active)
        return m->init->zombie;
    for (size_t i = 0; i < active->ntasks; i++) {
        const struct script_task *st = &active->tasks[i];
        if (!st->start_error[0] && (!st->started || !st->proc->zombie))
            return false;
    }
    return true;
}

/* The task the virtual files are read and written as: the first one started. */
static void *vfs_caller(struct machine *m)
{
    return m->init ? m->init->threads : NULL;
}

static bool has_stdin_events(const struct machine_script *active, const struct script_task *st)
{
    for (size_t i = 0; i < active->nactions; i++)
        if (active->actions[i].kind == SCRIPT_STDIN && &active->tasks[active->actions[i].task] == st)
            return true;
    return false;
}

static void close_stdin(struct script_task *st);

_Static_assert(SCRIPT_CGROUP_MAX == CGROUP_MAX && SCRIPT_CGROUP_NAME_MAX == CGROUP_NAME_MAX,
               "script.h's cgroup bounds are cgroup.h's");

int script_cgroup_check(const char *file, const char *value)
{
    return cgroup_value_check(file, value);
}

bool script_cgroup_is_file(const char *name)
{
    return cgroup_is_file_name(name);
}

/* Writes value to rel (a file below the cgroup v2 root) as task w would:
 * through the kernel layer's cgroup_write(), whose rules apply; a failure
 * is said in why. */
static int cg_write(struct task *w, const char *rel, const char *value, char *why, size_t len)
{
    int64_t r = cgroup_write(w, 0, rel, value, strlen(value));
    if (r < 0)
        snprintf(why, len, "cgroup /%.300s: %s", rel, strerror((int)-r));
    return r < 0 ? (int)r : 0;
}

/* The script's groups, made by the first task before its execve, as a
 * shell would: mkdir of each missing component (cgroup_mkdir()), then the
 * controllers of each group's files enabled in every ancestor's
 * cgroup.subtree_control, then the files written. The scenario's parser
 * checked the values and that no group with tasks must enable a
 * controller; a failure still left is the first task's error. */
static int make_cgroups(struct task *w, char *why, size_t len)
{
    const struct machine_script *active = w->machine->script->s;
    char rel[4096];
    int err = 0;
    for (size_t i = 0; i < active->ncgroups && err == 0; i++) {
        const char *path = active->cgroups[i].path;
        for (const char *p = path; err == 0; p++) {
            if (*p == '/' || !*p) {
                snprintf(rel, sizeof rel, "%.*s", (int)(p - path), path);
                if ((err = cgroup_mkdir(w->machine, 0, rel)) == -EEXIST)
                    err = 0;
                if (err < 0)
                    snprintf(why, len, "cgroup mkdir /%.300s: %s", rel, strerror(-err));
            }
            if (!*p)
                break;
        }
    }
    for (size_t i = 0; i < active->ncgroups && err == 0; i++) {
        const struct script_cgroup *g = &active->cgroups[i];
        bool cpuset = false, cpu = false;
        for (unsigned f = 0; f < g->nfiles; f++)
            *(strncmp(g->file[f], "cpuset.", 7) == 0 ? &cpuset : &cpu) = true;
        const char *enable = cpuset && cpu ? "+cpuset +cpu" : cpuset ? "+cpuset" : "+cpu";
        /* The root's, then each ancestor's below it. */
        for (const char *p = g->path; (cpuset || cpu) && p && err == 0; p = strchr(p + 1, '/')) {
            snprintf(rel, sizeof rel, "%.*s%scgroup.subtree_control", (int)(p - g->path),
                     g->path, p == g->path ? "" : "/");
            err = cg_write(w, rel, enable, why, len);
        }
    }
    for (size_t i = 0; i < active->ncgroups && err == 0; i++) {
        const struct script_cgroup *g = &active->cgroups[i];
        for (unsigned f = 0; f < g->nfiles && err == 0; f++) {
            snprintf(rel, sizeof rel, "%s/%s", g->path, g->file[f]);
            err = cg_write(w, rel, g->value[f], why, len);
        }
    }
    return err;
}

/* A task is a new process like a fork's child: past --max-procs live
 * processes, or with the host below --host-reserve, it does not start, and
 * its error (EAGAIN, ENOMEM: what fork would return) is in the outcome. */
static void start_task(struct machine *m, struct script_task *st)
{
    const struct machine_script *active = m->script->s;
    struct process *first = m->init;
    int refused = process_limits_check(m);
    struct task *t = refused < 0 ? NULL : task_create_init(m);
    if (!t) {
        snprintf(st->start_error, sizeof st->start_error, "%s",
                 strerror(refused < 0 ? -refused : ENOMEM));
        return;
    }
    if (first) /* pid 1 stays the first task: orphans go to it */
        m->init = first;
    struct process *p = t->proc;
    st->proc = p;
    st->pid = p->pid;
    st->started = true;
    p->files->fd[1]->host_fd = st->stdout_fd;
    p->files->fd[2]->host_fd = st->stderr_fd;
    struct file *rd, *wr;
    if (pipe_create(m, &rd, &wr) == 0) {
        file_put(p->files->fd[0]);
        p->files->fd[0] = rd;
        st->stdin_writer = wr;
        if (!has_stdin_events(active, st)) /* its stdin reads EOF */
            close_stdin(st);
    }
    char why[512] = "";
    int err = 0;
    /* The groups, then its own: written into cgroup.procs as `echo 0 >
     * cgroup.procs` before the exec (__cgroup_procs_write(), cpuset_attach()
     * giving it the cpuset's CPUs: docs/cgroups.md CG1, CG2, CG4), and
     * then its affinity, cut to the cpuset's (CG3), as `taskset -c`. */
    if (!first && active->ncgroups)
        err = make_cgroups(t, why, sizeof why);
    if (err == 0 && st->cgroup) {
        char rel[4096];
        snprintf(rel, sizeof rel, "%s/cgroup.procs", st->cgroup);
        err = cg_write(t, rel, "0", why, sizeof why);
    }
    if (err == 0 && st->has_affinity) {
        struct cpumask mask = st->affinity;
        if (cgroup_cut_affinity(m, t, &mask))
            sched_task_setaffinity(&m->sched, NULL, &t->se, &mask);
        else /* taskset's sched_setaffinity fails: no exec */
            snprintf(why, sizeof why, "affinity: no CPU of its cpuset (sched_setaffinity: %s)",
                     strerror(-(err = -EINVAL)));
    }
    if (err == 0)
        err = st->program_fd;
    if (err >= 0)
        err = exec_program(t, st->program_fd, st->exe, st->argv, st->argc, st->envp, why,
                           sizeof why);
    if (err < 0) {
        snprintf(st->start_error, sizeof st->start_error, "%s", why[0] ? why : strerror(-err));
        process_exit_group(p, (-err == ENOENT ? 127 : 126) << 8);
    }
}

static void close_stdin(struct script_task *st)
{
    if (st->stdin_writer) {
        file_put(st->stdin_writer);
        st->stdin_writer = NULL;
    }
}

static void fire_start(struct ktimer *k)
{
    struct script_timer *tm = timer_of(k);
    start_task(tm->m, &tm->m->script->s->tasks[tm->index]);
}

int script_write_virtual(struct machine *m, const char *path, const char *data, size_t len)
{
    struct vfs_node node;
    void *caller = vfs_caller(m);
    int r = vfs_lookup_virtual(&m->vfs, caller, path, &node);
    if (r <= 0)
        return r < 0 ? r : -ENOENT;
    if (node.kind != VNODE_GENERATED || !(node.mode & 0200))
        return -EACCES;
    int64_t n = vfs_write_virtual(&m->vfs, caller, &node, data, len, 0);
    return n < 0 ? (int)n : 0;
}

static int read_virtual(struct machine *m, struct script_action *a)
{
    struct vfs_node node;
    void *caller = vfs_caller(m);
    int r = vfs_lookup_virtual(&m->vfs, caller, a->path, &node);
    if (r <= 0)
        return r < 0 ? r : -ENOENT;
    if (node.kind != VNODE_GENERATED)
        return -EISDIR;
    return vfs_generate(&m->vfs, caller, &node, &a->content, &a->content_len);
}

static int feed_stdin(struct machine *m, struct script_action *a)
{
    struct script_task *st = &m->script->s->tasks[a->task];
    if (!st->stdin_writer || st->proc->zombie)
        return -EPIPE;
    int64_t n = pipe_write(st->proc->threads, st->stdin_writer, a->data, a->len);
    if (a->last_stdin)
        close_stdin(st);
    /* A pipe holds 64 KiB: what a task has not read by then is dropped. */
    return n < 0 ? (int)n : (size_t)n < a->len ? -EAGAIN : 0;
}

static int act(struct machine *m, struct script_action *a)
{
    struct script_task *st = a->kind == SCRIPT_WRITE || a->kind == SCRIPT_READ
                                 ? NULL
                                 : &m->script->s->tasks[a->task];
    if (st && (!st->started || st->proc->zombie))
        return -ESRCH;
    switch (a->kind) {
    case SCRIPT_WRITE:
        return script_write_virtual(m, a->path, a->data, a->len);
    case SCRIPT_READ:
        return read_virtual(m, a);
    case SCRIPT_SETAFFINITY: { /* as sched_setaffinity: cut to its cpuset (CG3) */
        struct cpumask mask = a->mask;
        if (!cgroup_cut_affinity(m, st->proc->threads, &mask))
            return -EINVAL;
        return sched_task_setaffinity(&m->sched, NULL, &st->proc->threads->se, &mask);
    }
    case SCRIPT_SIGNAL: {
        struct siginfo_lite info = {.code = SI_USER, .pid = 0};
        signal_queue_process(st->proc, a->sig, &info);
        return 0;
    }
    case SCRIPT_STDIN:
        return feed_stdin(m, a);
    }
    return -EINVAL;
}

static void fire_action(struct ktimer *k)
{
    struct script_timer *tm = timer_of(k);
    struct script_action *a = &tm->m->script->s->actions[tm->index];
    if (a->when != SCRIPT_AT && !a->fired) /* the slice boundary after its trigger */
        a->at_ns = machine_now(tm->m);
    int err = act(tm->m, a);
    if (!a->fired || !a->err) /* a repeating one keeps its first error */
        a->err = err;
    a->fired = true;
    a->fires++;
    a->pending = false;
    /* every: the next time, from the planned one (no drift). */
    if (a->every_ns && !__builtin_add_overflow(a->next_ns ? a->next_ns : a->at_ns, a->every_ns,
                                               &a->next_ns))
        ktimer_arm(tm->m, &tm->kt, a->next_ns);
}

void script__arm_action(struct machine *m, size_t i, uint64_t at)
{
    /* A repeating trigger's events before the boundary make one action. */
    struct script_run *run = m->script;
    if (run->s->actions[i].pending)
        return;
    run->s->actions[i].pending = true;
    ktimer_arm(m, &run->action_timers[i].kt, at);
}

static void fire_time_limit(struct ktimer *k)
{
    struct machine_script *active = timer_of(k)->m->script->s;
    active->time_limit_hit = true;
    for (size_t i = 0; i < active->ntasks; i++)
        if (active->tasks[i].started)
            process_exit_group(active->tasks[i].proc, SIGKILL);
}

/* What each task left: its status and its leader's affinity (a parentless
 * process stays a zombie, its leader unfreed, until the machine ends). */
static void collect(struct machine *m, struct machine_script *s)
{
    for (size_t i = 0; i < s->ntasks; i++) {
        struct script_task *st = &s->tasks[i];
        close_stdin(st);
        if (!st->started || !st->proc->zombie)
            continue;
        st->exited = true;
        st->wait_status = st->proc->wait_status;
        if (st->proc->threads) {
            st->final_affinity = st->proc->threads->se.affinity;
            st->has_final_saved = st->proc->threads->se.has_saved_mask;
            st->final_saved = st->proc->threads->se.saved_mask;
            st->compat = st->proc->threads->se.compat;
        }
    }
    s->end_ns = machine_now(m);
    size_t n = klog_read(&m->klog, 0, 0, NULL, 0);
    s->klog = malloc(n + 1);
    if (s->klog)
        klog_read(&m->klog, 0, 0, s->klog, n + 1);
}

static int place_files(struct machine *m, const struct machine_script *s)
{
    for (size_t i = 0; i < s->nfiles; i++) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", m->vfs.tmp_path, s->files[i].name);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            return -errno;
        ssize_t n = write(fd, s->files[i].data, s->files[i].len);
        close(fd);
        if (n != (ssize_t)s->files[i].len)
            return n < 0 ? -errno : -ENOSPC;
    }
    return 0;
}

/* Copies one program into the programs' directory, with its mode. */
static int copy_program(int dir_fd, const struct script_program *p)
{
    /* A regular file only (the scenario's parse checked it by path): a
     * device would be copied until the disk is full, a FIFO wait. */
    int in = open(p->host_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int err = in < 0 || fstat(in, &st) < 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -EINVAL;
    if (err < 0) {
        if (in >= 0)
            close(in);
        return err;
    }
    int out = openat(dir_fd, p->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0555);
    err = out < 0 ? -errno : 0;
    char buf[1 << 16];
    ssize_t n = 0;
    while (err == 0 && (n = read(in, buf, sizeof buf)) > 0) {
        ssize_t w = write(out, buf, (size_t)n);
        if (w != n)
            err = w < 0 ? -errno : -ENOSPC;
    }
    if (err == 0 && n < 0)
        err = -errno;
    close(in);
    if (out >= 0)
        close(out);
    return err;
}

/* The programs the guest knows by VFS_PROGRAMS_DIR/NAME, copied there. */
static int place_programs(struct machine *m, const struct machine_script *s)
{
    int err = 0;
    for (size_t i = 0; i < s->nprograms && err == 0; i++)
        if ((err = copy_program(m->vfs.mounts[VFS_MOUNT_PROGRAMS].fd, &s->programs[i])) < 0)
            fprintf(stderr, "asymu: cannot copy the program %s: %s\n", s->programs[i].host_path,
                    strerror(-err));
    return err;
}

/* Each program is opened (and its guest path found) now: once confined
 * the emulator may not see it. */
static void open_programs(struct machine *m, struct machine_script *s)
{
    for (size_t i = 0; i < s->ntasks; i++) {
        struct script_task *st = &s->tasks[i];
        if (st->guest_path)
            snprintf(st->exe, sizeof st->exe, "%s", st->guest_path);
        else
            guest_path_of(m->cfg->sysroot, st->path, st->exe, sizeof st->exe);
        st->program_fd = open(st->path, O_RDONLY | O_CLOEXEC);
        if (st->program_fd < 0)
            st->program_fd = -errno;
    }
}

static void close_programs(struct machine_script *s)
{
    for (size_t i = 0; i < s->ntasks; i++)
        if (s->tasks[i].program_fd >= 0)
            close(s->tasks[i].program_fd);
}

int emu_run_script(const struct emu_config *cfg, struct machine_script *s)
{
    struct machine m;
    struct machine_trace trace;
    int err = machine_boot_traced(&m, &trace, cfg);
    if (err < 0) {
        recording_free(cfg->recording);
        return err;
    }
    recording_attach(&m);
    char why[512];
    if (s->nprograms && (err = vfs_mount_programs(&m.vfs, why, sizeof why)) < 0)
        fprintf(stderr, "asymu: %s\n", why);
    if (err < 0 || (err = script_events_start(&m, s)) < 0) {
        machine_trace_finish(&trace, &m);
        machine_shutdown(&m);
        recording_free(m.recording);
        return err;
    }
    if ((err = machine_host_start(&m)) < 0 || (err = place_files(&m, s)) < 0 ||
        (err = place_programs(&m, s)) < 0) {
        if (err != -ENOMEM)
            fprintf(stderr, "asymu: cannot start the scenario's machine: %s\n", strerror(-err));
        machine_trace_finish(&trace, &m);
        machine_host_stop(&m);
        recording_free(m.recording);
        return err;
    }
    open_programs(&m, s);
    size_t ntimers = s->ntasks + s->nactions + 1;
    struct script_timer *timers = calloc(ntimers, sizeof *timers);
    if (!timers) {
        machine_trace_finish(&trace, &m);
        machine_host_stop(&m);
        recording_free(m.recording);
        return -ENOMEM;
    }
    struct script_run run = {.s = s, .action_timers = timers + s->ntasks};
    struct script_timer *action_timers = run.action_timers;
    m.script = &run;
    /* Ready before the first task starts: its exec may fire a trigger. */
    for (size_t i = 0; i < s->nactions; i++)
        action_timers[i] = (struct script_timer){.kt.fire = fire_action, .m = &m, .index = i};
    /* Tasks due at 0 start now, in order, so their pids follow the file. */
    for (size_t i = 0; i < s->ntasks; i++) {
        struct script_timer *tm = &timers[i];
        *tm = (struct script_timer){.kt.fire = fire_start, .m = &m, .index = i};
        if (s->tasks[i].start_ns == 0)
            start_task(&m, &s->tasks[i]);
        else
            ktimer_arm(&m, &tm->kt, s->tasks[i].start_ns);
    }
    for (size_t i = 0; i < s->nactions; i++)
        if (s->actions[i].when == SCRIPT_AT)
            ktimer_arm(&m, &action_timers[i].kt, s->actions[i].at_ns);
    struct script_timer *limit = &timers[ntimers - 1];
    *limit = (struct script_timer){.kt.fire = fire_time_limit, .m = &m};
    ktimer_arm(&m, &limit->kt, s->time_limit_ns);
    int status = recording_finish(&m, machine_confine_and_run(&m));
    bool mismatched = recording_mismatched(&m);
    /* machine_run's status is pid 1's when the loop ended normally: the
     * tasks' own statuses say it. Otherwise 70 (an invariant failed),
     * 128+N (a host signal), or a deadlock (SCRIPT_DEADLOCK). */
    if (script_machine_done(&m))
        s->status = 0;
    else
        s->status = status == 70 || status >= 128 || status < 0 ? status : SCRIPT_DEADLOCK;
    collect(&m, s);
    for (size_t i = 0; i < ntimers; i++)
        ktimer_cancel(&m, &timers[i].kt);
    machine_trace_finish(&trace, &m);
    machine_host_stop(&m);
    close_programs(s);
    free(timers);
    recording_free(m.recording);
    if (mismatched) /* the reason, with the recording's line, is on stderr */
        return -EPROTO;
    return s->status < 0 ? s->status : 0;
}
