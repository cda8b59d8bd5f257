/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_report.c - reads a trace (the JSON of trace_json.c here; the
 * ftrace text and the trace.dat in trace_report_ftrace.c and
 * trace_report_dat.c, told apart by their content) into runs,
 * wake-ups, migrations, affinity changes and hotplug, and works out what
 * LISA's first notebooks show. Every number is an integer of virtual
 * nanoseconds and every list has a fixed order, so one trace always gives
 * the same report. The output is in trace_report_out.c. */
#include "trace_report-int.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A trace longer than this (virtual µs: about 11.5 days) is not one asymu
 * wrote; it also keeps every sum below 2^63 ns. */
#define MAX_TS_US 1e12

struct parser {
    const char *name;
    char *err;
    size_t errlen;
    size_t index;    /* of the event being read */
    bool in_machine; /* reading otherData, not an event */
    struct trace_report *r;
    int failed;
};

static int fail(struct parser *p, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = 1;
    int n = p->in_machine
                ? snprintf(p->err, p->errlen, "%s: otherData: ", p->name)
                : snprintf(p->err, p->errlen, "%s: traceEvents[%zu]: ", p->name, p->index);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Grows *arr (of *len elements, *cap allocated) to hold one more. */
static void *grow(void *arr, size_t *cap, size_t len, size_t size)
{
    if (len < *cap)
        return arr;
    size_t n = *cap ? *cap * 2 : 64;
    void *a = realloc(arr, n * size);
    if (a)
        *cap = n;
    return a;
}
#define PUSH(arr, len, cap)                                                                        \
    ((arr) = grow((arr), &(cap), (len), sizeof *(arr)), (arr) ? &(arr)[(len)++] : NULL)

static int get_ns(struct parser *p, json_t *obj, const char *key, uint64_t *ns)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return fail(p, "no number '%s'", key);
    double us = json_number_value(v);
    if (!isfinite(us) || us < 0 || us > MAX_TS_US)
        return fail(p, "'%s' %g is out of range", key, us);
    *ns = (uint64_t)llround(us * 1000.0);
    return 0;
}

static int get_int(struct parser *p, json_t *obj, const char *key, long long lo, long long hi,
                   long long *out)
{
    *out = 0; /* also on an error: GCC -O3 cannot see the callers stop */
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        return fail(p, "no integer '%s'", key);
    long long x = json_integer_value(v);
    if (x < lo || x > hi)
        return fail(p, "'%s' %lld is out of range %lld-%lld", key, x, lo, hi);
    *out = x;
    return 0;
}

static int get_str(struct parser *p, json_t *obj, const char *key, char *out, size_t len)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return fail(p, "no string '%s'", key);
    /* what trace_text() lets through; anything else is shown as '?' */
    const char *s = json_string_value(v);
    size_t i = 0;
    for (; s[i] && i + 1 < len; i++)
        out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    out[i] = '\0';
    return 0;
}

/* The task of an event's args: pid, tid, comm (and isa for runs). */
static int get_task(struct parser *p, json_t *args, struct report_task_id *t)
{
    long long pid, tid;
    if (!json_is_object(args))
        return fail(p, "no object 'args'");
    if (get_int(p, args, "pid", 0, INT32_MAX, &pid) < 0 ||
        get_int(p, args, "tid", 0, INT32_MAX, &tid) < 0 ||
        get_str(p, args, "comm", t->comm, sizeof t->comm) < 0)
        return -1;
    t->pid = (int)pid;
    t->tid = (int)tid;
    return 0;
}

static int get_cpulist(struct parser *p, json_t *obj, const char *key, struct cpumask *m)
{
    char list[4096], why[128];
    if (get_str(p, obj, key, list, sizeof list) < 0)
        return -1;
    if (cpulist_parse(list, p->r->nr_cpus, m, why, sizeof why) < 0)
        return fail(p, "'%s' \"%s\": %s", key, list, why);
    return 0;
}

static int get_cpu(struct parser *p, json_t *ev, unsigned *cpu)
{
    long long c;
    if (get_int(p, ev, "tid", 0, (long long)p->r->nr_cpus - 1, &c) < 0)
        return -1;
    *cpu = (unsigned)c;
    return 0;
}

static int read_run(struct parser *p, json_t *ev)
{
    struct trace_report *r = p->r;
    struct report_run run = {0};
    uint64_t dur;
    char isa[16], end[16] = "";
    json_t *args = json_object_get(ev, "args");
    if (get_cpu(p, ev, &run.cpu) < 0 || get_ns(p, ev, "ts", &run.start) < 0 ||
        get_ns(p, ev, "dur", &dur) < 0 || get_task(p, args, &run.task) < 0 ||
        get_str(p, args, "isa", isa, sizeof isa) < 0)
        return -1;
    if (strcmp(isa, "aarch32") != 0 && strcmp(isa, "aarch64") != 0)
        return fail(p, "isa \"%s\" is neither aarch32 nor aarch64", isa);
    run.compat = isa[5] == '3';
    run.end = run.start + dur;
    /* "end" came with asymu report; an older trace cannot tell waiting */
    if (json_object_get(args, "end") && get_str(p, args, "end", end, sizeof end) < 0)
        return -1;
    if (!end[0])
        run.how = REPORT_END_UNKNOWN, r->old_trace = true;
    else if (strcmp(end, "runnable") == 0)
        run.how = REPORT_END_RUNNABLE;
    else if (strcmp(end, "moved") == 0)
        run.how = REPORT_END_MOVED;
    else if (strcmp(end, "blocked") == 0)
        run.how = REPORT_END_BLOCKED;
    else if (strcmp(end, "dead") == 0)
        run.how = REPORT_END_DEAD;
    else
        return fail(p, "run end \"%s\" is not runnable, moved, blocked or dead", end);
    struct report_run *slot = PUSH(r->runs, r->nr_runs, r->cap_runs);
    if (!slot)
        return fail(p, "out of memory");
    *slot = run;
    return 0;
}

static int read_instant(struct parser *p, json_t *ev, const char *name)
{
    struct trace_report *r = p->r;
    struct report_instant in = {.index = p->index};
    json_t *args = json_object_get(ev, "args");
    if (strcmp(name, "wakeup") == 0)
        in.kind = REPORT_WAKEUP;
    else if (strcmp(name, "migrate") == 0)
        in.kind = REPORT_MIGRATE;
    else if (strcmp(name, "affinity") == 0)
        in.kind = REPORT_AFFINITY;
    else if (strcmp(name, "cpu offline") == 0 || strcmp(name, "cpu online") == 0)
        in.kind = name[4] == 'o' && name[5] == 'f' ? REPORT_OFFLINE : REPORT_ONLINE;
    else
        return 0; /* exec, fork, exit, kill: nothing the report counts */
    if (get_cpu(p, ev, &in.cpu) < 0 || get_ns(p, ev, "ts", &in.ts) < 0)
        return -1;
    if (in.kind != REPORT_OFFLINE && in.kind != REPORT_ONLINE && get_task(p, args, &in.task) < 0)
        return -1;
    if (in.kind == REPORT_MIGRATE) {
        long long from, to;
        if (get_int(p, args, "from", 0, (long long)r->nr_cpus - 1, &from) < 0 ||
            get_int(p, args, "to", 0, (long long)r->nr_cpus - 1, &to) < 0)
            return -1;
        in.from = (unsigned)from;
        in.to = (unsigned)to;
        /* the scheduler's reason, in traces made since it records it */
        if (json_object_get(args, "reason") &&
            get_str(p, args, "reason", in.recorded, sizeof in.recorded) < 0)
            return -1;
    } else if (in.kind == REPORT_AFFINITY) {
        if (get_cpulist(p, args, "old", &in.old_mask) < 0 ||
            get_cpulist(p, args, "new", &in.new_mask) < 0 ||
            get_str(p, args, "rule", in.rule, sizeof in.rule) < 0 ||
            get_str(p, args, "cause", in.cause, sizeof in.cause) < 0)
            return -1;
    }
    struct report_instant *slot = PUSH(r->instants, r->nr_instants, r->cap_instants);
    if (!slot)
        return fail(p, "out of memory");
    *slot = in;
    return 0;
}

/* otherData: the machine. */
static int read_machine(struct parser *p, json_t *other)
{
    struct trace_report *r = p->r;
    long long cpus, seed;
    char why[128], list[4096];
    if (!json_is_object(other) ||
        strcmp(json_string_value(json_object_get(other, "generator")) ?: "", "asymu") != 0)
        return snprintf(p->err, p->errlen,
                        "%s: not a trace of asymu (no otherData.generator \"asymu\")", p->name),
               -1;
    if (get_int(p, other, "cpus", 1, NR_CPUS_MAX, &cpus) < 0 ||
        get_str(p, other, "policy", r->policy, sizeof r->policy) < 0 ||
        get_str(p, other, "aarch32", list, sizeof list) < 0)
        return -1;
    json_t *s = json_object_get(other, "seed");
    seed = json_is_integer(s) ? json_integer_value(s) : 0;
    r->seed = (uint64_t)seed;
    r->nr_cpus = (unsigned)cpus;
    if (cpulist_parse(list, r->nr_cpus, &r->aarch32, why, sizeof why) < 0)
        return fail(p, "'aarch32' \"%s\": %s", list, why);
    r->capacity = calloc(r->nr_cpus, sizeof *r->capacity);
    if (!r->capacity)
        return fail(p, "out of memory");
    /* capacity came with asymu report: without it every vCPU is 1024 */
    json_t *caps = json_object_get(other, "capacity");
    for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++)
        r->capacity[cpu] = 1024;
    if (caps) {
        if (!json_is_array(caps) || json_array_size(caps) != r->nr_cpus)
            return fail(p, "'capacity' is not an array of %u capacities", r->nr_cpus);
        for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
            json_t *c = json_array_get(caps, cpu);
            if (!json_is_integer(c) || json_integer_value(c) < 1 || json_integer_value(c) > 1024)
                return fail(p, "'capacity'[%u] is not a capacity 1-1024", cpu);
            r->capacity[cpu] = (unsigned)json_integer_value(c);
        }
    }
    return 0;
}

static int read_trace(struct parser *p, json_t *doc)
{
    if (!json_is_object(doc))
        return snprintf(p->err, p->errlen, "%s: not a JSON trace object", p->name), -1;
    p->in_machine = true;
    if (read_machine(p, json_object_get(doc, "otherData")) < 0)
        return -1;
    p->in_machine = false;
    json_t *events = json_object_get(doc, "traceEvents");
    if (!json_is_array(events))
        return snprintf(p->err, p->errlen, "%s: no traceEvents array", p->name), -1;
    for (p->index = 0; p->index < json_array_size(events); p->index++) {
        json_t *ev = json_array_get(events, p->index);
        if (!json_is_object(ev))
            return fail(p, "not an object");
        const char *ph = json_string_value(json_object_get(ev, "ph"));
        const char *name = json_string_value(json_object_get(ev, "name"));
        if (!ph)
            return fail(p, "no string 'ph'");
        /* vCPU tracks are process 0; metadata and counters say nothing here */
        if (strcmp(ph, "X") == 0) {
            if (read_run(p, ev) < 0)
                return -1;
        } else if (strcmp(ph, "i") == 0) {
            if (!name)
                return fail(p, "no string 'name'");
            if (read_instant(p, ev, name) < 0)
                return -1;
        }
    }
    return 0;
}

/* trace-cmd's trace.dat starts with these bytes (trace-cmd.dat.v6(5)). */
static const char dat_magic[10] = "\x17\x08\x44tracing";

/* The ftrace text or the trace.dat (trace_report_ftrace.c,
 * trace_report_dat.c). */
static struct trace_report *parse_other(const char *buf, size_t len, const char *name, bool dat,
                                        char *err, size_t errlen)
{
    struct trace_report *r = report_new(name);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    int rc = dat ? report_read_dat(r, buf, len, err, errlen)
                 : report_read_ftrace(r, buf, len, err, errlen);
    if (rc == 0 && report_analyse(r) < 0) {
        snprintf(err, errlen, "%s: out of memory", name);
        rc = -1;
    }
    if (rc < 0) {
        trace_report_free(r);
        return NULL;
    }
    return r;
}

struct trace_report *trace_report_parse(const char *buf, size_t len, const char *name, char *err,
                                        size_t errlen)
{
    /* the format from the content: trace.dat's magic, a JSON object, else
     * the ftrace text (which says what it lacks) */
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t' || buf[i] == '\r'))
        i++;
    if (i == len) {
        snprintf(err, errlen, "%s: empty file, not a trace", name);
        return NULL;
    }
    if (len >= sizeof dat_magic && memcmp(buf, dat_magic, sizeof dat_magic) == 0)
        return parse_other(buf, len, name, true, err, errlen);
    if (buf[i] != '{')
        return parse_other(buf, len, name, false, err, errlen);
    json_error_t jerr;
    json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        snprintf(err, errlen, "%s:%d:%d: %s", name, jerr.line, jerr.column, jerr.text);
        return NULL;
    }
    struct trace_report *r = report_new(name);
    struct parser p = {.name = name, .err = err, .errlen = errlen, .r = r};
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", name);
        json_decref(doc);
        return NULL;
    }
    int rc = read_trace(&p, doc);
    json_decref(doc);
    if (rc == 0)
        rc = report_analyse(r);
    if (rc < 0) {
        if (!p.failed && rc == -ENOMEM)
            snprintf(err, errlen, "%s: out of memory", name);
        trace_report_free(r);
        return NULL;
    }
    return r;
}

void trace_report_free(struct trace_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nr_tasks; i++) {
        free(r->tasks[i].cpu_ns);
        free(r->tasks[i].latencies);
        free(r->tasks[i].reasons);
    }
    free(r->tasks);
    free(r->runs);
    free(r->instants);
    free(r->capacity);
    free(r->cpus);
    free(r->classes);
    free(r);
}

/* Reads all of path, at most REPORT_MAX_BYTES. */
static char *read_all(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            if (cap >= REPORT_MAX_BYTES) {
                snprintf(err, errlen, "%s: larger than %u MiB, more than asymu report reads", path,
                         (unsigned)(REPORT_MAX_BYTES >> 20));
                free(buf);
                fclose(f);
                return NULL;
            }
            char *b = realloc(buf, cap * 2);
            if (!b)
                free(buf);
            buf = b;
            cap *= 2;
        }
    }
    if (!buf)
        snprintf(err, errlen, "%s: out of memory", path);
    else if (ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

int trace_report_main(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--json") == 0) {
            json = 1;
            continue;
        }
        if (strcmp(arg, "--") == 0) { /* a TRACE that starts with '-' */
            if (++i >= argc)
                break;
            arg = argv[i];
        } else if (arg[0] == '-' && arg[1]) {
            fprintf(stderr, "asymu report: unknown option '%s'\n", arg);
            return 2;
        }
        if (path) {
            fprintf(stderr, "asymu report: one TRACE only ('%s')\n", arg);
            return 2;
        }
        path = arg;
    }
    if (!path) {
        fprintf(stderr, "usage: asymu report TRACE [--json] | asymu report merge ...\n");
        return 2;
    }
    char err[512];
    size_t len;
    char *buf = read_all(path, &len, err, sizeof err);
    struct trace_report *r = buf ? trace_report_parse(buf, len, path, err, sizeof err) : NULL;
    free(buf);
    if (!r) {
        fprintf(stderr, "asymu report: %s\n", err);
        return 2;
    }
    if (json)
        trace_report_json(r, stdout);
    else
        trace_report_text(r, stdout);
    trace_report_free(r);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
}
