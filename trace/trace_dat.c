/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_dat.c - a trace.dat as `trace-cmd record` writes it (file format
 * version 6, trace-cmd.dat.v6(5)), for `trace-cmd report` and KernelShark:
 * the ring buffer's header_page and header_event, the event formats of
 * event_formats.c, saved cmdlines, trace_clock, uname and per-CPU stats
 * options, then per vCPU the kernel's ring-buffer pages of binary records
 * (kernel/trace/ring_buffer.c: rb_update_event, rb_add_time_stamp).
 *
 * Debian's libtracecmd exports no writer that works without a live tracefs
 * (its public header has only the reader), so the file is written here and
 * checked with Debian's trace-cmd (tests/e2e/trace_dat_check.py).
 *
 * The records are those of --trace-format ftrace, derived, placed on vCPUs
 * and ordered by the same code (trace_lines.c), with the task the text
 * shows as each record's common_pid. The machine loop runs vCPUs out of
 * time order, so the records are kept and sorted by time at the end (ties
 * in the order they happened), within the writer's budget. */
#include "event_formats.h"
#include "sort.h"
#include "trace-int.h"

#include <stdlib.h>
#include <string.h>

/* What uname(2) says inside the machine (emu/kernel/uts.h). */
#define DAT_UNAME "Linux aarch64 5.15.0-asymu #1 SMP PREEMPT asymu"
/* arm64 5.15's trace_clock choices, local selected (the clock is virtual
 * time in ns, the same on every vCPU). */
#define DAT_CLOCKS "[local] global counter uptime perf mono mono_raw boot\n"
/* trace-cmd's option numbers (trace-cmd.dat.v7(5), TRACECMD_OPTION_*). */
enum { OPT_DONE = 0, OPT_CPUSTAT = 2, OPT_TRACECLOCK = 4, OPT_UNAME = 5 };

/* A name a tid had at a time: saved_cmdlines keeps the last. */
struct dat_name {
    uint64_t ts, seq;
    int tid;
    char comm[MEVENT_COMM_LEN];
};

/* The lines (trace_lines.c), each's data the record's bytes. */
struct dat_trace {
    FILE *out;
    unsigned nr_cpus;
    uint64_t seq;
    struct trace_lines ls;
    struct dat_name *names;
    size_t names_len, names_cap;
    struct trace_keep keep;
    struct trace_asymu_runs runs;
};

static bool grow(void **array, size_t *cap, size_t len, size_t size)
{
    if (len < *cap)
        return true;
    size_t n = *cap ? *cap * 2 : 1024;
    void *p = realloc(*array, n * size);
    if (!p)
        return false;
    *array = p;
    *cap = n;
    return true;
}

static void name(struct dat_trace *d, uint64_t ts, const struct mevent_task *t)
{
    if (t->tid <= 0 || !grow((void **)&d->names, &d->names_cap, d->names_len, sizeof *d->names))
        return;
    struct dat_name *n = &d->names[d->names_len++];
    n->ts = ts;
    n->seq = d->seq;
    n->tid = t->tid;
    trace_text(t->comm, n->comm, sizeof n->comm);
}

static void put(struct dat_trace *d, struct trace_line *l, const struct trace_record *r)
{
    if (!l)
        return;
    if (!trace_keep(&d->keep, sizeof *l + r->len + sizeof *d->names * 2))
        return;
    l->data = malloc(r->len);
    if (!l->data)
        return;
    memcpy(l->data, r->b, r->len);
    l->len = r->len;
    d->ls.len++;
}

/* One record of ev (trace_derive()), encoded by trace_ring.c as tracefs
 * records it; the names it shows go to saved_cmdlines, and common_pid is
 * set once the order is known (dat_finish). */
static void dat_rec(struct dat_trace *d, const struct mevent *ev, const struct trace_rec *tr)
{
    struct trace_record r;
    trace_encode(ev, tr, d->nr_cpus, &r);
    switch (tr->event) {
    case EVENT_SCHED_SWITCH:
        name(d, ev->ts_ns, &ev->sw.prev);
        name(d, ev->ts_ns, &ev->task);
        break;
    case EVENT_SCHED_PROCESS_FORK:
        name(d, ev->ts_ns, &ev->task);
        name(d, ev->ts_ns, &ev->fork.child);
        break;
    case EVENT_SCHED_WAKING:
    case EVENT_SCHED_WAKEUP:
    case EVENT_SCHED_WAKEUP_NEW:
    case EVENT_SCHED_MIGRATE_TASK:
    case EVENT_SCHED_PROCESS_EXEC:
    case EVENT_SCHED_PROCESS_EXIT:
    case EVENT_SCHED_PROCESS_FREE:
    case EVENT_ASYMU_AFFINITY:
    case EVENT_TASK_NEWTASK:
    case EVENT_SIGNAL_GENERATE:
    case EVENT_ASYMU_KILL:
    case EVENT_FTRACE_PRINT:
        name(d, ev->ts_ns, &ev->task);
        break;
    default:
        break;
    }
    put(d, trace_line_new(&d->ls, ev->ts_ns, tr, ev), &r);
}

/* One of asymu's own records (trace_asymu.c) at ts, in the context of
 * what its vCPU runs then. */
static void dat_asymu_rec(struct dat_trace *d, uint64_t ts, const struct trace_record *r)
{
    if (d->keep.dropped) {
        d->keep.dropped++;
        return;
    }
    d->seq++;
    struct trace_rec tr = {.event = r->event, .cpu = r->cpu, .ctx = TRACE_CTX_CURRENT};
    put(d, trace_line_new(&d->ls, ts, &tr, NULL), r);
}

/* A run's asymu_report, at the time it ended. */
static void dat_asymu_run(void *ctx, const struct trace_asymu *a)
{
    struct trace_record r;
    trace_asymu_encode(a, &r);
    dat_asymu_rec(ctx, a->end_ns, &r);
}

static void dat_event(void *state, const struct mevent *ev)
{
    struct dat_trace *d = state;
    if (ev->kind == MEVENT_RUN) {
        trace_asymu_run(&d->runs, ev, dat_asymu_run, d);
        return;
    }
    struct trace_asymu a;
    struct trace_record ar;
    bool asymu = trace_asymu_of(&d->runs, ev, &a);
    if (asymu)
        trace_asymu_encode(&a, &ar);
    struct trace_rec recs[TRACE_RECS_MAX];
    size_t n = trace_derive(ev, d->nr_cpus, recs);
    for (size_t i = 0; i < n; i++) {
        if (d->keep.dropped) { /* past the budget: neither records nor names */
            d->keep.dropped++;
            continue;
        }
        d->seq++;
        dat_rec(d, ev, &recs[i]);
    }
    if (asymu)
        dat_asymu_rec(d, ev->ts_ns, &ar);
}

/* --- writing the file --- */

struct buf {
    unsigned char *p;
    size_t len, cap;
    bool failed;
};

static void bput(struct buf *b, const void *data, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n) /* data may be NULL for nothing */
        memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void bu16(struct buf *b, uint16_t v)
{
    bput(b, &v, 2);
}

static void bu32(struct buf *b, uint32_t v)
{
    bput(b, &v, 4);
}

static void bu64(struct buf *b, uint64_t v)
{
    bput(b, &v, 8);
}

static void bstr(struct buf *b, const char *s)
{
    bput(b, s, strlen(s) + 1);
}

static void bformat(struct buf *b, const struct event_format *e)
{
    char text[4096];
    size_t n = event_format_text(e, text, sizeof text);
    bu64(b, n);
    bput(b, text, n);
}

static void boption(struct buf *b, uint16_t id, const char *text)
{
    bu16(b, id);
    bu32(b, (uint32_t)strlen(text) + 1);
    bstr(b, text);
}

/* One vCPU's ring buffer: full pages of records (trace_ring.c's page
 * encoder, the one tracefs's trace_pipe_raw uses). */
struct ring {
    struct buf data;
    struct trace_page page;
    bool open;
    uint64_t entries, first_ts;
};

static void ring_close_page(struct ring *rb)
{
    if (rb->open)
        bput(&rb->data, rb->page.data, EVENT_PAGE_SIZE);
    rb->open = false;
}

static void ring_add(struct ring *rb, const struct trace_line *rec)
{
    if (!rb->open || !trace_page_add(&rb->page, rec->ts_ns, rec->data, (uint32_t)rec->len)) {
        ring_close_page(rb);
        trace_page_start(&rb->page, rec->ts_ns);
        rb->open = true;
        /* a record fits an empty page */
        trace_page_add(&rb->page, rec->ts_ns, rec->data, (uint32_t)rec->len);
    }
    if (!rb->entries++)
        rb->first_ts = rec->ts_ns;
}

static int names_by_tid_time(const void *a, const void *b)
{
    const struct dat_name *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The file's header, up to and including "flyrecord\0". */
static void header(struct dat_trace *d, struct buf *h, const struct ring *rings, uint64_t now)
{
    bput(h, "\x17\x08\x44tracing", 10);
    bstr(h, "6");
    bput(h, "\0\x08", 2); /* little endian, 8-byte long */
    bu32(h, EVENT_PAGE_SIZE);
    bstr(h, "header_page");
    bu64(h, strlen(event_header_page));
    bput(h, event_header_page, strlen(event_header_page));
    bstr(h, "header_event");
    bu64(h, strlen(event_header_event));
    bput(h, event_header_event, strlen(event_header_event));
    bu32(h, 1); /* ftrace's own events: print */
    bformat(h, &event_formats[EVENT_FTRACE_PRINT]);
    /* The other systems, each with its events, in the table's order. */
    const char *systems[EVENT_COUNT];
    unsigned nsys = 0;
    for (unsigned i = 0; i < EVENT_COUNT; i++) {
        const char *s = event_formats[i].system;
        bool seen = strcmp(s, "ftrace") == 0;
        for (unsigned k = 0; k < nsys && !seen; k++)
            seen = strcmp(systems[k], s) == 0;
        if (!seen)
            systems[nsys++] = s;
    }
    bu32(h, nsys);
    for (unsigned k = 0; k < nsys; k++) {
        bstr(h, systems[k]);
        uint32_t n = 0;
        for (unsigned i = 0; i < EVENT_COUNT; i++)
            n += strcmp(event_formats[i].system, systems[k]) == 0;
        bu32(h, n);
        for (unsigned i = 0; i < EVENT_COUNT; i++)
            if (strcmp(event_formats[i].system, systems[k]) == 0)
                bformat(h, &event_formats[i]);
    }
    bu32(h, (uint32_t)strlen(trace_kallsyms));
    bput(h, trace_kallsyms, strlen(trace_kallsyms));
    bu32(h, 0); /* printk formats: none */
    /* saved_cmdlines: "PID COMM" lines, each tid's comm as the ftrace
     * text shows it: the last its sched_switch records show, else the last
     * any record names. */
    sort_items(d->names, d->names_len, sizeof *d->names, names_by_tid_time);
    size_t nswitch;
    struct trace_cmdline *switched = trace_cmdlines(&d->ls, &nswitch);
    struct buf cmdlines = {0};
    for (size_t i = 0; i < d->names_len; i++) {
        if (i + 1 < d->names_len && d->names[i + 1].tid == d->names[i].tid)
            continue;
        const char *comm = trace_cmdline_find(switched, nswitch, d->names[i].tid);
        char line[64];
        int n =
            snprintf(line, sizeof line, "%d %s\n", d->names[i].tid, comm ? comm : d->names[i].comm);
        bput(&cmdlines, line, (size_t)n);
    }
    bu64(h, cmdlines.len);
    bput(h, cmdlines.p, cmdlines.len);
    h->failed |= cmdlines.failed;
    free(cmdlines.p);
    free(switched);
    bu32(h, d->nr_cpus);
    bput(h, "options  ", 10);
    boption(h, OPT_TRACECLOCK, DAT_CLOCKS);
    boption(h, OPT_UNAME, DAT_UNAME);
    for (unsigned cpu = 0; cpu < d->nr_cpus; cpu++) {
        const struct ring *rb = &rings[cpu];
        char stat[512];
        /* `trace-cmd record`'s "CPU: N" then per_cpu/cpuN/stats as read
         * after the recording: nothing left in the buffer, every event read
         * (kernel/trace/trace.c, tracing_stats_read). The events the
         * writer's budget dropped are counted on CPU 0. */
        snprintf(stat, sizeof stat,
                 "CPU: %u\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
                 "oldest event ts: %llu.%06llu\nnow ts: %llu.%06llu\ndropped events: %llu\n"
                 "read events: %llu\n",
                 cpu, (unsigned long long)(rb->first_ts / 1000000000),
                 (unsigned long long)(rb->first_ts / 1000 % 1000000),
                 (unsigned long long)(now / 1000000000), (unsigned long long)(now / 1000 % 1000000),
                 (unsigned long long)(cpu == 0 ? d->keep.dropped : 0),
                 (unsigned long long)rb->entries);
        boption(h, OPT_CPUSTAT, stat);
    }
    bu16(h, OPT_DONE);
    bput(h, "flyrecord", 10);
}

static void dat_finish(void *state)
{
    struct dat_trace *d = state;
    trace_asymu_runs_end(&d->runs, dat_asymu_run, d);
    trace_lines_order(&d->ls, d->nr_cpus);
    /* common_pid: the task the text shows the record for */
    for (size_t i = 0; i < d->ls.len; i++)
        memcpy((unsigned char *)d->ls.lines[i].data + 4, &d->ls.lines[i].pid, 4);
    struct ring *rings = calloc(d->nr_cpus, sizeof *rings);
    struct buf h = {0};
    uint64_t now = d->ls.len ? d->ls.lines[d->ls.len - 1].ts_ns : 0;
    if (!rings) {
        fputs("asymu: no memory for the trace.dat's ring buffers\n", stderr);
        goto out;
    }
    for (size_t i = 0; i < d->ls.len; i++)
        ring_add(&rings[d->ls.lines[i].cpu], &d->ls.lines[i]);
    bool failed = false;
    for (unsigned cpu = 0; cpu < d->nr_cpus; cpu++) {
        ring_close_page(&rings[cpu]);
        failed |= rings[cpu].data.failed;
    }
    header(d, &h, rings, now);
    if (failed || h.failed) {
        fputs("asymu: no memory to write the trace.dat\n", stderr);
        goto out;
    }
    /* The CPU data starts page-aligned after the offset table. */
    uint64_t offset = h.len + (uint64_t)d->nr_cpus * 16;
    offset = (offset + EVENT_PAGE_SIZE - 1) / EVENT_PAGE_SIZE * EVENT_PAGE_SIZE;
    uint64_t start = offset;
    for (unsigned cpu = 0; cpu < d->nr_cpus; cpu++) {
        bu64(&h, offset);
        bu64(&h, rings[cpu].data.len);
        offset += rings[cpu].data.len;
    }
    static const unsigned char zeros[EVENT_PAGE_SIZE];
    bput(&h, zeros, start - h.len);
    fwrite(h.p, 1, h.len, d->out);
    for (unsigned cpu = 0; cpu < d->nr_cpus; cpu++)
        if (rings[cpu].data.len) /* an empty ring has no buffer */
            fwrite(rings[cpu].data.p, 1, rings[cpu].data.len, d->out);
out:
    if (rings)
        for (unsigned cpu = 0; cpu < d->nr_cpus; cpu++)
            free(rings[cpu].data.p);
    free(rings);
    free(h.p);
    for (size_t i = 0; i < d->ls.len; i++)
        free(d->ls.lines[i].data);
    free(d->ls.lines);
    free(d->names);
    free(d);
}

static void *dat_new(FILE *out, const struct trace_machine *machine)
{
    struct dat_trace *d = calloc(1, sizeof(*d));
    if (!d)
        return NULL;
    d->out = out;
    d->nr_cpus = machine->nr_cpus ? machine->nr_cpus : 1;
    if (trace_asymu_runs_init(&d->runs, d->nr_cpus) < 0) {
        free(d);
        return NULL;
    }
    /* the machine first, at time 0: the JSON's otherData (within the
     * default budget: trace_writer_new() sets the budget after this) */
    d->keep.max = TRACE_KEEP_MAX;
    struct trace_record r;
    trace_machine_encode(machine, &r);
    dat_asymu_rec(d, 0, &r);
    return d;
}

static struct trace_keep *dat_keep(void *state)
{
    return &((struct dat_trace *)state)->keep;
}

const struct trace_format_ops trace_dat_ops = {
    .kinds = TRACE_LINE_KINDS | MEVENT_BIT(MEVENT_RUN),
    .new = dat_new,
    .event = dat_event,
    .finish = dat_finish,
    .keep = dat_keep,
};
