/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace_ring.c - the kernel's binary trace records and ring-buffer pages,
 * shared by the trace.dat writer (trace_dat.c) and the machine's own
 * tracefs (tracefs.c), so both give the same bytes for the same events:
 * each mevent becomes the records trace_lines.c's trace_derive() gives
 * (the ftrace text's), encoded as the 5.15 events of event_formats.c, and
 * records go on 4 KiB pages as kernel/trace/ring_buffer.c lays them
 * out (rb_update_event, rb_add_time_stamp, struct buffer_data_page). */
#include "trace-int.h"

#include <string.h>

/* The ring buffer's event header (kernel/trace/ring_buffer.c). */
#define RB_TYPE_TIME_EXTEND 30u
#define RB_MAX_SMALL_DATA 112u /* 28 words: longer events give their length in array[0] */
#define RB_DELTA_BITS 27

/* A record has at most 4 strings, each cut to STRING_MAX bytes (an exec
 * path near PATH_MAX is cut; so is the cpu list of a mask with thousands
 * of CPUs). */
#define STRING_MAX 1000
_Static_assert(64 + 4 * (STRING_MAX + 1) <= TRACE_RECORD_MAX, "strings fit in a record");

/* cpuhp_enter's step functions and trace_marker's writer: kallsyms gives
 * the addresses in the records their names, so %ps prints them as the
 * kernel does. */
#define ADDR_CPU_ACTIVATE UINT64_C(0xffff8000100a2000)
#define ADDR_CPU_DEACTIVATE UINT64_C(0xffff8000100a2100)
const char trace_kallsyms[] = "ffff8000100a2000 T sched_cpu_activate\n"
                              "ffff8000100a2100 T sched_cpu_deactivate\n"
                              "ffff8000101c0000 T tracing_mark_write\n";

static void rec_init(struct trace_record *r, enum event_index event, int pid)
{
    const struct event_format *e = &event_formats[event];
    memset(r->b, 0, e->size);
    r->event = event;
    r->len = e->size;
    uint16_t type = (uint16_t)event_format_id(e);
    memcpy(r->b, &type, 2);
    memcpy(r->b + 4, &pid, 4);
}

static void rec_u32(struct trace_record *r, unsigned off, uint32_t v)
{
    memcpy(r->b + off, &v, 4);
}

static void rec_u64(struct trace_record *r, unsigned off, uint64_t v)
{
    memcpy(r->b + off, &v, 8);
}

static void rec_comm(struct trace_record *r, unsigned off, const char *comm)
{
    char safe[MEVENT_COMM_LEN];
    trace_text(comm, safe, sizeof safe);
    memcpy(r->b + off, safe, strlen(safe)); /* the rest stays 0 */
}

/* A __data_loc string: (length << 16) | offset, the string after the
 * fixed part (include/trace/trace_events.h's __get_dynamic_array). */
static void rec_str(struct trace_record *r, unsigned off, const char *s)
{
    char safe[STRING_MAX + 1];
    trace_text(s ? s : "", safe, sizeof safe);
    size_t n = strlen(safe) + 1;
    memcpy(r->b + r->len, safe, n);
    rec_u32(r, off, (uint32_t)(n << 16 | r->len));
    r->len += (uint32_t)n;
}

/* sched_switch's prev_state as the ftrace text shows it (trace_ftrace.c):
 * R for idle, S for a sleeping task, Z or X for one that exited (a
 * process leader stays a zombie until reaped), R+ for a preempted one. */
static uint64_t prev_state(const struct mevent_task *prev, enum mevent_run_end end)
{
    if (prev->tid == 0)
        return EVENT_STATE_RUNNING;
    switch (end) {
    case MEVENT_END_BLOCKED:
        return EVENT_STATE_INTERRUPTIBLE;
    case MEVENT_END_DEAD:
        return prev->tid == prev->tgid ? EVENT_STATE_ZOMBIE : EVENT_STATE_DEAD;
    default:
        return EVENT_STATE_PREEMPT;
    }
}

/* The comm a record shows for t: the idle task is swapper/CPU. */
static void task_comm(const struct mevent_task *t, unsigned cpu, char *out, size_t len)
{
    if (t->tid == 0)
        snprintf(out, len, "swapper/%u", cpu);
    else
        trace_text(t->comm, out, len);
}

/* tracing_mark_write(): the bytes written (at most TRACE_BUF_SIZE, 1024),
 * a '\n' added unless the text ends with one, then a NUL; the entry is at
 * least as long as "<faulted>" would need (kernel/trace/trace.c, 5.15). */
void trace_print_record(struct trace_record *r, const struct mevent *ev)
{
    enum { TRACE_BUF_SIZE = 1024, FAULTED_SIZE = 9 };
    const char *msg = ev->print.msg ? ev->print.msg : "";
    size_t cnt = strnlen(msg, TRACE_BUF_SIZE);
    rec_init(r, EVENT_FTRACE_PRINT, ev->task.tid);
    rec_u64(r, 8, ev->print.ip);
    size_t size = cnt + 2 + (cnt < FAULTED_SIZE ? FAULTED_SIZE - cnt : 0);
    memset(r->b + 16, 0, size);
    memcpy(r->b + 16, msg, cnt);
    if (cnt == 0 || msg[cnt - 1] != '\n')
        r->b[16 + cnt] = '\n';
    r->len = (uint32_t)(16 + size);
}

/* The record tr of ev (trace_derive()) in the ring buffer's binary form,
 * common_pid that of tr's task (the trace.dat sets it again once the order
 * is known). */
void trace_encode(const struct mevent *ev, const struct trace_rec *tr, unsigned nr_cpus,
                  struct trace_record *r)
{
    unsigned cpu = ev->cpu < nr_cpus ? ev->cpu : 0;
    const struct mevent_task *t = &ev->task;
    char comm[MEVENT_COMM_LEN + 8], cpus[4096];
    if (tr->event == EVENT_FTRACE_PRINT) {
        trace_print_record(r, ev);
        r->cpu = tr->cpu;
        return;
    }
    rec_init(r, tr->event, tr->task ? tr->task->tid : t->tid);
    r->cpu = tr->cpu;
    switch (tr->event) {
    case EVENT_CPU_IDLE:
        rec_u32(r, 8, (uint32_t)tr->idle_state);
        rec_u32(r, 12, tr->cpu);
        break;
    case EVENT_SCHED_STAT_RUNTIME:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        rec_u64(r, 32, ev->stat.runtime_ns);
        rec_u64(r, 40, ev->stat.vruntime);
        break;
    case EVENT_CPU_FREQUENCY:
        rec_u32(r, 8, ev->frequency.khz);
        rec_u32(r, 12, cpu);
        break;
    case EVENT_SCHED_SWITCH: {
        const struct mevent_task *prev = &ev->sw.prev;
        task_comm(prev, cpu, comm, sizeof comm);
        rec_comm(r, 8, comm);
        rec_u32(r, 24, (uint32_t)prev->tid);
        rec_u32(r, 28, (uint32_t)prev->prio);
        rec_u64(r, 32, prev_state(prev, ev->sw.prev_end));
        task_comm(t, cpu, comm, sizeof comm);
        rec_comm(r, 40, comm);
        rec_u32(r, 56, (uint32_t)t->tid);
        rec_u32(r, 60, (uint32_t)t->prio);
        break;
    }
    case EVENT_SCHED_WAKING:
    case EVENT_SCHED_WAKEUP:
    case EVENT_SCHED_WAKEUP_NEW:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        rec_u32(r, 28, (uint32_t)t->prio);
        rec_u32(r, 32, 1); /* success: always 1 since Linux 4.14 */
        rec_u32(r, 36, cpu);
        break;
    case EVENT_SCHED_MIGRATE_TASK:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        rec_u32(r, 28, (uint32_t)t->prio);
        rec_u32(r, 32, ev->migrate.from);
        rec_u32(r, 36, ev->migrate.to);
        break;
    case EVENT_SCHED_PROCESS_FORK:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        rec_comm(r, 28, ev->fork.child.comm);
        rec_u32(r, 44, (uint32_t)ev->fork.child.tid);
        break;
    case EVENT_SCHED_PROCESS_EXEC:
        rec_str(r, 8, ev->exec.path);
        rec_u32(r, 12, (uint32_t)t->tid);
        rec_u32(r, 16, (uint32_t)ev->exec.old_tid);
        break;
    case EVENT_SCHED_PROCESS_EXIT:
    case EVENT_SCHED_PROCESS_FREE:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        rec_u32(r, 28, (uint32_t)t->prio);
        break;
    case EVENT_CPUHP_ENTER:
    case EVENT_CPUHP_EXIT: {
        /* asymu's hotplug is one step, the scheduler's: cpuhp states
         * OFFLINE (0) and ONLINE (1). */
        rec_u32(r, 8, cpu);
        rec_u32(r, 12, ev->hotplug.online ? 1 : 0);
        rec_u32(r, 16, 1);
        if (tr->event == EVENT_CPUHP_ENTER)
            rec_u64(r, 24, ev->hotplug.online ? ADDR_CPU_ACTIVATE : ADDR_CPU_DEACTIVATE);
        break;
    }
    case EVENT_ASYMU_AFFINITY:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        cpulist_format(ev->affinity.old_mask, cpus, sizeof cpus);
        rec_str(r, 28, cpus);
        cpulist_format(ev->affinity.new_mask, cpus, sizeof cpus);
        rec_str(r, 32, cpus);
        rec_str(r, 36, trace_cause_token(ev->affinity.cause));
        rec_str(r, 40, ev->affinity.rule);
        break;
    case EVENT_TASK_NEWTASK:
        /* include/trace/events/task.h; asymu has no oom_score_adj: 0 */
        rec_u32(r, 8, (uint32_t)ev->newtask.tid);
        rec_comm(r, 12, t->comm);
        rec_u64(r, 32, ev->newtask.clone_flags);
        break;
    case EVENT_TASK_RENAME:
        rec_u32(r, 8, (uint32_t)t->tid);
        rec_comm(r, 12, t->comm);
        rec_comm(r, 28, ev->rename.comm);
        break;
    case EVENT_SIGNAL_GENERATE:
        /* include/trace/events/signal.h; asymu's siginfo carries no errno */
        rec_u32(r, 8, (uint32_t)ev->signal.sig);
        rec_u32(r, 16, (uint32_t)ev->signal.code);
        rec_comm(r, 20, t->comm);
        rec_u32(r, 36, (uint32_t)t->tid);
        rec_u32(r, 40, ev->signal.group);
        rec_u32(r, 44, (uint32_t)ev->signal.result);
        break;
    case EVENT_SIGNAL_DELIVER:
        rec_u32(r, 8, (uint32_t)ev->signal.sig);
        rec_u32(r, 16, (uint32_t)ev->signal.code);
        rec_u64(r, 24, ev->signal.handler);
        rec_u64(r, 32, ev->signal.flags);
        break;
    case EVENT_ASYMU_KILL:
        rec_comm(r, 8, t->comm);
        rec_u32(r, 24, (uint32_t)t->tid);
        rec_u32(r, 28, 9); /* SIGKILL */
        rec_str(r, 32, ev->kill.rule);
        break;
    default:
        return;
    }
}

/* asymu's records are in the vCPU's idle context (common_pid 0 until the
 * trace.dat sets the task its vCPU runs). */
void trace_asymu_encode(const struct trace_asymu *a, struct trace_record *r)
{
    rec_init(r, EVENT_ASYMU_REPORT, 0);
    r->cpu = a->cpu;
    rec_str(r, 8, a->what);
    rec_u32(r, 12, a->cpu);
    rec_u32(r, 16, (uint32_t)a->pid);
    rec_u32(r, 20, (uint32_t)a->tgid);
    rec_comm(r, 24, a->comm);
    rec_u64(r, 40, a->ts_ns);
    rec_u64(r, 48, a->end_ns);
    rec_u64(r, 56, a->seq);
    rec_u32(r, 64, (uint32_t)a->from);
    rec_u32(r, 68, (uint32_t)a->to);
    rec_str(r, 72, a->isa);
    rec_str(r, 76, a->old_cpus);
    rec_str(r, 80, a->cpus);
    rec_str(r, 84, a->rule);
    rec_str(r, 88, a->why);
}

void trace_machine_encode(const struct trace_machine *m, struct trace_record *r)
{
    char aarch32[4096], capacity[4096];
    trace_machine_lists(m, aarch32, capacity);
    rec_init(r, EVENT_ASYMU_MACHINE, 0);
    r->cpu = 0;
    rec_u32(r, 8, m->nr_cpus);
    rec_str(r, 12, aarch32);
    rec_u64(r, 16, m->seed);
    rec_str(r, 24, m->policy ? m->policy : "");
    rec_str(r, 28, capacity);
}

void trace_records(const struct mevent *ev, unsigned nr_cpus, trace_record_fn put, void *ctx)
{
    struct trace_rec recs[TRACE_RECS_MAX];
    size_t n = trace_derive(ev, nr_cpus, recs);
    for (size_t i = 0; i < n; i++) {
        struct trace_record r;
        trace_encode(ev, &recs[i], nr_cpus, &r);
        put(ctx, ev->ts_ns, &r);
    }
}

void trace_page_start(struct trace_page *p, uint64_t ts)
{
    memset(p->data, 0, sizeof p->data);
    memcpy(p->data, &ts, 8);
    p->len = EVENT_PAGE_HEADER;
    p->last_ts = ts;
    p->entries = 0;
}

static void put32(struct trace_page *p, uint32_t v)
{
    memcpy(p->data + p->len, &v, 4);
    p->len += 4;
}

bool trace_page_add(struct trace_page *p, uint64_t ts, const unsigned char *rec, uint32_t len)
{
    uint32_t words = (len + 3) / 4;
    size_t size = 4 + (size_t)words * 4 + (len > RB_MAX_SMALL_DATA ? 4 : 0);
    /* Time never goes back on one CPU's page: an earlier event shows at
     * the time of the one before (delta 0). */
    uint64_t delta = p->entries == 0 || ts <= p->last_ts ? 0 : ts - p->last_ts;
    if (p->entries == 0) {
        memcpy(p->data, &ts, 8); /* the page's time is its first event's */
        p->last_ts = ts;
    }
    bool extend = delta >> RB_DELTA_BITS != 0;
    if (p->len + size + (extend ? 8 : 0) > EVENT_PAGE_SIZE)
        return false;
    if (extend) { /* RINGBUF_TYPE_TIME_EXTEND: the delta's upper bits in array[0] */
        put32(p, (uint32_t)(delta & ((1u << RB_DELTA_BITS) - 1)) << 5 | RB_TYPE_TIME_EXTEND);
        put32(p, (uint32_t)(delta >> RB_DELTA_BITS));
        delta = 0;
    }
    if (len > RB_MAX_SMALL_DATA) { /* type_len 0: the length in array[0] */
        put32(p, (uint32_t)delta << 5);
        put32(p, words * 4 + 4);
    } else {
        put32(p, (uint32_t)delta << 5 | words);
    }
    memcpy(p->data + p->len, rec, len);
    p->len += (size_t)words * 4; /* the padding stays 0 */
    if (ts > p->last_ts)
        p->last_ts = ts;
    p->entries++;
    uint64_t commit = p->len - EVENT_PAGE_HEADER;
    memcpy(p->data + 8, &commit, 8);
    return true;
}
