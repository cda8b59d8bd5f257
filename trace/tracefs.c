/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs.c - the machine's /sys/kernel/tracing (tracefs.h): the files
 * of a Linux 5.15 tracefs with the nop tracer, what each prints and how
 * writes to it are parsed (kernel/trace/trace.c, trace_events.c,
 * ring_buffer.c), and per-vCPU ring buffers of binary records in
 * overwrite mode, each record kept with its line of text for trace and
 * trace_pipe. */
#include "tracefs.h"
#include "trace-int.h"
#include "trace_filter.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT_DIR_ 4
#define DT_REG_ 8
/* trace_buf_size: 1441792 bytes per CPU, shown as 1408 KiB once the
 * buffers are expanded, 7 before (tracing_entries_read). */
#define DEFAULT_KB 1408u
#define UNEXPANDED_KB 7u
/* The data of a page (BUF_PAGE_SIZE): pages per CPU are size / this, rounded up. */
#define BUF_PAGE_DATA (EVENT_PAGE_SIZE - EVENT_PAGE_HEADER)
/* What all the buffers together may hold: the guest chooses buffer_size_kb.
 * Each record also keeps its line of text (trace, trace_pipe) and where it
 * is, up to about 4 times its bytes (cpu_idle's 20 bytes, some 80 of text
 * and bookkeeping), so the pages get a quarter of TRACE_KEEP_MAX. */
#define TOTAL_MAX_KB (TRACE_KEEP_MAX >> 12)
#define CMDLINES_DEFAULT 128u /* SAVED_CMDLINES_DEFAULT */
/* How many instances instances/ may hold: Linux has no such bound (each
 * costs kernel memory until it fails), asymu's keeps a guest from making
 * an unbounded number of them. Their buffers also count against
 * TOTAL_MAX_KB with the top level's. */
#define INSTANCES_MAX 32u
#define NAME_MAX_ 255u
#define PID_MAX_DEFAULT 32768u

/* One record of a page: its time as the page holds it (never before the
 * one before it), whose context (common_pid), where its bytes are, and
 * its text ("EVENT: FIELDS", trace_text.c) for trace and trace_pipe. */
struct entry_line {
    uint64_t ts;
    int pid;
    enum event_index event;
    uint16_t start, off, len; /* the entry's first byte, its payload's, the payload's length */
    char *text;
};

/* A ring-buffer page and the records on it, in order. */
struct tpage {
    struct trace_page pg;
    struct entry_line *lines;
    unsigned nlines, cap;
};

/* One vCPU's buffer: a ring of up to cap pages, the oldest first; the
 * last one is being written. consumed: the records of the first page
 * trace_pipe has taken (rb_advance_reader()). */
struct cpu_buffer {
    struct tpage **pages;
    unsigned cap, first, n, consumed;
    uint64_t overrun, read;
    /* What readers of this vCPU's trace_pipe and trace_pipe_raw wait on,
     * and whether to wake them: a record came, a page filled. */
    char pipe_key, raw_key;
    bool wake_pipe, wake_raw;
};

struct cmdline {
    int pid;
    char comm[MEVENT_COMM_LEN];
};

/* An instance's open files (tracefs_pin()): rmdir is EBUSY while one is
 * open (__remove_instance(): tr->ref). Apart from the instance, so a file
 * closed after the machine freed its tracefs still finds it. */
struct tracefs_pin {
    unsigned opens;
    bool orphan; /* its tracefs is gone: the last unpin frees it */
};

/* instances/NAME (trace_array_create()): a trace array of its own. */
struct instance {
    char *name;
    struct tracefs *tf;
    struct tracefs_pin *pin;
};

struct tracefs {
    /* The top level: itself, or the one whose instances/ holds this one,
     * which keeps the saved comms (global in Linux: savedcmd) and whether
     * the buffers were expanded (ring_buffer_expanded). */
    struct tracefs *top;
    struct instance *inst;
    unsigned ninst;
    unsigned nr_cpus;
    bool on, expanded, any_enabled;
    bool wake; /* a record was added since tracefs_wake() (trace_pipe's readers) */
    bool enabled[EVENT_COUNT];
    /* events/SYSTEM/EVENT/filter: the filter applied and what the file
     * shows (the text, or the text with its error when it did not parse,
     * no filter applied then: apply_event_filter()); NULL: none */
    struct trace_filter *filter[EVENT_COUNT];
    char *filter_text[EVENT_COUNT];
    unsigned size_kb;
    unsigned clock;
    struct cpu_buffer *cpus;
    struct cmdline *cmdlines;
    unsigned cmdline_num, cmdline_idx;
    bool options[16];
};

/* trace_clocks[] of arm64 5.15; all are virtual time here. */
static const char *const clocks[] = {"local", "global", "counter",  "uptime",
                                     "perf",  "mono",   "mono_raw", "boot"};

/* options/: the trace_options[] of 5.15 a nop tracer shows, with their
 * defaults (TRACE_ITER_DEFAULT_FLAGS... kernel/trace/trace.h). */
static const struct {
    const char *name;
    bool on;
} options[] = {
    {"annotate", true},
    {"bin", false},
    {"block", false},
    {"context-info", true},
    {"disable_on_free", false},
    {"event-fork", false},
    {"hex", false},
    {"irq-info", true},
    {"latency-format", false},
    {"markers", true},
    {"overwrite", true},
    {"print-parent", true},
    {"raw", false},
    {"record-cmd", true},
    {"record-tgid", false},
    {"sym-offset", false},
};
_Static_assert(sizeof options / sizeof *options <= 16, "options fit");

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* A trace array: the top level (top NULL) or an instance of top. */
static struct tracefs *array_new(unsigned nr_cpus, struct tracefs *top)
{
    struct tracefs *tf = calloc(1, sizeof *tf);
    if (!tf)
        return NULL;
    tf->top = top ? top : tf;
    tf->nr_cpus = nr_cpus ? nr_cpus : 1;
    tf->on = true;
    tf->size_kb = DEFAULT_KB;
    tf->cpus = calloc(tf->nr_cpus, sizeof *tf->cpus);
    if (!top) {
        tf->cmdline_num = CMDLINES_DEFAULT;
        tf->cmdlines = calloc(tf->cmdline_num, sizeof *tf->cmdlines);
    }
    if (!tf->cpus || (!top && !tf->cmdlines)) {
        tracefs_free(tf);
        return NULL;
    }
    for (size_t i = 0; i < COUNT(options); i++)
        tf->options[i] = options[i].on;
    return tf;
}

struct tracefs *tracefs_new(unsigned nr_cpus)
{
    return array_new(nr_cpus, NULL);
}

static void page_free(struct tpage *p)
{
    for (unsigned i = 0; p && i < p->nlines; i++)
        free(p->lines[i].text);
    if (p)
        free(p->lines);
    free(p);
}

/* Empties the buffer (tracing_reset_online_cpus(): ring_buffer_reset_cpu
 * clears its counts too). */
static void buffer_clear(struct cpu_buffer *b)
{
    for (unsigned i = 0; i < b->n; i++)
        page_free(b->pages[(b->first + i) % b->cap]);
    b->first = b->n = b->consumed = 0;
    b->overrun = b->read = 0;
}

/* The i-th page of b, the oldest first. */
static struct tpage *page_at(const struct cpu_buffer *b, unsigned i)
{
    return b->pages[(b->first + i) % b->cap];
}

/* Frees the first pages trace_pipe has taken every record of, but the
 * one being written. */
static void skip_taken(struct cpu_buffer *b)
{
    while (b->n > 1 && b->consumed >= page_at(b, 0)->nlines) {
        page_free(page_at(b, 0));
        b->first = (b->first + 1) % b->cap;
        b->n--;
        b->consumed = 0;
    }
}

/* Drops the oldest page (its unread records counted as lost). */
static void drop_first(struct cpu_buffer *b, uint64_t *lost)
{
    struct tpage *p = page_at(b, 0);
    *lost += p->nlines - b->consumed;
    page_free(p);
    b->first = (b->first + 1) % b->cap;
    b->n--;
    b->consumed = 0;
}

void tracefs_free(struct tracefs *tf)
{
    if (!tf)
        return;
    for (unsigned i = 0; i < tf->ninst; i++) {
        tracefs_free(tf->inst[i].tf);
        free(tf->inst[i].name);
        if (tf->inst[i].pin->opens)
            tf->inst[i].pin->orphan = true;
        else
            free(tf->inst[i].pin);
    }
    free(tf->inst);
    for (size_t i = 0; i < EVENT_COUNT; i++) {
        trace_filter_free(tf->filter[i]);
        free(tf->filter_text[i]);
    }
    for (unsigned c = 0; tf->cpus && c < tf->nr_cpus; c++) {
        buffer_clear(&tf->cpus[c]);
        free(tf->cpus[c].pages);
    }
    free(tf->cpus);
    free(tf->cmdlines);
    free(tf);
}

uint32_t tracefs_kinds(void)
{
    return MEVENT_BIT(MEVENT_SWITCH) | MEVENT_BIT(MEVENT_WAKEUP) | MEVENT_BIT(MEVENT_MIGRATE) |
           MEVENT_BIT(MEVENT_FORK) | MEVENT_BIT(MEVENT_EXEC) | MEVENT_BIT(MEVENT_EXIT) |
           MEVENT_BIT(MEVENT_HOTPLUG) | MEVENT_BIT(MEVENT_AFFINITY) | MEVENT_BIT(MEVENT_KILL) |
           MEVENT_BIT(MEVENT_NEWTASK) | MEVENT_BIT(MEVENT_SIGNAL_GENERATE) |
           MEVENT_BIT(MEVENT_SIGNAL_DELIVER) | MEVENT_BIT(MEVENT_RENAME) | MEVENT_BIT(MEVENT_FREE) |
           MEVENT_BIT(MEVENT_FREQUENCY) | MEVENT_BIT(MEVENT_STAT_RUNTIME);
}

bool tracefs_any_enabled(const struct tracefs *tf)
{
    return tf->any_enabled;
}

/* The trace array a path names and the path below it: an instance's for
 * instances/NAME/..., the top level's else; NULL for an instance there
 * is not. */
static struct tracefs *array_at(const struct tracefs *top, const char **rel)
{
    struct tracefs *tf = (struct tracefs *)top;
    if (tf->top != tf || strncmp(*rel, "instances/", 10) != 0)
        return tf;
    const char *name = *rel + 10;
    size_t n = strcspn(name, "/");
    for (unsigned i = 0; i < tf->ninst; i++) {
        if (strlen(tf->inst[i].name) == n && strncmp(tf->inst[i].name, name, n) == 0) {
            *rel = name[n] ? name + n + 1 : "";
            return tf->inst[i].tf;
        }
    }
    return NULL;
}

bool tracefs_on(const struct tracefs *tf, const char *rel)
{
    const struct tracefs *a = array_at(tf, &rel);
    return a && a->on;
}

/* The vCPU of a per_cpu/cpuN/ file (its name after it in file), or -1. */
static int per_cpu_file(const struct tracefs *tf, const char *rel, char file[16])
{
    unsigned cpu;
    if (sscanf(rel, "per_cpu/cpu%u/%15s", &cpu, file) == 2 && cpu < tf->nr_cpus)
        return (int)cpu;
    return -1;
}

const void *tracefs_wait_key(const struct tracefs *top, const char *rel)
{
    const struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return NULL;
    char file[16];
    int cpu = per_cpu_file(tf, rel, file);
    if (cpu >= 0)
        return strcmp(file, "trace_pipe_raw") == 0 ? (const void *)&tf->cpus[cpu].raw_key
                                                   : (const void *)&tf->cpus[cpu].pipe_key;
    return tf;
}

/* Whether b holds a record trace_pipe has not taken (!ring_buffer_empty_cpu()). */
static bool buffer_has_records(const struct cpu_buffer *b)
{
    unsigned lines = 0;
    for (unsigned i = 0; i < b->n; i++)
        lines += page_at(b, i)->nlines;
    return lines > b->consumed;
}

/* Whether b has a page the writer left with records trace_pipe has not
 * taken: what a blocked trace_pipe_raw read waits for. */
static bool buffer_has_full_page(const struct cpu_buffer *b)
{
    return b->n > 2 || (b->n == 2 && b->consumed < page_at(b, 0)->nlines);
}

bool tracefs_readable(const struct tracefs *top, const char *rel)
{
    const struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return false;
    for (size_t i = 0; i < COUNT(options); i++)
        if (strcmp(options[i].name, "block") == 0 && tf->options[i]) /* TRACE_ITER_BLOCK */
            return true;
    char file[16];
    int cpu = per_cpu_file(tf, rel, file);
    if (cpu >= 0 && strcmp(file, "trace_pipe_raw") == 0)
        return buffer_has_full_page(&tf->cpus[cpu]);
    if (cpu >= 0)
        return buffer_has_records(&tf->cpus[cpu]);
    for (unsigned c = 0; c < tf->nr_cpus; c++)
        if (buffer_has_records(&tf->cpus[c]))
            return true;
    return false;
}

void tracefs_wake(struct tracefs *tf, void (*wake)(void *arg, const void *key), void *arg)
{
    for (unsigned i = 0; i < tf->ninst; i++)
        tracefs_wake(tf->inst[i].tf, wake, arg);
    if (!tf->wake)
        return;
    tf->wake = false;
    wake(arg, tf);
    for (unsigned c = 0; c < tf->nr_cpus; c++) {
        struct cpu_buffer *b = &tf->cpus[c];
        if (b->wake_pipe)
            wake(arg, &b->pipe_key);
        if (b->wake_raw)
            wake(arg, &b->raw_key);
        b->wake_pipe = b->wake_raw = false;
    }
}

/* --- recording --- */

static unsigned pages_for(unsigned kb)
{
    unsigned n = (unsigned)(((uint64_t)kb * 1024 + BUF_PAGE_DATA - 1) / BUF_PAGE_DATA);
    return n < 2 ? 2 : n; /* ring_buffer_alloc's minimum */
}

/* trace_save_cmdline(): a pid keeps its slot; a new one takes the next. */
static void save_cmdline(struct tracefs *tf, int pid, const char *comm)
{
    tf = tf->top;
    if (pid <= 0)
        return;
    unsigned slot = tf->cmdline_num;
    for (unsigned i = 0; i < tf->cmdline_num && slot == tf->cmdline_num; i++)
        if (tf->cmdlines[i].pid == pid)
            slot = i;
    if (slot == tf->cmdline_num) {
        slot = tf->cmdline_idx = (tf->cmdline_idx + 1) % tf->cmdline_num;
        tf->cmdlines[slot].pid = pid;
    }
    trace_text(comm, tf->cmdlines[slot].comm, sizeof tf->cmdlines[slot].comm);
}

/* rb_move_tail() in overwrite mode: a full ring gives its oldest page,
 * whose events are counted as overrun. */
static struct tpage *new_page(struct tracefs *tf, struct cpu_buffer *b)
{
    unsigned cap = pages_for(tf->size_kb);
    if (!b->pages || b->cap != cap) {
        /* resized: keep the newest pages that fit */
        struct tpage **pages = calloc(cap, sizeof *pages);
        if (!pages)
            return NULL;
        while (b->n > cap)
            drop_first(b, &b->overrun);
        for (unsigned i = 0; i < b->n; i++)
            pages[i] = page_at(b, i);
        free(b->pages);
        b->pages = pages;
        b->cap = cap;
        b->first = 0;
    }
    if (b->n == b->cap)
        drop_first(b, &b->overrun);
    struct tpage *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    b->pages[(b->first + b->n) % b->cap] = p;
    b->n++;
    return p;
}

/* Adds record r (its text: text, taken) to page p: false when it has no room. */
static bool page_add(struct tpage *p, uint64_t ts, const struct trace_record *r, char *text)
{
    if (p->nlines == p->cap) {
        unsigned cap = p->cap ? p->cap * 2 : 16;
        struct entry_line *lines = realloc(p->lines, cap * sizeof *lines);
        if (!lines)
            return false;
        p->lines = lines;
        p->cap = cap;
    }
    size_t start = p->pg.len;
    /* the time the page gives it: never before the one before */
    uint64_t at = p->pg.entries && ts < p->pg.last_ts ? p->pg.last_ts : ts;
    if (!trace_page_add(&p->pg, ts, r->b, r->len))
        return false;
    p->lines[p->nlines++] = (struct entry_line){
        .ts = at,
        .pid = 0,
        .event = r->event,
        .start = (uint16_t)start,
        .off = (uint16_t)(p->pg.len - (r->len + 3) / 4 * 4),
        .len = (uint16_t)r->len,
        .text = text,
    };
    int32_t pid;
    memcpy(&pid, r->b + 4, 4); /* common_pid */
    p->lines[p->nlines - 1].pid = pid;
    return true;
}

static void put(struct tracefs *tf, uint64_t ts, const struct trace_record *r, char *text)
{
    struct cpu_buffer *b = &tf->cpus[r->cpu < tf->nr_cpus ? r->cpu : 0];
    struct tpage *p = b->n ? page_at(b, b->n - 1) : NULL;
    tf->wake = b->wake_pipe = true;
    if (p && b->cap == pages_for(tf->size_kb) && page_add(p, ts, r, text))
        return;
    b->wake_raw = p != NULL; /* a page is full */
    if (!(p = new_page(tf, b))) {
        free(text);
        return;
    }
    trace_page_start(&p->pg, ts);
    if (!page_add(p, ts, r, text))
        free(text);
}

void tracefs_mark_raw(struct tracefs *top, const char *rel, unsigned cpu, uint64_t ts_ns,
                      const struct mevent_task *task, const void *data, size_t cnt)
{
    struct tracefs *tf = array_at(top, &rel);
    /* tracing_mark_raw_write(): the entry (common fields and id, 12
     * bytes) and the cnt bytes from the id on, at least as long as a
     * faulted write's id and "<faulted>" (FAULT_SIZE_ID) */
    enum { HEADER = 12, FAULT_SIZE_ID = 9 + 4 };
    if (!tf || !tf->on || cnt < 4 || cnt > 1024)
        return;
    struct trace_record r;
    size_t size = HEADER + cnt + (cnt < FAULT_SIZE_ID ? FAULT_SIZE_ID - cnt : 0);
    size_t ent = (size + 3) / 4 * 4; /* the event's length in the ring buffer */
    memset(r.b, 0, ent);
    r.event = EVENT_FTRACE_RAW_DATA;
    r.cpu = cpu < tf->nr_cpus ? cpu : 0;
    r.len = (uint32_t)size;
    uint16_t type = (uint16_t)event_format_id(&event_formats[EVENT_FTRACE_RAW_DATA]);
    int32_t pid = task->tid;
    memcpy(r.b, &type, 2);
    memcpy(r.b + 4, &pid, 4);
    memcpy(r.b + 8, data, cnt);
    /* trace_raw_data(): the id, then each byte of buf the entry holds */
    uint32_t id;
    memcpy(&id, r.b + 8, 4);
    char *text = malloc(32 + 3 * (ent - HEADER));
    if (!text)
        return;
    int n = sprintf(text, "# %x buf:", id);
    for (size_t i = HEADER; i < ent; i++)
        n += sprintf(text + n, " %02x", r.b[i]);
    put(tf, ts_ns, &r, text);
    save_cmdline(tf, task->tid, task->comm);
}

/* Records ev in trace array tf: the events it enabled, and prints. */
static void record(struct tracefs *tf, const struct mevent *ev)
{
    if (!tf->on)
        return;
    struct trace_rec recs[TRACE_RECS_MAX];
    size_t n = trace_derive(ev, tf->nr_cpus, recs);
    for (size_t i = 0; i < n; i++) {
        if (recs[i].event != EVENT_FTRACE_PRINT && !tf->enabled[recs[i].event])
            continue;
        struct trace_record r;
        trace_encode(ev, &recs[i], tf->nr_cpus, &r);
        /* filter_match_preds() of the event's filter, on its bytes */
        if (tf->filter[recs[i].event] && !trace_filter_match(tf->filter[recs[i].event], r.b, r.len))
            continue;
        put(tf, ev->ts_ns, &r, trace_rec_text(ev, &recs[i], tf->nr_cpus));
    }
}

/* Every trace array that enabled an event records it, from the same
 * stream (each tr's trace_event_file has its own enable, the tracepoint
 * probe writing to each: trace_event_raw_event_*()). A print is the
 * top level's trace_marker's: an instance's comes through tracefs_mark(). */
void tracefs_event(void *ctx, const struct mevent *ev)
{
    struct tracefs *tf = ctx;
    bool on = tf->on;
    record(tf, ev);
    for (unsigned i = 0; ev->kind != MEVENT_PRINT && i < tf->ninst; i++) {
        record(tf->inst[i].tf, ev);
        on |= tf->inst[i].tf->on;
    }
    if (!on)
        return;
    if (ev->kind == MEVENT_SWITCH)
        save_cmdline(tf, ev->sw.prev.tid, ev->sw.prev.comm);
    if (ev->kind != MEVENT_HOTPLUG)
        save_cmdline(tf, ev->task.tid, ev->task.comm);
}

void tracefs_mark(struct tracefs *top, const char *rel, const struct mevent *ev)
{
    struct tracefs *tf = array_at(top, &rel);
    if (tf && tf->on) {
        record(tf, ev);
        save_cmdline(tf, ev->task.tid, ev->task.comm);
    }
}

/* --- the file tree --- */

enum node_kind { N_NONE, N_DIR, N_FILE };

struct where {
    enum node_kind kind;
    unsigned mode;
    const char *file;                 /* the file's name */
    const struct event_format *event; /* events/SYSTEM/EVENT/... */
    const char *system;               /* events/SYSTEM/... */
    int cpu;                          /* per_cpu/cpuN/..., else -1 */
    int option;                       /* options/NAME */
};

/* No such file: every field given, as clang's -Wmissing-field-initializers
 * wants of a compound literal. */
#define NOWHERE ((struct where){N_NONE, 0, NULL, NULL, NULL, -1, -1})

struct entry {
    const char *name;
    unsigned mode; /* 0: a directory */
};

static const struct entry root_files[] = {
    {"available_events", 0444},
    {"available_tracers", 0444},
    {"buffer_size_kb", 0644},
    {"buffer_total_size_kb", 0444},
    {"current_tracer", 0644},
    {"events", 0},
    {"instances", 0},
    {"options", 0},
    {"per_cpu", 0},
    {"saved_cmdlines", 0444},
    {"saved_cmdlines_size", 0644},
    {"set_event", 0644},
    {"trace", 0644},
    {"trace_clock", 0644},
    {"trace_marker", 0220},
    {"trace_marker_raw", 0220},
    {"trace_pipe", 0444},
    {"tracing_cpumask", 0644},
    {"tracing_on", 0644},
};
static const struct entry events_files[] = {
    {"enable", 0644}, {"header_event", 0444}, {"header_page", 0444}};
static const struct entry system_files[] = {{"enable", 0644}, {"filter", 0644}};
static const struct entry event_files[] = {
    {"enable", 0644}, {"filter", 0644}, {"format", 0444}, {"id", 0444}};
/* ftrace's own entries have no enable (TRACE_EVENT_FL_IGNORE_ENABLE). */
static const struct entry ftrace_event_files[] = {{"format", 0444}, {"id", 0444}};
static const struct entry cpu_files[] = {{"buffer_size_kb", 0644},
                                         {"stats", 0444},
                                         {"trace", 0644},
                                         {"trace_pipe", 0444},
                                         {"trace_pipe_raw", 0444}};

/* The files only the top level has (tracer_init_tracefs(),
 * event_trace_init()): not in an instance (init_tracer_tracefs()). */
static bool top_only(const char *name)
{
    return strcmp(name, "available_events") == 0 || strcmp(name, "instances") == 0 ||
           strcmp(name, "saved_cmdlines") == 0 || strcmp(name, "saved_cmdlines_size") == 0;
}

static bool is_ftrace(const struct event_format *e)
{
    return strcmp(e->system, "ftrace") == 0;
}

static bool has_system(const char *system, size_t len)
{
    for (size_t i = 0; i < EVENT_COUNT; i++)
        if (strlen(event_formats[i].system) == len &&
            strncmp(event_formats[i].system, system, len) == 0)
            return true;
    return false;
}

/* The component of *rel up to '/', and *rel after it. */
static size_t component(const char **rel, const char **name)
{
    *name = *rel;
    const char *slash = strchr(*rel, '/');
    size_t n = slash ? (size_t)(slash - *rel) : strlen(*rel);
    *rel += n + (slash ? 1 : 0);
    return n;
}

static bool in_table(const struct entry *t, size_t n, const char *name, struct where *w)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(t[i].name, name) == 0) {
            w->kind = t[i].mode ? N_FILE : N_DIR;
            w->mode = t[i].mode ? t[i].mode : 0755;
            w->file = t[i].name;
            return true;
        }
    }
    return false;
}

static struct where locate(const struct tracefs *tf, const char *rel)
{
    struct where w = {N_NONE, 0, NULL, NULL, NULL, -1, -1};
    const char *name;
    size_t n;
    if (*rel == '\0')
        return (struct where){N_DIR, 0755, "", NULL, NULL, -1, -1};
    n = component(&rel, &name);
    char first[32];
    if (n >= sizeof first)
        return w;
    memcpy(first, name, n);
    first[n] = '\0';
    if (!in_table(root_files, COUNT(root_files), first, &w) || (tf->top != tf && top_only(first)))
        return NOWHERE;
    if (w.kind == N_FILE || *rel == '\0')
        return *rel ? NOWHERE : w;
    w = NOWHERE;
    if (strcmp(first, "events") == 0) {
        n = component(&rel, &name);
        if (!*rel && in_table(events_files, COUNT(events_files), name, &w))
            return w;
        if (!has_system(name, n))
            return NOWHERE;
        for (size_t i = 0; i < EVENT_COUNT; i++)
            if (strlen(event_formats[i].system) == n &&
                strncmp(event_formats[i].system, name, n) == 0)
                w.system = event_formats[i].system;
        if (*rel == '\0')
            return (struct where){N_DIR, 0755, "", NULL, w.system, -1, -1};
        const char *sys = w.system;
        n = component(&rel, &name);
        if (!*rel && in_table(system_files, COUNT(system_files), name, &w)) {
            w.system = sys;
            return w;
        }
        for (size_t i = 0; i < EVENT_COUNT; i++) {
            const struct event_format *e = &event_formats[i];
            if (!event_in_tracefs(e) || strcmp(e->system, sys) != 0 || strlen(e->name) != n ||
                strncmp(e->name, name, n) != 0)
                continue;
            w = (struct where){N_DIR, 0755, "", e, sys, -1, -1};
            if (*rel == '\0')
                return w;
            if (is_ftrace(e) ? in_table(ftrace_event_files, COUNT(ftrace_event_files), rel, &w)
                             : in_table(event_files, COUNT(event_files), rel, &w))
                return w;
            return NOWHERE;
        }
        return NOWHERE;
    }
    if (strcmp(first, "per_cpu") == 0) {
        n = component(&rel, &name);
        char *end;
        if (n < 4 || strncmp(name, "cpu", 3) != 0 || name[3] < '0' || name[3] > '9' ||
            (name[3] == '0' && n > 4))
            return w;
        unsigned long cpu = strtoul(name + 3, &end, 10);
        if (end != name + n || cpu >= tf->nr_cpus)
            return w;
        if (*rel == '\0')
            return (struct where){N_DIR, 0755, "", NULL, NULL, (int)cpu, -1};
        if (in_table(cpu_files, COUNT(cpu_files), rel, &w))
            w.cpu = (int)cpu;
        return w;
    }
    if (strcmp(first, "options") == 0) {
        for (size_t i = 0; i < COUNT(options); i++)
            if (strcmp(options[i].name, rel) == 0)
                return (struct where){N_FILE, 0644, options[i].name, NULL, NULL, -1, (int)i};
    }
    return w; /* instances/NAME: array_at() took it */
}

int tracefs_lookup(const struct tracefs *top, const char *rel, unsigned *mode, bool *dir)
{
    const struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return -ENOENT;
    struct where w = locate(tf, rel);
    if (w.kind == N_NONE)
        return -ENOENT;
    *mode = w.mode;
    *dir = w.kind == N_DIR;
    return 0;
}

static void list_entries(const struct entry *t, size_t n,
                         void (*emit)(const char *, unsigned char, void *), void *arg)
{
    for (size_t i = 0; i < n; i++)
        emit(t[i].name, t[i].mode ? DT_REG_ : DT_DIR_, arg);
}

int tracefs_list(const struct tracefs *top, const char *rel,
                 void (*emit)(const char *name, unsigned char type, void *arg), void *arg)
{
    const struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return -ENOENT;
    struct where w = locate(tf, rel);
    char name[32];
    if (w.kind == N_NONE)
        return -ENOENT;
    if (w.kind != N_DIR)
        return -ENOTDIR;
    if (*rel == '\0') {
        for (size_t i = 0; i < COUNT(root_files); i++)
            if (tf->top == tf || !top_only(root_files[i].name))
                emit(root_files[i].name, root_files[i].mode ? DT_REG_ : DT_DIR_, arg);
    } else if (strcmp(rel, "instances") == 0) {
        for (unsigned i = 0; i < tf->ninst; i++)
            emit(tf->inst[i].name, DT_DIR_, arg);
    } else if (w.event) {
        if (is_ftrace(w.event))
            list_entries(ftrace_event_files, COUNT(ftrace_event_files), emit, arg);
        else
            list_entries(event_files, COUNT(event_files), emit, arg);
    } else if (w.system) {
        list_entries(system_files, COUNT(system_files), emit, arg);
        for (size_t i = 0; i < EVENT_COUNT; i++)
            if (event_in_tracefs(&event_formats[i]) &&
                strcmp(event_formats[i].system, w.system) == 0)
                emit(event_formats[i].name, DT_DIR_, arg);
    } else if (w.cpu >= 0) {
        list_entries(cpu_files, COUNT(cpu_files), emit, arg);
    } else if (strcmp(rel, "events") == 0) {
        list_entries(events_files, COUNT(events_files), emit, arg);
        for (size_t i = 0; i < EVENT_COUNT; i++) {
            bool seen = false;
            for (size_t k = 0; k < i && !seen; k++)
                seen = strcmp(event_formats[k].system, event_formats[i].system) == 0;
            if (!seen)
                emit(event_formats[i].system, DT_DIR_, arg);
        }
    } else if (strcmp(rel, "per_cpu") == 0) {
        for (unsigned c = 0; c < tf->nr_cpus; c++) {
            snprintf(name, sizeof name, "cpu%u", c);
            emit(name, DT_DIR_, arg);
        }
    } else if (strcmp(rel, "options") == 0) {
        for (size_t i = 0; i < COUNT(options); i++)
            emit(options[i].name, DT_REG_, arg);
    }
    return 0;
}

/* --- reading --- */

struct text {
    FILE *f;
};

static bool event_matches(const struct event_format *e, const char *system)
{
    return !is_ftrace(e) && event_in_tracefs(e) && (!system || strcmp(e->system, system) == 0);
}

/* system_enable_read(): 0, 1, or X when some are on and some off. */
static char enable_state(const struct tracefs *tf, const char *system)
{
    bool on = false, off = false;
    for (size_t i = 0; i < EVENT_COUNT; i++) {
        if (!event_matches(&event_formats[i], system))
            continue;
        on |= tf->enabled[i];
        off |= !tf->enabled[i];
    }
    return on && off ? 'X' : on ? '1' : '0';
}

static void stats(const struct tracefs *tf, FILE *f, unsigned cpu, uint64_t now)
{
    const struct cpu_buffer *b = &tf->cpus[cpu];
    uint64_t entries = 0, bytes = 0, oldest = 0;
    for (unsigned i = 0; i < b->n; i++) {
        const struct tpage *p = page_at(b, i);
        unsigned from = i == 0 ? b->consumed : 0;
        if (from >= p->nlines)
            continue;
        entries += p->nlines - from;
        bytes += p->pg.len - p->lines[from].start;
        if (!oldest)
            oldest = p->lines[from].ts;
    }
    /* tracing_stats_read() */
    fprintf(f, "entries: %llu\noverrun: %llu\ncommit overrun: 0\nbytes: %llu\n",
            (unsigned long long)entries, (unsigned long long)b->overrun, (unsigned long long)bytes);
    fprintf(f, "oldest event ts: %5llu.%06llu\nnow ts: %5llu.%06llu\n",
            (unsigned long long)(oldest / 1000000000),
            (unsigned long long)(oldest / 1000 % 1000000), (unsigned long long)(now / 1000000000),
            (unsigned long long)(now / 1000 % 1000000));
    fprintf(f, "dropped events: 0\nread events: %llu\n", (unsigned long long)b->read);
}

/* Takes the oldest page of the vCPU's buffer, the one being written
 * included (ring_buffer_read_page() swaps the reader page, or copies the
 * events of a partly filled one): what one read of trace_pipe_raw gives. */
static void take_page(struct tracefs *tf, FILE *f, unsigned cpu)
{
    struct cpu_buffer *b = &tf->cpus[cpu];
    skip_taken(b);
    if (b->n == 0 || (b->n == 1 && b->consumed == page_at(b, 0)->nlines))
        return;
    struct tpage *p = page_at(b, 0);
    if (b->consumed == 0) {
        fwrite(p->pg.data, 1, EVENT_PAGE_SIZE, f);
    } else {
        /* trace_pipe took some: a page of the rest (ring_buffer_read_page()
         * copies the unread events of a partly read reader page) */
        struct trace_page rest;
        trace_page_start(&rest, p->lines[b->consumed].ts);
        for (unsigned i = b->consumed; i < p->nlines; i++)
            trace_page_add(&rest, p->lines[i].ts, p->pg.data + p->lines[i].off, p->lines[i].len);
        fwrite(rest.data, 1, EVENT_PAGE_SIZE, f);
    }
    drop_first(b, &b->read);
}

int tracefs_splice_page(struct tracefs *top, const char *rel, void *page)
{
    struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return -ENOENT;
    char file[16];
    int cpu = per_cpu_file(tf, rel, file);
    if (cpu < 0 || strcmp(file, "trace_pipe_raw") != 0)
        return -ENOENT;
    struct cpu_buffer *b = &tf->cpus[cpu];
    skip_taken(b);
    if (b->n < 2 || b->consumed) /* the writer's page, or one partly read */
        return 0;
    memcpy(page, page_at(b, 0)->pg.data, EVENT_PAGE_SIZE);
    drop_first(b, &b->read);
    return 1;
}

/* The comm of pid as trace_find_cmdline() gives it: <idle> for 0, the
 * saved one, else <...>. */
static const char *find_cmdline(const struct tracefs *tf, int pid)
{
    tf = tf->top;
    if (pid == 0)
        return "<idle>";
    for (unsigned i = 0; i < tf->cmdline_num; i++)
        if (tf->cmdlines[i].pid == pid)
            return tf->cmdlines[i].comm;
    return "<...>";
}

/* Where each vCPU's reader is: page i, record j. */
struct cursor {
    unsigned page, line;
};

/* The cursors at the oldest unread record of each vCPU. */
static void cursors_start(const struct tracefs *tf, struct cursor *cur)
{
    for (unsigned c = 0; c < tf->nr_cpus; c++)
        cur[c] = (struct cursor){0, tf->cpus[c].consumed};
}

/* The vCPU whose next record is the oldest (the lowest vCPU on a tie), as
 * peek_next_entry()/__find_next_entry() pick it; only cpu if cpu >= 0; -1
 * when none has one. */
static int next_cpu(const struct tracefs *tf, struct cursor *cur, int only)
{
    int best = -1;
    uint64_t best_ts = 0;
    for (unsigned c = 0; c < tf->nr_cpus; c++) {
        const struct cpu_buffer *b = &tf->cpus[c];
        if (only >= 0 && (int)c != only)
            continue;
        while (cur[c].page < b->n && cur[c].line >= page_at(b, cur[c].page)->nlines)
            cur[c] = (struct cursor){cur[c].page + 1, 0};
        if (cur[c].page >= b->n)
            continue;
        uint64_t ts = page_at(b, cur[c].page)->lines[cur[c].line].ts;
        if (best < 0 || ts < best_ts) {
            best = (int)c;
            best_ts = ts;
        }
    }
    return best;
}

/* Record cur of vCPU c as its line of text. */
static void print_line(const struct tracefs *tf, FILE *f, unsigned c, const struct cursor *cur)
{
    const struct entry_line *l = &page_at(&tf->cpus[c], cur->page)->lines[cur->line];
    trace_text_line(f, find_cmdline(tf, l->pid), l->pid, c, l->event, l->ts,
                    l->text ? l->text : "");
}

/* The unread records (entries-in-buffer) and those plus the overrun ones
 * (entries-written), over every vCPU: get_total_entries(). */
static void totals(const struct tracefs *tf, size_t *kept, unsigned long long *written)
{
    *kept = 0;
    *written = 0;
    for (unsigned c = 0; c < tf->nr_cpus; c++) {
        const struct cpu_buffer *b = &tf->cpus[c];
        for (unsigned i = 0; i < b->n; i++)
            *kept += page_at(b, i)->nlines - (i == 0 ? b->consumed : 0);
        *written += b->overrun;
    }
    *written += *kept;
}

/* The trace file (tracing_open(), s_show()): print_trace_header() of the
 * nop tracer, then every unread record in time order, the vCPUs' buffers
 * merged (only cpu's for per_cpu/cpuN/trace: cpu >= 0); nothing is taken. */
static void trace_file(const struct tracefs *tf, FILE *f, int cpu)
{
    size_t kept;
    unsigned long long written;
    totals(tf, &kept, &written);
    trace_text_header(f, kept, written, tf->nr_cpus);
    struct cursor cur[NR_CPUS_MAX];
    cursors_start(tf, cur);
    for (int c; (c = next_cpu(tf, cur, cpu)) >= 0; cur[c].line++)
        print_line(tf, f, (unsigned)c, &cur[c]);
}

/* What one read of trace_pipe takes (tracing_read_pipe()): records in time
 * order, each taken out of its buffer once printed, until the text reaches
 * a page less one byte (the most one read asks, cnt's cap), a line that
 * would pass the page staying for the next read. No header. */
static void trace_pipe(struct tracefs *tf, FILE *f, int cpu)
{
    enum { PAGE = 4096 };
    size_t used = 0;
    struct cursor cur[NR_CPUS_MAX];
    for (int c; used < PAGE - 1 && (c = (cursors_start(tf, cur), next_cpu(tf, cur, cpu))) >= 0;) {
        char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (!m)
            return;
        print_line(tf, m, (unsigned)c, &cur[c]);
        if (fclose(m) != 0 || (used && used + len > PAGE)) {
            free(line);
            return;
        }
        fwrite(line, 1, len, f);
        free(line);
        used += len;
        /* trace_consume(): the record is gone (cur[c] is the first
         * unread one, on the first page once taken ones are skipped) */
        struct cpu_buffer *b = &tf->cpus[c];
        skip_taken(b);
        b->read++;
        b->consumed++;
        skip_taken(b);
    }
}

/* The size a buffer has before ring_buffer_expanded: the top level's the
 * boot-time minimum, an instance's the full one (trace_array_create()
 * allocates trace_buf_size). */
static unsigned shown_kb(const struct tracefs *tf)
{
    return tf->top == tf ? UNEXPANDED_KB : tf->size_kb;
}

static void root_file(struct tracefs *tf, const char *name, FILE *f)
{
    if (strcmp(name, "available_events") == 0) {
        for (size_t i = 0; i < EVENT_COUNT; i++)
            if (!is_ftrace(&event_formats[i]) && event_in_tracefs(&event_formats[i]))
                fprintf(f, "%s:%s\n", event_formats[i].system, event_formats[i].name);
    } else if (strcmp(name, "available_tracers") == 0 || strcmp(name, "current_tracer") == 0) {
        fputs("nop\n", f);
    } else if (strcmp(name, "buffer_size_kb") == 0) {
        if (tf->top->expanded)
            fprintf(f, "%u\n", tf->size_kb);
        else
            fprintf(f, "%u (expanded: %u)\n", shown_kb(tf), tf->size_kb);
    } else if (strcmp(name, "buffer_total_size_kb") == 0) {
        if (tf->top->expanded)
            fprintf(f, "%u\n", tf->size_kb * tf->nr_cpus);
        else
            fprintf(f, "%u (expanded: %u)\n", shown_kb(tf) * tf->nr_cpus,
                    tf->size_kb * tf->nr_cpus);
    } else if (strcmp(name, "saved_cmdlines") == 0) {
        for (unsigned i = 0; i < tf->cmdline_num; i++)
            if (tf->cmdlines[i].pid)
                fprintf(f, "%d %s\n", tf->cmdlines[i].pid, tf->cmdlines[i].comm);
    } else if (strcmp(name, "saved_cmdlines_size") == 0) {
        fprintf(f, "%u\n", tf->cmdline_num);
    } else if (strcmp(name, "set_event") == 0) {
        for (size_t i = 0; i < EVENT_COUNT; i++)
            if (tf->enabled[i])
                fprintf(f, "%s:%s\n", event_formats[i].system, event_formats[i].name);
    } else if (strcmp(name, "trace") == 0) {
        trace_file(tf, f, -1);
    } else if (strcmp(name, "trace_pipe") == 0) {
        trace_pipe(tf, f, -1);
    } else if (strcmp(name, "trace_clock") == 0) {
        for (unsigned i = 0; i < COUNT(clocks); i++)
            fprintf(f, i == tf->clock ? "[%s] " : "%s ", clocks[i]);
        fputs("\n", f);
    } else if (strcmp(name, "tracing_cpumask") == 0) {
        /* a bitmap of nr_cpu_ids bits, as %*pb prints it */
        char hex[NR_CPUS_MAX / 4 + 2];
        unsigned digits = (tf->nr_cpus + 3) / 4, len = 0;
        for (unsigned d = digits; d-- > 0;) {
            unsigned bits = tf->nr_cpus - d * 4 >= 4 ? 0xf : (1u << (tf->nr_cpus - d * 4)) - 1;
            hex[len++] = "0123456789abcdef"[bits];
            if (d && d % 8 == 0)
                hex[len++] = ',';
        }
        hex[len] = '\0';
        fprintf(f, "%s\n", hex);
    } else if (strcmp(name, "tracing_on") == 0) {
        fprintf(f, "%d\n", tf->on);
    }
}

int tracefs_read(struct tracefs *top, const char *rel, uint64_t now_ns, char **data, size_t *size)
{
    struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return -ENOENT;
    struct where w = locate(tf, rel);
    if (w.kind == N_NONE)
        return -ENOENT;
    if (w.kind == N_DIR)
        return -EISDIR;
    *data = NULL;
    *size = 0;
    FILE *f = open_memstream(data, size);
    if (!f)
        return -ENOMEM;
    if (w.option >= 0) {
        fprintf(f, "%d\n", tf->options[w.option]);
    } else if (w.cpu >= 0) {
        if (strcmp(w.file, "stats") == 0)
            stats(tf, f, (unsigned)w.cpu, now_ns);
        else if (strcmp(w.file, "trace_pipe_raw") == 0)
            take_page(tf, f, (unsigned)w.cpu);
        else if (strcmp(w.file, "buffer_size_kb") == 0)
            fprintf(f, tf->top->expanded ? "%u\n" : "%u (expanded: %u)\n",
                    tf->top->expanded ? tf->size_kb : shown_kb(tf), tf->size_kb);
        else if (strcmp(w.file, "trace") == 0)
            trace_file(tf, f, w.cpu);
        else if (strcmp(w.file, "trace_pipe") == 0)
            trace_pipe(tf, f, w.cpu);
    } else if (w.event) {
        if (strcmp(w.file, "enable") == 0) {
            fprintf(f, "%d\n", tf->enabled[w.event - event_formats]);
        } else if (strcmp(w.file, "id") == 0) {
            fprintf(f, "%u\n", event_format_id(w.event));
        } else if (strcmp(w.file, "filter") == 0) { /* print_event_filter() */
            const char *text = tf->filter_text[w.event - event_formats];
            fprintf(f, "%s\n", text ? text : "none");
        } else if (strcmp(w.file, "format") == 0) {
            char text[4096];
            size_t n = event_format_text(w.event, text, sizeof text);
            fwrite(text, 1, n < sizeof text ? n : sizeof text - 1, f);
        }
    } else if (w.system) {
        if (strcmp(w.file, "enable") == 0)
            fprintf(f, "%c\n", enable_state(tf, w.system));
        else
            fputs("none\n", f);
    } else if (strncmp(rel, "events/", 7) == 0) {
        if (strcmp(w.file, "enable") == 0)
            fprintf(f, "%c\n", enable_state(tf, NULL));
        else if (strcmp(w.file, "header_page") == 0)
            fputs(event_header_page, f);
        else
            fputs(event_header_event, f);
    } else {
        root_file(tf, w.file, f);
    }
    if (fclose(f) != 0) {
        free(*data);
        *data = NULL;
        return -ENOMEM;
    }
    return 0;
}

bool tracefs_paged(const char *rel)
{
    size_t n = strlen(rel);
    return n >= 15 && strcmp(rel + n - 15, "/trace_pipe_raw") == 0;
}

/* --- writing --- */

/* kstrtoul_from_user(): digits, one optional trailing newline. */
static int parse_ulong(const char *data, size_t len, unsigned long *out)
{
    char buf[32];
    if (len >= sizeof buf)
        return -EINVAL;
    memcpy(buf, data, len);
    buf[len] = '\0';
    if (len && buf[len - 1] == '\n')
        buf[--len] = '\0';
    if (!len || buf[0] < '0' || buf[0] > '9')
        return -EINVAL;
    char *end;
    errno = 0;
    *out = strtoul(buf, &end, 10);
    return *end || errno ? -EINVAL : 0;
}

static void set_enabled(struct tracefs *tf, size_t i, bool on)
{
    tf->enabled[i] = on;
    if (on) /* tracing_update_buffers(): ring_buffer_expanded is global */
        tf->top->any_enabled = tf->top->expanded = true;
}

/* The KiB of the buffers of every trace array but skip: what TOTAL_MAX_KB
 * bounds. */
static uint64_t budget_used(const struct tracefs *top, const struct tracefs *skip)
{
    uint64_t kb = top == skip ? 0 : (uint64_t)top->size_kb * top->nr_cpus;
    for (unsigned i = 0; i < top->ninst; i++)
        if (top->inst[i].tf != skip)
            kb += (uint64_t)top->inst[i].tf->size_kb * top->nr_cpus;
    return kb;
}

/* event_enable_write(), system_enable_write(): 0 or 1. */
static int64_t write_enable(struct tracefs *tf, const struct event_format *event,
                            const char *system, const char *data, size_t len)
{
    unsigned long v;
    if (parse_ulong(data, len, &v) < 0 || v > 1)
        return -EINVAL;
    for (size_t i = 0; i < EVENT_COUNT; i++)
        if (event ? &event_formats[i] == event : event_matches(&event_formats[i], system))
            set_enabled(tf, i, v == 1);
    return (int64_t)len;
}

/* event_filter_write(), apply_event_filter(): less than a page; "0"
 * clears the filter; a filter that does not parse is EINVAL, the file
 * showing the error, and none is applied then. */
static int64_t write_filter(struct tracefs *tf, size_t ev, const char *data, size_t len)
{
    if (len >= EVENT_PAGE_SIZE)
        return -EINVAL;
    char *text = strndup(data, len);
    if (!text)
        return -ENOMEM;
    size_t n = strlen(text); /* strstrip(): the trailing white space goes */
    while (n && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    const char *lead = text + strspn(text, " \t\n\r\f\v");
    trace_filter_free(tf->filter[ev]);
    tf->filter[ev] = NULL;
    free(tf->filter_text[ev]);
    tf->filter_text[ev] = NULL;
    if (strcmp(lead, "0") == 0) {
        free(text);
        return (int64_t)len;
    }
    char *errtext;
    int err = trace_filter_parse(&event_formats[ev], text, &tf->filter[ev], &errtext);
    if (err < 0) {
        free(text);
        tf->filter_text[ev] = errtext;
        return err;
    }
    tf->filter_text[ev] = text;
    return (int64_t)len;
}

/* ftrace_set_clr_event(): "[!]system:event", "system:*", "*:event",
 * "system:", "event" or "system" alone; -EINVAL when nothing matches. */
static int set_clr_event(struct tracefs *tf, char *tok)
{
    bool set = true;
    if (*tok == '!') {
        set = false;
        tok++;
    }
    const char *match = tok, *sub = NULL, *event = NULL;
    char *colon = strchr(tok, ':');
    if (colon) {
        *colon = '\0';
        sub = tok;
        event = colon + 1;
        match = NULL;
        if (!*sub || strcmp(sub, "*") == 0)
            sub = NULL;
        if (!*event || strcmp(event, "*") == 0)
            event = NULL;
    } else if (!*match || strcmp(match, "*") == 0) {
        match = NULL;
    }
    int ret = -EINVAL;
    for (size_t i = 0; i < EVENT_COUNT; i++) {
        const struct event_format *e = &event_formats[i];
        if (is_ftrace(e) || !event_in_tracefs(e) || (match && strcmp(match, e->name) && strcmp(match, e->system)) ||
            (sub && strcmp(sub, e->system)) || (event && strcmp(event, e->name)))
            continue;
        set_enabled(tf, i, set);
        ret = 0;
    }
    return ret;
}

/* ftrace_event_write(): tokens separated by white space (trace_get_user). */
static int64_t write_set_event(struct tracefs *tf, const char *data, size_t len)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n'))
            i++;
        size_t start = i;
        while (i < len && data[i] != ' ' && data[i] != '\t' && data[i] != '\n')
            i++;
        if (i == start)
            break;
        char tok[128];
        if (i - start >= sizeof tok)
            return -EINVAL;
        memcpy(tok, data + start, i - start);
        tok[i - start] = '\0';
        int err = set_clr_event(tf, tok);
        if (err < 0)
            return err;
    }
    return (int64_t)len;
}

/* A word written to a file (current_tracer, trace_clock): white space cut. */
static void word(const char *data, size_t len, char *out, size_t outlen)
{
    while (len && (data[len - 1] == '\n' || data[len - 1] == ' ' || data[len - 1] == '\t'))
        len--;
    while (len && (*data == ' ' || *data == '\t')) {
        data++;
        len--;
    }
    if (len >= outlen)
        len = outlen - 1;
    memcpy(out, data, len);
    out[len] = '\0';
}

static int64_t write_root(struct tracefs *tf, const char *name, const char *data, size_t len)
{
    unsigned long v;
    char w[64];
    if (strcmp(name, "tracing_on") == 0) { /* rb_simple_write() */
        if (parse_ulong(data, len, &v) < 0)
            return -EINVAL;
        tf->on = v != 0;
        return (int64_t)len;
    }
    if (strcmp(name, "buffer_size_kb") == 0) { /* tracing_entries_write() */
        if (parse_ulong(data, len, &v) < 0 || v == 0)
            return -EINVAL;
        if (v > TOTAL_MAX_KB || budget_used(tf->top, tf) + (uint64_t)v * tf->nr_cpus > TOTAL_MAX_KB)
            return -ENOMEM;
        tf->size_kb = (unsigned)v;
        tf->top->expanded = true;
        return (int64_t)len;
    }
    if (strcmp(name, "saved_cmdlines_size") == 0) { /* tracing_saved_cmdlines_size_write() */
        if (parse_ulong(data, len, &v) < 0 || v == 0 || v > PID_MAX_DEFAULT)
            return -EINVAL;
        struct cmdline *c = calloc(v, sizeof *c);
        if (!c)
            return -ENOMEM;
        free(tf->cmdlines);
        tf->cmdlines = c;
        tf->cmdline_num = (unsigned)v;
        tf->cmdline_idx = 0;
        return (int64_t)len;
    }
    if (strcmp(name, "set_event") == 0)
        return write_set_event(tf, data, len);
    if (strcmp(name, "current_tracer") == 0) { /* tracing_set_trace_write() */
        word(data, len, w, sizeof w);
        return strcmp(w, "nop") == 0 ? (int64_t)len : -EINVAL;
    }
    if (strcmp(name, "trace_clock") == 0) { /* tracing_set_clock() */
        word(data, len, w, sizeof w);
        for (unsigned i = 0; i < COUNT(clocks); i++) {
            if (strcmp(w, clocks[i]) == 0) {
                tf->clock = i;
                return (int64_t)len;
            }
        }
        return -EINVAL;
    }
    if (strcmp(name, "trace") == 0 || strcmp(name, "tracing_cpumask") == 0)
        return (int64_t)len; /* the buffers are emptied at open (tracefs_truncate) */
    if (strcmp(name, "trace_marker_raw") == 0) /* tracing_mark_raw_write() */
        return len < sizeof(unsigned) ? -EINVAL : len > 3072 ? -EINVAL : (int64_t)len;
    return -EINVAL;
}

int64_t tracefs_write(struct tracefs *top, const char *rel, const char *data, size_t len)
{
    struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return -ENOENT;
    struct where w = locate(tf, rel);
    unsigned long v;
    if (w.kind == N_NONE)
        return -ENOENT;
    if (w.kind == N_DIR)
        return -EISDIR;
    if (!(w.mode & 0222))
        return -EACCES;
    if (w.option >= 0) { /* trace_options_core_write() */
        if (parse_ulong(data, len, &v) < 0 || v > 1)
            return -EINVAL;
        tf->options[w.option] = v == 1;
        return (int64_t)len;
    }
    if (w.cpu >= 0)
        return strcmp(w.file, "buffer_size_kb") == 0 ? write_root(tf, w.file, data, len)
                                                     : (int64_t)len;
    if (w.event || w.system) {
        if (strcmp(w.file, "enable") == 0)
            return write_enable(tf, w.event, w.system, data, len);
        if (w.event)
            return write_filter(tf, (size_t)(w.event - event_formats), data, len);
        return (int64_t)len; /* a system's filter: accepted, not applied */
    }
    if (strncmp(rel, "events/", 7) == 0)
        return write_enable(tf, NULL, NULL, data, len);
    return write_root(tf, w.file, data, len);
}

void tracefs_truncate(struct tracefs *top, const char *rel)
{
    struct tracefs *tf = array_at(top, &rel);
    if (!tf)
        return;
    struct where w = locate(tf, rel);
    if (w.kind != N_FILE)
        return;
    if (w.cpu >= 0 && strcmp(w.file, "trace") == 0) {
        buffer_clear(&tf->cpus[w.cpu]);
    } else if (w.cpu < 0 && !w.event && !w.system && strcmp(w.file, "trace") == 0) {
        for (unsigned c = 0; c < tf->nr_cpus; c++)
            buffer_clear(&tf->cpus[c]);
    } else if (strcmp(rel, "set_event") == 0) {
        for (size_t i = 0; i < EVENT_COUNT; i++)
            tf->enabled[i] = false;
    }
}

/* --- instances/ --- */

/* instance_mkdir(), trace_array_create(): a new trace array with its own
 * buffers of the default size, events off, tracing on. */
int tracefs_mkdir(struct tracefs *tf, const char *rel)
{
    unsigned mode;
    bool dir;
    if (tracefs_lookup(tf, rel, &mode, &dir) == 0)
        return -EEXIST;
    const char *slash = strrchr(rel, '/');
    char parent[NAME_MAX_ + 16];
    size_t plen = slash ? (size_t)(slash - rel) : 0;
    if (plen >= sizeof parent)
        return -ENOENT; /* no directory of tracefs has so long a path */
    memcpy(parent, rel, plen);
    parent[plen] = '\0';
    if (tracefs_lookup(tf, parent, &mode, &dir) < 0)
        return -ENOENT;
    if (!dir)
        return -ENOTDIR;
    if (strcmp(parent, "instances") != 0)
        return -EPERM; /* only instances/ has a mkdir (tracefs_dir_inode_operations) */
    const char *name = slash + 1;
    if (!*name || strlen(name) > NAME_MAX_)
        return !*name ? -ENOENT : -ENAMETOOLONG;
    if (tf->ninst >= INSTANCES_MAX ||
        budget_used(tf, NULL) + (uint64_t)DEFAULT_KB * tf->nr_cpus > TOTAL_MAX_KB)
        return -ENOMEM; /* allocate_trace_buffers() failing */
    struct instance *inst = realloc(tf->inst, (tf->ninst + 1) * sizeof *inst);
    if (!inst)
        return -ENOMEM;
    tf->inst = inst;
    struct instance *in = &tf->inst[tf->ninst];
    in->name = strdup(name);
    in->tf = array_new(tf->nr_cpus, tf);
    in->pin = calloc(1, sizeof *in->pin);
    if (!in->name || !in->tf || !in->pin) {
        free(in->name);
        tracefs_free(in->tf);
        free(in->pin);
        return -ENOMEM;
    }
    tf->ninst++;
    return 0;
}

/* instance_rmdir(), __remove_instance(): EBUSY while a file of it is
 * open; EPERM for another directory (tracefs has no rmdir there). */
int tracefs_rmdir(struct tracefs *tf, const char *rel)
{
    unsigned mode;
    bool dir;
    if (tracefs_lookup(tf, rel, &mode, &dir) < 0)
        return -ENOENT;
    if (!dir)
        return -ENOTDIR;
    const char *name = strncmp(rel, "instances/", 10) == 0 ? rel + 10 : NULL;
    for (unsigned i = 0; name && tf->top == tf && i < tf->ninst; i++) {
        if (strcmp(tf->inst[i].name, name) != 0)
            continue;
        if (tf->inst[i].pin->opens)
            return -EBUSY;
        tracefs_free(tf->inst[i].tf);
        free(tf->inst[i].name);
        free(tf->inst[i].pin);
        memmove(&tf->inst[i], &tf->inst[i + 1], (tf->ninst - i - 1) * sizeof *tf->inst);
        tf->ninst--;
        return 0;
    }
    return -EPERM;
}

struct tracefs_pin *tracefs_pin(struct tracefs *tf, const char *rel)
{
    const char *name = strncmp(rel, "instances/", 10) == 0 ? rel + 10 : NULL;
    size_t n = name ? strcspn(name, "/") : 0;
    for (unsigned i = 0; name && name[n] && tf->top == tf && i < tf->ninst; i++) {
        if (strlen(tf->inst[i].name) == n && strncmp(tf->inst[i].name, name, n) == 0) {
            tf->inst[i].pin->opens++;
            return tf->inst[i].pin;
        }
    }
    return NULL;
}

void tracefs_unpin(struct tracefs_pin *pin)
{
    if (pin && --pin->opens == 0 && pin->orphan)
        free(pin);
}
