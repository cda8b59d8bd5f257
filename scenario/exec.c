/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.c - the child side of a scenario run: the machine script from the
 * scenario, emu_run_script, and the outcome as JSON:
 *
 *   {"scenario", "policy", "machine": "ok" | "invariant violated" |
 *    "deadlock" | "time limit" | "stopped by the host", "end_ns",
 *    "tasks": [{"name", "pid", "isa": "aarch64" | "arm" | null, "error",
 *               "exit" | "signal", "affinity", "kills", "cpus_used",
 *               "cpus_used_aarch64", "cpus_used_arm" (running code of that ISA),
 *               "affinity_history": [{"at_ns", "old", "new", "rule", "cause"}],
 *               "saved_mask" (when it ended; null: none),
 *               "saved_mask_history": [{"at_ns", "mask"}] (after each execve),
 *               "stdout", "stderr"}],
 *    "actions": [{"at_ns" (null: its trigger never came), "what", "fires" (how
 *                 many times: every, each), "error" (a repeating one's first),
 *                 "content" (reads)}], "kernel_log",
 *    "threads": [{"tid", "tgid", "comm", "run_ns": [per vCPU], "migrations",
 *                 "wakeup_latency_ns": [one per wake-up], "runnable_wait_ns",
 *                 "deadline_misses", "phases": {NAME: completions}}]
 *               (every thread of the run, in order of appearance),
 *    "cpu_busy_ns": [per vCPU], "threads_truncated"}
 */
#include "scenario.h"


#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static json_t *text_json(const char *s, size_t len)
{
    json_t *j = json_stringn(s, len);
    return j ? j : json_string("(bytes that are not UTF-8)");
}

static json_t *memfd_text(int fd)
{
    off_t size = lseek(fd, 0, SEEK_END);
    char *buf = malloc(size > 0 ? (size_t)size : 1);
    ssize_t n = buf && size > 0 ? pread(fd, buf, (size_t)size, 0) : 0;
    json_t *j = text_json(buf ? buf : "", n > 0 ? (size_t)n : 0);
    free(buf);
    close(fd);
    return j;
}

static json_t *cpulist_json(const struct cpumask *m)
{
    char buf[4096];
    cpulist_format(m, buf, sizeof buf);
    return json_string(buf);
}

/* The kernel log's SIGKILL lines about pid (the kill and fixup policies'). */
static json_t *kills_of(const char *klog, int pid)
{
    json_t *kills = json_array();
    char needle[48];
    snprintf(needle, sizeof needle, "SIGKILL process %d (", pid);
    for (const char *line = klog; line && *line;) {
        size_t len = strcspn(line, "\n");
        const char *hit = strstr(line, needle);
        if (hit && hit < line + len)
            json_array_append_new(kills, text_json(line, len));
        line += len + (line[len] == '\n');
    }
    return kills;
}

static json_t *history_json(const struct script_task *st)
{
    json_t *changes = json_array();
    for (size_t i = 0; i < st->naffinity; i++) {
        const struct script_affinity_change *a = &st->affinity_history[i];
        json_t *j = json_object();
        json_object_set_new(j, "at_ns", json_integer((json_int_t)a->at_ns));
        json_object_set_new(j, "old", cpulist_json(&a->old_mask));
        json_object_set_new(j, "new", cpulist_json(&a->new_mask));
        json_object_set_new(j, "rule", json_string(a->rule));
        json_object_set_new(j, "cause", json_string(a->cause));
        json_array_append_new(changes, j);
    }
    return changes;
}

static json_t *saved_history_json(const struct script_task *st)
{
    json_t *saved = json_array();
    for (size_t i = 0; i < st->nsaved; i++) {
        const struct script_saved_mask *m = &st->saved_history[i];
        json_t *j = json_object();
        json_object_set_new(j, "at_ns", json_integer((json_int_t)m->at_ns));
        json_object_set_new(j, "mask", m->has_mask ? cpulist_json(&m->mask) : json_null());
        json_array_append_new(saved, j);
    }
    return saved;
}

static json_t *task_json(const struct script_task *st, const char *klog)
{
    json_t *t = json_object();
    json_object_set_new(t, "name", json_string(st->name));
    json_object_set_new(t, "pid", st->started ? json_integer(st->pid) : json_null());
    json_object_set_new(t, "isa", !st->exited || st->start_error[0] ? json_null()
                                  : json_string(st->compat ? "arm" : "aarch64"));
    json_object_set_new(t, "error", st->start_error[0] ? json_string(st->start_error) : json_null());
    if (st->exited && (st->wait_status & 0x7f) == 0)
        json_object_set_new(t, "exit", json_integer((st->wait_status >> 8) & 0xff));
    else if (st->exited)
        json_object_set_new(t, "signal", json_integer(st->wait_status & 0x7f));
    json_object_set_new(t, "affinity", st->exited ? cpulist_json(&st->final_affinity) : json_null());
    json_object_set_new(t, "kills", kills_of(klog, st->pid));
    json_object_set_new(t, "cpus_used", cpulist_json(&st->cpus_used));
    json_object_set_new(t, "cpus_used_aarch64", cpulist_json(&st->cpus_used_isa[0]));
    json_object_set_new(t, "cpus_used_arm", cpulist_json(&st->cpus_used_isa[1]));
    json_object_set_new(t, "affinity_history", history_json(st));
    json_object_set_new(t, "saved_mask", st->exited && st->has_final_saved
                                             ? cpulist_json(&st->final_saved) : json_null());
    json_object_set_new(t, "saved_mask_history", saved_history_json(st));
    json_object_set_new(t, "stdout", memfd_text(st->stdout_fd));
    json_object_set_new(t, "stderr", memfd_text(st->stderr_fd));
    return t;
}

static json_t *u64_array(const uint64_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

/* What the quantitative expectations (quant.c) measure. */
static json_t *threads_json(const struct machine_script *s)
{
    json_t *threads = json_array();
    for (size_t i = 0; i < s->nthreads; i++) {
        const struct script_thread *th = &s->threads[i];
        json_t *t = json_object();
        json_object_set_new(t, "tid", json_integer(th->tid));
        json_object_set_new(t, "tgid", json_integer(th->tgid));
        json_object_set_new(t, "comm", text_json(th->comm, strlen(th->comm)));
        json_object_set_new(t, "run_ns", u64_array(th->run_ns, s->ncpus));
        json_object_set_new(t, "migrations", json_integer((json_int_t)th->migrations));
        json_object_set_new(t, "wakeup_latency_ns", u64_array(th->latencies, th->nlatencies));
        json_object_set_new(t, "runnable_wait_ns", json_integer((json_int_t)th->runnable_wait_ns));
        json_object_set_new(t, "deadline_misses", json_integer((json_int_t)th->deadline_misses));
        json_t *phases = json_object();
        for (size_t j = 0; j < th->nmarks; j++)
            json_object_set_new(phases, th->marks[j].name,
                                json_integer((json_int_t)th->marks[j].count));
        json_object_set_new(t, "phases", phases);
        json_array_append_new(threads, t);
    }
    return threads;
}

static const char *action_name(enum script_action_kind k)
{
    static const char *const names[] = {
        [SCRIPT_WRITE] = "write", [SCRIPT_READ] = "read", [SCRIPT_SETAFFINITY] = "setaffinity",
        [SCRIPT_SIGNAL] = "signal", [SCRIPT_STDIN] = "stdin",
    };
    return names[k];
}

static const char *machine_state(const struct machine_script *s)
{
    if (s->status == 70)
        return "invariant violated";
    if (s->status == SCRIPT_DEADLOCK)
        return "deadlock";
    if (s->status >= 128)
        return "stopped by the host";
    return s->time_limit_hit ? "time limit" : "ok";
}

static json_t *outcome_json(const struct scenario *sc, const struct machine_script *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "scenario", json_string(sc->file));
    json_object_set_new(o, "policy", json_string(sched_policy_name(sc->cfg.policy)));
    json_object_set_new(o, "machine", json_string(machine_state(s)));
    json_object_set_new(o, "end_ns", json_integer((json_int_t)s->end_ns));
    json_t *tasks = json_array();
    for (size_t i = 0; i < s->ntasks; i++)
        json_array_append_new(tasks, task_json(&s->tasks[i], s->klog ? s->klog : ""));
    json_object_set_new(o, "tasks", tasks);
    json_t *actions = json_array();
    for (size_t i = 0; i < s->nactions; i++) {
        const struct script_action *a = &s->actions[i];
        json_t *j = json_object();
        bool timed = a->when == SCRIPT_AT || a->triggered;
        json_object_set_new(j, "at_ns", timed ? json_integer((json_int_t)a->at_ns) : json_null());
        json_object_set_new(j, "what", json_string(action_name(a->kind)));
        json_object_set_new(j, "fires", json_integer((json_int_t)a->fires));
        const char *err = !timed      ? "not done: its trigger did not happen"
                          : !a->fired ? "not done: every task had ended"
                          : a->err  ? strerrorname_np(-a->err)
                                    : NULL;
        json_object_set_new(j, "error", err ? json_string(err) : json_null());
        if (a->kind == SCRIPT_READ)
            json_object_set_new(j, "content", err ? json_null()
                                                  : text_json(a->content, a->content_len));
        json_array_append_new(actions, j);
    }
    json_object_set_new(o, "actions", actions);
    json_object_set_new(o, "kernel_log", json_string(s->klog ? s->klog : ""));
    json_object_set_new(o, "threads", threads_json(s));
    json_object_set_new(o, "cpu_busy_ns", u64_array(s->cpu_busy_ns, s->cpu_busy_ns ? s->ncpus : 0));
    json_object_set_new(o, "threads_truncated", json_boolean(s->threads_truncated));
    return o;
}

json_t *scenario_execute(struct scenario *sc)
{
    struct machine_script s = {
        .files = sc->files, .nfiles = sc->nfiles, .programs = sc->programs,
        .nprograms = sc->nprograms, .actions = sc->actions,
        .cgroups = sc->cgroups, .ncgroups = sc->ncgroups,
        .nactions = sc->nactions, .time_limit_ns = sc->time_limit_ns,
    };
    s.tasks = calloc(sc->ntasks + 1, sizeof *s.tasks);
    if (!s.tasks)
        return NULL;
    s.ntasks = sc->ntasks;
    for (size_t i = 0; i < sc->ntasks; i++) {
        const struct scenario_task *t = &sc->tasks[i];
        s.tasks[i] = (struct script_task){
            .name = t->name, .path = t->path, .guest_path = t->exe,
            .argc = t->argc, .argv = t->argv, .envp = t->envp,
            .has_affinity = t->has_affinity, .affinity = t->affinity, .start_ns = t->start_ns,
            .cgroup = t->cgroup,
            .stdout_fd = memfd_create("stdout", MFD_CLOEXEC),
            .stderr_fd = memfd_create("stderr", MFD_CLOEXEC),
        };
    }
    /* jansson seeds its hash from /dev/urandom on first use: now, as the
     * confined emulator may not open it. */
    json_object_seed(0);
    int err = emu_run_script(&sc->cfg, &s);
    json_t *o = err < 0 ? NULL : outcome_json(sc, &s);
    for (size_t i = 0; i < s.nactions; i++)
        free(s.actions[i].content);
    script_events_free(&s);
    free(s.klog);
    free(s.tasks);
    return o;
}

/* The options after FILE POLICY: the trace files are created now, before
 * the sandbox (which would not let the emulator create them); --control's
 * socket is made when the machine starts. */
static bool open_traces(int argc, char **argv, struct emu_config *cfg)
{
    for (int i = 2; i + 1 < argc; i += 2) {
        FILE **f = strcmp(argv[i], "--trace") == 0      ? &cfg->trace_file
                   : strcmp(argv[i], "--timeline") == 0 ? &cfg->timeline_file
                                                        : NULL;
        if (strcmp(argv[i], "--control") == 0) {
            cfg->control_path = argv[i + 1];
            continue;
        }
        if (strcmp(argv[i], "--record") == 0 || strcmp(argv[i], "--input") == 0) {
            *(argv[i][2] == 'r' ? &cfg->record_path : &cfg->input_path) = argv[i + 1];
            continue;
        }
        if (strcmp(argv[i], "--trace-format") == 0) {
            if (strcmp(argv[i + 1], "json") == 0)
                cfg->trace_format = EMU_TRACE_JSON;
            else if (strcmp(argv[i + 1], "ftrace") == 0)
                cfg->trace_format = EMU_TRACE_FTRACE;
            else if (strcmp(argv[i + 1], "dat") == 0)
                cfg->trace_format = EMU_TRACE_DAT;
            else
                return false;
            continue;
        }
        if (!f || *f)
            return false;
        if (!(*f = fopen(argv[i + 1], "we"))) {
            fprintf(stderr, "asymu: cannot create %s: %s\n", argv[i + 1], strerror(errno));
            return false;
        }
    }
    return argc % 2 == 0;
}

int scenario_cmd_exec(int argc, char **argv, scenario_options_fn options)
{
    if (argc < 2 || scenario_policy_parse(argv[1]) < 0) {
        fprintf(stderr, "usage: asymu scenario-exec FILE POLICY [--trace F] [--trace-format "
                        "json|ftrace|dat] [--timeline F] [--control PATH] [--record F] [--input F] (used by "
                        "replay and compare)\n");
        return SCENARIO_EXIT_BROKEN;
    }
    struct scenario *sc = scenario_load(argv[0], stderr, options);
    if (!sc)
        return SCENARIO_EXIT_BROKEN;
    sc->cfg.policy = (enum sched_policy_id)scenario_policy_parse(argv[1]);
    if (!open_traces(argc, argv, &sc->cfg)) {
        fprintf(stderr, "asymu scenario-exec: bad trace options\n");
        if (sc->cfg.trace_file)
            fclose(sc->cfg.trace_file);
        if (sc->cfg.timeline_file)
            fclose(sc->cfg.timeline_file);
        scenario_free(sc);
        return SCENARIO_EXIT_BROKEN;
    }
    /* The scenario's own input: unless the command line names one. A
     * recording names the run's program: here the scenario file. */
    if (!sc->cfg.input_path)
        sc->cfg.input_path = sc->input;
    const char *slash = strrchr(sc->file, '/');
    char *program[] = {slash ? (char *)slash + 1 : sc->file, NULL};
    sc->cfg.argv = program;
    sc->cfg.argc = 1;
    if (emu_recording_open(&sc->cfg, argc, argv) < 0) {
        scenario_free(sc);
        return SCENARIO_EXIT_BROKEN;
    }
    json_t *o = scenario_execute(sc);
    /* A replay with no outcome stopped where the run left its recording. */
    bool replayed = sc->cfg.input_path;
    scenario_free(sc);
    if (!o)
        return replayed ? SCENARIO_EXIT_BROKEN : SCENARIO_EXIT_FAIL;
    json_dumpf(o, stdout, JSON_COMPACT);
    fputc('\n', stdout);
    json_decref(o);
    return 0;
}
