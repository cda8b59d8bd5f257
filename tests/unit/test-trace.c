/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-trace.c - trace writers that keep events until the end (ftrace
 * sorts its lines, SVG draws the whole time range) keep at most their
 * budget (TRACE_KEEP_MAX by default) and drop what comes after, counted:
 * the guest decides how many events a run has (issue 24 item 4). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define EVENTS 10000

static struct mevent switch_event(unsigned i)
{
    struct mevent ev = {.kind = MEVENT_SWITCH, .ts_ns = 1000u * i, .cpu = i % 2};
    ev.task = (struct mevent_task){.tid = 2 + (int)(i % 7), .tgid = 2, .prio = 120};
    strcpy(ev.task.comm, "worker");
    ev.sw.prev = (struct mevent_task){.tid = 1, .tgid = 1, .prio = 120};
    strcpy(ev.sw.prev.comm, "init");
    return ev;
}

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* Writes EVENTS switches as ftrace with a budget of keep bytes: the lines
 * written (without "cpus=") and how many the writer dropped. */
static size_t ftrace_run(uint64_t keep, uint64_t *dropped)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    struct trace_machine m = {.nr_cpus = 2, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_FTRACE, out, &m);
    assert_non_null(w);
    if (keep)
        trace_writer_keep_max(w, keep);
    for (unsigned i = 0; i < EVENTS; i++) {
        struct mevent ev = switch_event(i);
        trace_writer_event(w, &ev);
    }
    *dropped = trace_writer_dropped(w);
    assert_int_equal(trace_writer_finish(w), 0);
    /* the header: 12 lines, the entries kept and written (dropped ones too),
     * then asymu_machine (not counted here) */
    size_t lines = count_lines(text) - 13;
    assert_int_equal(strncmp(text, "# tracer: nop\n#\n", 16), 0);
    char want[128];
    snprintf(want, sizeof want, "# entries-in-buffer/entries-written: %zu/%u   #P:2\n", lines + 1,
             EVENTS + 1);
    assert_non_null(strstr(text, "|\n          <idle>-0       [000] .....     0.000000: "
                                 "asymu_machine: cpus=2 aarch32= policy=upstream seed=0 "
                                 "capacity=1024,1024\n"));
    assert_non_null(strstr(text, want));
    free(text);
    return lines;
}

/* A few events as Linux 5.15's trace file prints them, sorted by time, each
 * line in the context of what its vCPU runs then. */
static void test_ftrace_text(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct trace_machine m = {.nr_cpus = 2, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_FTRACE, out, &m);
    assert_non_null(w);
    struct mevent_task sh = {.tid = 7, .tgid = 7, .comm = "sh", .prio = 120};
    struct mevent_task idle = {.tid = 0, .prio = 120};
    /* given out of time order, as the machine's vCPUs report them */
    struct mevent wake = {.kind = MEVENT_WAKEUP, .ts_ns = 1500, .cpu = 1, .src_cpu = 1, .task = sh};
    struct mevent sw = {.kind = MEVENT_SWITCH, .ts_ns = 2000, .cpu = 1, .task = sh};
    sw.sw.prev = idle;
    struct mevent exit = {.kind = MEVENT_EXIT, .ts_ns = 1234567000, .cpu = 1, .task = sh};
    struct mevent sw2 = {.kind = MEVENT_SWITCH, .ts_ns = 1234567000, .cpu = 1, .task = idle};
    sw2.sw.prev = sh;
    sw2.sw.prev_end = MEVENT_END_DEAD;
    struct cpumask a = {0}, b = {0};
    cpumask_set_cpu(0, &a);
    cpumask_set_cpu(1, &a);
    cpumask_set_cpu(1, &b);
    struct mevent aff = {
        .kind = MEVENT_AFFINITY, .ts_ns = 3000, .cpu = 1, .src_cpu = 1, .task = sh};
    aff.affinity.old_mask = &a;
    aff.affinity.new_mask = &b;
    aff.affinity.cause = MEVENT_CAUSE_SETAFFINITY;
    aff.affinity.rule = "U8";
    const struct mevent *evs[] = {&sw, &aff, &exit, &sw2, &wake};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++)
        trace_writer_event(w, evs[i]);
    assert_int_equal(trace_writer_finish(w), 0);
    const char *body = text;
    for (int i = 0; i < 12; i++)
        body = strchr(body, '\n') + 1;
    /* asymu_machine first, and asymu_report beside the events that have
     * one (its seq the order they were given in) */
    assert_string_equal(
        body,
        "          <idle>-0       [000] .....     0.000000: asymu_machine: cpus=2 aarch32= "
        "policy=upstream seed=0 capacity=1024,1024\n"
        "          <idle>-0       [001] d..2.     0.000001: sched_waking: comm=sh pid=7 prio=120 "
        "target_cpu=001\n"
        "          <idle>-0       [001] d..2.     0.000001: sched_wakeup: comm=sh pid=7 prio=120 "
        "target_cpu=001\n"
        "          <idle>-0       [001] .....     0.000001: asymu_report: what=wakeup seq=1 "
        "cpu=1 comm=sh pid=7 tgid=7 isa=aarch64 ts_ns=1500 end_ns=0 from=-1 to=-1 old_cpus=- "
        "cpus=- rule=- why=wakeup\n"
        "          <idle>-0       [001] .....     0.000002: cpu_idle: state=4294967295 cpu_id=1\n"
        "          <idle>-0       [001] d..2.     0.000002: sched_switch: prev_comm=swapper/1 "
        "prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=7 next_prio=120\n"
        "              sh-7       [001] .....     0.000003: asymu_affinity: comm=sh pid=7 "
        "old_cpus=0-1 cpus=1 cause=sched_setaffinity rule=U8\n"
        "              sh-7       [001] .....     0.000003: asymu_report: what=affinity seq=0 "
        "cpu=1 comm=sh pid=7 tgid=7 isa=aarch64 ts_ns=3000 end_ns=0 from=-1 to=-1 old_cpus=0-1 "
        "cpus=1 rule=U8 why=sched_setaffinity\n"
        "              sh-7       [001] .....     1.234567: sched_process_exit: comm=sh pid=7 "
        "prio=120\n"
        "              sh-7       [001] d..2.     1.234567: sched_switch: prev_comm=sh "
        "prev_pid=7 prev_prio=120 prev_state=Z ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
        "          <idle>-0       [001] .....     1.234567: cpu_idle: state=0 cpu_id=1\n");
    free(text);
}

static void test_ftrace_default_keeps_all(void **state)
{
    (void)state;
    uint64_t dropped;
    assert_int_equal(ftrace_run(0, &dropped), EVENTS);
    assert_int_equal(dropped, 0);
}

/* The task and signal events in their 5.15 formats (task.h, signal.h,
 * sched.h's sched_process_free). */
static void test_ftrace_task_events(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct trace_machine m = {.nr_cpus = 1, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_FTRACE, out, &m);
    assert_non_null(w);
    struct mevent_task sh = {.tid = 7, .tgid = 7, .comm = "sh", .prio = 120};
    struct mevent sw = {.kind = MEVENT_SWITCH, .ts_ns = 1000, .task = sh};
    sw.sw.prev = (struct mevent_task){.tid = 0, .prio = 120};
    struct mevent nt = {.kind = MEVENT_NEWTASK, .ts_ns = 2000, .task = sh};
    nt.newtask.tid = 8;
    nt.newtask.clone_flags = 0x1200011;
    struct mevent ren = {.kind = MEVENT_RENAME, .ts_ns = 3000, .task = sh};
    strcpy(ren.rename.comm, "worker");
    struct mevent gen = {.kind = MEVENT_SIGNAL_GENERATE, .ts_ns = 4000, .task = sh};
    gen.signal.sig = 10;
    gen.signal.group = true;
    struct mevent del = {.kind = MEVENT_SIGNAL_DELIVER, .ts_ns = 5000, .task = sh};
    del.signal.sig = 10;
    del.signal.handler = 0x400b30;
    del.signal.flags = 0x4000000;
    struct mevent fr = {.kind = MEVENT_FREE, .ts_ns = 6000, .task = sh};
    fr.task.tid = 8;
    const struct mevent *evs[] = {&sw, &nt, &ren, &gen, &del, &fr};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++)
        trace_writer_event(w, evs[i]);
    assert_int_equal(trace_writer_finish(w), 0);
    const char *body = text;
    for (int i = 0; i < 15; i++) /* the header, asymu_machine, cpu_idle and the switch */
        body = strchr(body, '\n') + 1;
    assert_string_equal(
        body,
        "              sh-7       [000] .....     0.000002: task_newtask: pid=8 comm=sh "
        "clone_flags=1200011 oom_score_adj=0\n"
        "              sh-7       [000] .....     0.000003: task_rename: pid=7 oldcomm=sh "
        "newcomm=worker oom_score_adj=0\n"
        "              sh-7       [000] .....     0.000004: signal_generate: sig=10 errno=0 code=0 "
        "comm=sh pid=7 grp=1 res=0\n"
        "              sh-7       [000] .....     0.000005: signal_deliver: sig=10 errno=0 code=0 "
        "sa_handler=400b30 sa_flags=4000000\n"
        "              sh-7       [000] .....     0.000006: sched_process_free: comm=sh pid=8 "
        "prio=120\n");
    free(text);
}

static void test_ftrace_budget_drops_the_rest(void **state)
{
    (void)state;
    uint64_t dropped;
    size_t kept = ftrace_run(64 * 1024, &dropped);
    /* every line costs more than 64 bytes: fewer than 1024 fit */
    assert_true(kept > 0 && kept < 1024);
    assert_int_equal(kept + dropped, EVENTS);
}

static void test_svg_budget(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    struct trace_machine m = {.nr_cpus = 2, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_SVG, out, &m);
    assert_non_null(w);
    trace_writer_keep_max(w, 4096);
    /* runs of alternating tasks on one vCPU: a bar each */
    for (unsigned i = 0; i < EVENTS; i++) {
        struct mevent ev = {.kind = MEVENT_RUN, .ts_ns = 1000u * i, .cpu = 0};
        ev.task = (struct mevent_task){.tid = 2 + (int)(i % 2), .tgid = 2, .prio = 120};
        strcpy(ev.task.comm, "worker");
        ev.run.end_ns = 1000u * i + 500;
        trace_writer_event(w, &ev);
    }
    uint64_t dropped = trace_writer_dropped(w);
    assert_true(dropped > EVENTS / 2 && dropped < EVENTS);
    assert_int_equal(trace_writer_finish(w), 0);
    assert_non_null(strstr(text, "</svg>"));
    /* Each event is dropped once, though its bar, its task and the
     * panel's record each did not fit: a bar per event kept but the first
     * (its run ends at the next) and the last (never flushed). */
    size_t bars = 0;
    for (const char *p = text; (p = strstr(p, "class=\"run\"")); p++)
        bars++;
    assert_int_equal(bars + dropped, EVENTS - 1);
    /* and the panel says the statistics stop there */
    assert_non_null(strstr(text, "events dropped: of the run up to there"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ftrace_default_keeps_all),
        cmocka_unit_test(test_ftrace_text),
        cmocka_unit_test(test_ftrace_task_events),
        cmocka_unit_test(test_ftrace_budget_drops_the_rest),
        cmocka_unit_test(test_svg_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
