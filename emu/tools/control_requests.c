/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control_requests.c - the control socket's requests (docs/control.md):
 * "COMMAND ARG..." in, one JSON object out with "version" and either the
 * answer or "error". They run between two slices (hostio.c serves the
 * socket there), so what they change takes effect at a slice boundary. */
#include "control.h"
#include "control_requests.h"

#include "abi.h"
#include "cgroup.h"
#include "machine.h"
#include "machine_trace.h"
#include "mm.h"
#include "recording.h"
#include "script.h"
#include "signals.h"
#include "strace.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define MAX_ARGS 8
#define MEM_MAX_BYTES 4096
#define LINE_MAX_BYTES_REQUEST 4096 /* control.c's longest line */

struct request {
    struct control *ctl;
    struct control_client *client;
    struct machine *m;
    int argc;
    char *argv[MAX_ARGS];
    char why[256]; /* the error, when a handler returns NULL */
};

static json_t *fail(struct request *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *fail(struct request *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    return NULL;
}

static json_t *fail_errno(struct request *r, int err, const char *what)
{
    return fail(r, "%s: %s (%s)", what, strerrorname_np(err) ? strerrorname_np(err) : "?",
                strerror(err));
}

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* The live (not yet dead) task with tid argv[i]. */
static struct task *task_arg(struct request *r, int i)
{
    uint64_t tid;
    if (!parse_u64(r->argv[i], &tid) || tid > INT32_MAX) {
        fail(r, "'%s' is not a task id", r->argv[i]);
        return NULL;
    }
    struct task *t = task_find(r->m, (int)tid);
    if (!t || t->state == TASK_DEAD || !task_mm(t)) {
        fail(r, "no task %" PRIu64, tid);
        return NULL;
    }
    return t;
}

/* A JSON string of guest-made text (a task's name, the kernel log that
 * quotes names): bytes outside printable ASCII, newlines and tabs read as
 * '?', as ps shows them, since JSON strings must be valid UTF-8. */
static json_t *guest_text(const char *s)
{
    char *copy = strdup(s);
    if (!copy)
        return NULL;
    for (char *p = copy; *p; p++)
        if ((*p < 0x20 || *p > 0x7e) && *p != '\n' && *p != '\t')
            *p = '?';
    json_t *out = json_string(copy);
    free(copy);
    return out;
}

static json_t *cpulist(const struct cpumask *mask)
{
    char buf[4 * NR_CPUS_MAX];
    cpulist_format(mask, buf, sizeof buf);
    return json_string(buf);
}

static const char *state_name(struct task *t)
{
    if (t->state == TASK_DEAD)
        return "dead";
    if (t->control_held || signal_stopped(t))
        return "stopped";
    return t->state == TASK_RUNNABLE ? "runnable" : "sleeping";
}

/* ---- looking ---- */

static json_t *req_ps(struct request *r)
{
    json_t *tasks = json_array();
    const struct sched *s = &r->m->sched;
    for (struct task *t = r->m->tasks; t; t = t->next_all) {
        if (t->state == TASK_DEAD)
            continue;
        const struct sched_task *se = &t->se;
        json_array_append_new(
            tasks, json_pack("{s:i,s:i,s:o,s:s,s:s,s:b,s:i,s:o,s:o,s:I,s:I,s:I}", "pid",
                             t->proc->pid, "tid", t->tid, "name", guest_text(se->comm), "isa",
                             se->compat ? "aarch32" : "aarch64", "state", state_name(t), "held",
                             t->control_held, "cpu", (int)se->cpu, "affinity",
                             cpulist(&se->affinity), "saved_mask",
                             se->has_saved_mask ? cpulist(&se->saved_mask) : json_null(),
                             "blocks", (json_int_t)(se->sum_exec_ns / s->ns_per_block),
                             "switches", (json_int_t)se->nr_switches, "migrations",
                             (json_int_t)se->nr_migrations));
    }
    return json_pack("{s:o}", "tasks", tasks);
}

static json_t *req_cpus(struct request *r)
{
    const struct sched *s = &r->m->sched;
    json_t *cpus = json_array();
    for (unsigned c = 0; c < s->nr_cpus; c++) {
        const struct sched_cpu *sc = &s->cpus[c];
        json_t *last = sc->last && sc->last->state != SCHED_TASK_DEAD ? json_integer(sc->last->tid)
                                                                       : json_null();
        json_array_append_new(cpus, json_pack("{s:i,s:b,s:b,s:o,s:i,s:I}", "cpu", (int)c,
                                              "online", sched_cpu_is_online(s, c), "aarch32",
                                              cpumask_test_cpu(c, &s->aarch32), "current", last,
                                              "runqueue", (int)sc->nr_running, "clock_ns",
                                              (json_int_t)sc->clock_ns));
    }
    return json_pack("{s:o}", "cpus", cpus);
}

static json_t *req_dmesg(struct request *r)
{
    size_t n = klog_read(&r->m->klog, 0, 0, NULL, 0);
    char *text = malloc(n + 1);
    if (!text)
        return fail(r, "out of memory");
    klog_read(&r->m->klog, 0, 0, text, n + 1);
    json_t *out = json_pack("{s:o}", "dmesg", guest_text(text));
    free(text);
    return out;
}

/* A register of t: from its engine when loaded there, else its saved context. */
static uint64_t reg_of(struct task *t, int id)
{
    uint64_t v = 0;
    struct mm *mm = task_mm(t);
    if (mm->loaded == t && mm->uc)
        uc_reg_read(mm->uc, id, &v);
    else
        uc_context_reg_read(t->ctx, id, &v);
    return t->se.compat ? (uint32_t)v : v;
}

static json_t *req_regs(struct request *r)
{
    struct task *t = task_arg(r, 1);
    if (!t)
        return NULL;
    json_t *regs = json_object();
    char name[8], hex[24];
    int n = t->se.compat ? 13 : 31;
    for (int i = 0; i < n; i++) {
        int id = t->se.compat    ? UC_ARM_REG_R0 + i
                 : i < 29        ? UC_ARM64_REG_X0 + i
                 : i == 29       ? UC_ARM64_REG_FP
                                 : UC_ARM64_REG_LR;
        snprintf(name, sizeof name, "%c%d", t->se.compat ? 'r' : 'x', i);
        snprintf(hex, sizeof hex, "0x%" PRIx64, reg_of(t, id));
        json_object_set_new(regs, name, json_string(hex));
    }
    static const struct {
        const char *name;
        int a64, a32;
    } special[] = {{"sp", UC_ARM64_REG_SP, UC_ARM_REG_SP},
                   {"lr", -1, UC_ARM_REG_LR},
                   {"pc", UC_ARM64_REG_PC, UC_ARM_REG_PC},
                   {"pstate", UC_ARM64_REG_PSTATE, -1},
                   {"cpsr", -1, UC_ARM_REG_CPSR}};
    for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
        int id = t->se.compat ? special[i].a32 : special[i].a64;
        if (id < 0)
            continue;
        snprintf(hex, sizeof hex, "0x%" PRIx64, reg_of(t, id));
        json_object_set_new(regs, special[i].name, json_string(hex));
    }
    return json_pack("{s:i,s:s,s:o}", "tid", t->tid, "isa", t->se.compat ? "aarch32" : "aarch64",
                     "regs", regs);
}

static json_t *req_mem(struct request *r)
{
    struct task *t = task_arg(r, 1);
    uint64_t addr, len;
    if (!t)
        return NULL;
    if (!parse_u64(r->argv[2], &addr) || !parse_u64(r->argv[3], &len))
        return fail(r, "usage: mem PID ADDR LEN");
    if (len > MEM_MAX_BYTES)
        return fail(r, "LEN %" PRIu64 " is more than %d bytes", len, MEM_MAX_BYTES);
    uint8_t buf[MEM_MAX_BYTES];
    char hex[2 * MEM_MAX_BYTES + 1];
    int err = copy_from_guest(task_mm(t), buf, addr, len);
    if (err < 0)
        return fail_errno(r, -err, "mem");
    for (uint64_t i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", buf[i]);
    hex[2 * len] = '\0';
    return json_pack("{s:i,s:I,s:s}", "tid", t->tid, "addr", (json_int_t)addr, "hex", hex);
}

/* ---- steering ---- */

/* Takes t off its runqueue now, as a stop signal does at its next pick. */
static void hold(struct task *t)
{
    t->control_held = true;
    if (t->state == TASK_RUNNABLE) {
        t->state = TASK_BLOCKED;
        sched_task_block(&t->machine->sched, &t->se);
        waitq_update(t);
    }
}

static void release(struct task *t)
{
    if (!t->control_held)
        return;
    t->control_held = false;
    if (t->state == TASK_BLOCKED)
        task_wake(t); /* a thread in a syscall finds it still blocks */
}

/* stop and cont: the whole machine, or one task. */
static json_t *stop_or_cont(struct request *r, bool stop)
{
    if (r->argc == 1) {
        r->ctl->paused = stop;
        r->ctl->steps_left = 0;
        control_steps_done(r->ctl); /* a step under way ends here */
        return json_object();
    }
    struct task *t = task_arg(r, 1);
    if (!t)
        return NULL;
    if (stop)
        hold(t);
    else
        release(t);
    return json_pack("{s:i,s:s}", "tid", t->tid, "state", state_name(t));
}

static json_t *req_stop(struct request *r)
{
    return stop_or_cont(r, true);
}

static json_t *req_cont(struct request *r)
{
    return stop_or_cont(r, false);
}

static json_t *req_step(struct request *r)
{
    uint64_t n;
    if (!parse_u64(r->argv[1], &n) || n == 0 || n > 1000000000)
        return fail(r, "usage: step N (1 to 1000000000 slices)");
    if (r->ctl->stepper)
        return fail(r, "another client's step is running");
    r->ctl->steps_left = n;
    r->ctl->paused = false;
    r->ctl->stepper = r->client;
    return NULL; /* answered by control_steps_done */
}

static json_t *hotplug(struct request *r, bool online)
{
    uint64_t cpu;
    if (!parse_u64(r->argv[1], &cpu) || cpu >= r->m->sched.nr_cpus)
        return fail(r, "no cpu '%s'", r->argv[1]);
    char path[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/online", (unsigned)cpu);
    int err = script_write_virtual(r->m, path, online ? "1\n" : "0\n", 2);
    if (err < 0)
        return fail_errno(r, -err, r->argv[0]);
    return json_pack("{s:i,s:b}", "cpu", (int)cpu, "online", online);
}

static json_t *req_offline(struct request *r)
{
    return hotplug(r, false);
}

static json_t *req_online(struct request *r)
{
    return hotplug(r, true);
}

static json_t *req_setaffinity(struct request *r)
{
    struct task *t = task_arg(r, 1);
    if (!t)
        return NULL;
    struct cpumask mask;
    char why[128];
    if (cpulist_parse(r->argv[2], r->m->sched.nr_cpus, &mask, why, sizeof why) < 0)
        return fail(r, "setaffinity: %s", why);
    /* Cut to the task's cpuset as sched_setaffinity (CG3). */
    if (!cgroup_cut_affinity(r->m, t, &mask))
        return fail_errno(r, EINVAL, "setaffinity");
    int err = sched_task_setaffinity(&r->m->sched, NULL, &t->se, &mask);
    if (err < 0)
        return fail_errno(r, -err, "setaffinity");
    return json_pack("{s:i,s:o}", "tid", t->tid, "affinity", cpulist(&t->se.affinity));
}

static int signal_arg(const char *s)
{
    uint64_t n;
    if (parse_u64(s, &n))
        return n >= 1 && n <= NSIG_GUEST ? (int)n : -1;
    for (int sig = 1; sig <= NSIG_GUEST; sig++) {
        const char *name = signal_name(sig);
        if (name && (strcmp(s, name) == 0 || strcmp(s, name + 3) == 0))
            return sig;
    }
    return -1;
}

static json_t *req_signal(struct request *r)
{
    struct task *t = task_arg(r, 1);
    if (!t)
        return NULL;
    int sig = signal_arg(r->argv[2]);
    if (sig < 0)
        return fail(r, "no signal '%s'", r->argv[2]);
    struct siginfo_lite info = {.code = SI_USER, .pid = 0};
    signal_queue_process(t->proc, sig, &info);
    return json_pack("{s:i,s:i}", "pid", t->proc->pid, "signal", sig);
}

static json_t *req_trace(struct request *r)
{
    bool on = strcmp(r->argv[1], "on") == 0;
    if (!on && strcmp(r->argv[1], "off") != 0)
        return fail(r, "usage: trace on|off");
    if (machine_trace_enable(r->m->trace, on) < 0)
        return fail(r, "trace: this run writes no --trace or --timeline");
    return json_pack("{s:b}", "trace", on);
}

/* ---- dispatch ---- */

/* What a request does to the machine, for recording and replay. */
enum effect {
    LOOKS,   /* nothing: not recorded */
    PAUSES,  /* the whole machine's stop, cont, step: recorded; allowed in a replay */
    CHANGES, /* recorded; refused in a replay, which brings its own */
};

static const struct command {
    const char *name;
    int min_args, max_args; /* after the name */
    json_t *(*serve)(struct request *r); /* the response's keys, or NULL and r->why */
    enum effect effect;
} commands[] = {
    {"ps", 0, 0, req_ps, LOOKS},
    {"cpus", 0, 0, req_cpus, LOOKS},
    {"dmesg", 0, 0, req_dmesg, LOOKS},
    {"regs", 1, 1, req_regs, LOOKS},
    {"mem", 3, 3, req_mem, LOOKS},
    {"stop", 0, 1, req_stop, PAUSES},
    {"cont", 0, 1, req_cont, PAUSES},
    {"step", 1, 1, req_step, PAUSES},
    {"offline", 1, 1, req_offline, CHANGES},
    {"online", 1, 1, req_online, CHANGES},
    {"setaffinity", 2, 2, req_setaffinity, CHANGES},
    {"signal", 2, 2, req_signal, CHANGES},
    {"trace", 1, 1, req_trace, CHANGES},
};

/* A client's request that changes the machine: recorded (--record) as its
 * words joined by spaces; during a replay refused, but for stopping,
 * stepping and continuing the whole machine. False when refused. */
static bool record_or_refuse(struct request *r, const struct command *c)
{
    enum effect effect = c->effect == PAUSES && r->argc > 1 && strcmp(c->name, "step") != 0
                             ? CHANGES /* stop PID, cont PID hold a task */
                             : c->effect;
    if (!r->client || effect == LOOKS)
        return true;
    if (recording_replaying(r->m)) {
        if (effect == CHANGES)
            fail(r, "%s: the machine replays a recording; only ps, cpus, dmesg, regs, mem, "
                    "stop, cont and step are served", c->name);
        return effect != CHANGES;
    }
    char line[LINE_MAX_BYTES_REQUEST];
    size_t n = 0;
    for (int i = 0; i < r->argc; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", i ? " " : "", r->argv[i]);
    recording_control(r->m, line);
    return true;
}

/* Every response carries the protocol version, whether the machine is
 * stopped and its virtual time (the scheduler's clock). */
static void reply(struct control *ctl, struct control_client *cl, json_t *body)
{
    json_t *out = json_pack("{s:i}", "version", CONTROL_VERSION);
    json_object_update(out, body);
    json_decref(body);
    if (!json_object_get(out, "machine"))
        json_object_set_new(out, "machine", json_string(ctl->paused ? "stopped" : "running"));
    json_object_set_new(out, "time_ns", json_integer((json_int_t)sched_now(&ctl->m->sched)));
    char *line = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(out);
    control_reply(cl, line ? line : "{\"version\":1,\"error\":\"out of memory\"}");
    free(line);
}

static void reply_error(struct control *ctl, struct control_client *cl, const char *why)
{
    reply(ctl, cl, json_pack("{s:s}", "error", why));
}

void control_request_too_long(struct control *ctl, struct control_client *cl)
{
    reply_error(ctl, cl, "request longer than 4095 bytes");
}

void control_request(struct control *ctl, struct control_client *cl, char *line, size_t len)
{
    struct request r = {.ctl = ctl, .client = cl, .m = ctl->m};
    /* Printable ASCII only: the errors quote the request, and JSON strings
     * must be valid UTF-8 without NUL. */
    for (size_t i = 0; i < len; i++)
        if ((line[i] < 0x20 || line[i] > 0x7e) && line[i] != '\t' && line[i] != '\r')
            return reply_error(ctl, cl, "request is not printable ASCII");
    for (char *save, *tok = strtok_r(line, " \t\r", &save); tok;
         tok = strtok_r(NULL, " \t\r", &save)) {
        if (r.argc == MAX_ARGS)
            return reply_error(ctl, cl, "too many arguments");
        r.argv[r.argc++] = tok;
    }
    if (r.argc == 0)
        return reply_error(ctl, cl, "empty request");
    const struct command *c = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof *commands && !c; i++)
        if (strcmp(r.argv[0], commands[i].name) == 0)
            c = &commands[i];
    if (!c)
        return reply_error(ctl, cl, "unknown command (ps, cpus, dmesg, regs, mem, stop, cont, "
                                    "step, offline, online, setaffinity, signal, trace)");
    if (r.argc - 1 < c->min_args || r.argc - 1 > c->max_args) {
        snprintf(r.why, sizeof r.why, "%s takes %d to %d arguments", c->name, c->min_args,
                 c->max_args);
        return reply_error(ctl, cl, r.why);
    }
    if (!record_or_refuse(&r, c))
        return reply_error(ctl, cl, r.why);
    json_t *body = c->serve(&r);
    if (body)
        reply(ctl, cl, body);
    else if (r.why[0])
        reply_error(ctl, cl, r.why);
}

void control_steps_done(struct control *ctl)
{
    if (ctl->stepper)
        reply(ctl, ctl->stepper, json_object());
    ctl->stepper = NULL;
}

void control_forget_client(struct control *ctl, struct control_client *cl)
{
    if (ctl->stepper == cl)
        ctl->stepper = NULL;
}

void control_machine_ended(struct control *ctl)
{
    if (ctl->stepper)
        reply(ctl, ctl->stepper, json_pack("{s:s,s:I}", "machine", "ended", "steps_left",
                                           (json_int_t)ctl->steps_left));
    ctl->stepper = NULL;
}
