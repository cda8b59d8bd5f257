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
    size_t lines = count_lines(text) - 1;
    assert_int_equal(strncmp(text, "cpus=2\n", 7), 0);
    free(text);
    return lines;
}

static void test_ftrace_default_keeps_all(void **state)
{
    (void)state;
    uint64_t dropped;
    assert_int_equal(ftrace_run(0, &dropped), EVENTS);
    assert_int_equal(dropped, 0);
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
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ftrace_default_keeps_all),
        cmocka_unit_test(test_ftrace_budget_drops_the_rest),
        cmocka_unit_test(test_svg_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
