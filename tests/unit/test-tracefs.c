/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-tracefs.c - the machine's tracefs (trace/tracefs.c) as pure logic:
 * the lines of trace and trace_pipe for print events on two vCPUs, merged
 * by time; trace_pipe taking what it gives, a page of text at most; a page
 * partly taken by trace_pipe given whole by trace_pipe_raw as the rest;
 * which readers tracefs_wake() wakes; O_TRUNC emptying trace (issue 28,
 * item 1 of what was left); what poll() and splice() see (what was left
 * after it). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs.h"

static void print_at(struct tracefs *tf, unsigned cpu, uint64_t ts, const char *msg)
{
    struct mevent ev = {.kind = MEVENT_PRINT, .ts_ns = ts, .cpu = cpu, .src_cpu = cpu};
    ev.task.tid = ev.task.tgid = 5;
    ev.task.prio = 120;
    strcpy(ev.task.comm, "tt");
    ev.print.msg = msg;
    ev.print.ip = 0xffff8000101c0000;
    tracefs_event(tf, &ev);
}

static char *read_file(struct tracefs *tf, const char *rel, size_t *size)
{
    char *data = NULL;
    int err = tracefs_read(tf, rel, 0, &data, size);
    assert_int_equal(err, 0);
    return data;
}

#define HEADER(kept, written)                                                                     \
    "# tracer: nop\n#\n# entries-in-buffer/entries-written: " kept "/" written "   #P:2\n"        \
    "#\n"                                                                                         \
    "#                                _-----=> irqs-off\n"                                        \
    "#                               / _----=> need-resched\n"                                    \
    "#                              | / _---=> hardirq/softirq\n"                                 \
    "#                              || / _--=> preempt-depth\n"                                   \
    "#                              ||| / _-=> migrate-disable\n"                                 \
    "#                              |||| /     delay\n"                                           \
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"                                 \
    "#              | |         |   |||||     |         |\n"
#define LINE(cpu, us, msg)                                                                        \
    "              tt-5       [00" cpu "] .....     0.0000" us ": tracing_mark_write: " msg "\n"

#define LINES                                                                                     \
    LINE("0", "01", "m0") LINE("1", "01", "n0") LINE("0", "02", "m1") LINE("0", "03", "m2")

struct woken {
    const void *keys[8];
    unsigned n;
};

static void wake(void *arg, const void *key)
{
    struct woken *w = arg;
    if (w->n < 8)
        w->keys[w->n++] = key;
}

static void test_trace_and_pipe(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(2);
    assert_non_null(tf);
    print_at(tf, 0, 1000, "m0");
    print_at(tf, 1, 1500, "n0");
    print_at(tf, 0, 2000, "m1");
    print_at(tf, 0, 3000, "m2");
    size_t size;
    char *text = read_file(tf, "trace", &size);
    assert_string_equal(text, HEADER("4", "4") LINES);
    free(text);
    /* reading trace takes nothing: the same again */
    text = read_file(tf, "trace", &size);
    assert_string_equal(text, HEADER("4", "4") LINES);
    free(text);
    text = read_file(tf, "per_cpu/cpu1/trace", &size);
    assert_string_equal(text, HEADER("4", "4") LINE("1", "01", "n0"));
    free(text);
    /* trace_pipe: the lines without a header, then nothing */
    text = read_file(tf, "trace_pipe", &size);
    assert_string_equal(text, LINES);
    free(text);
    text = read_file(tf, "trace_pipe", &size);
    assert_int_equal(size, 0);
    free(text);
    text = read_file(tf, "trace", &size);
    assert_string_equal(text, HEADER("0", "0"));
    free(text);
    /* wake-ups: trace_pipe's readers and cpu1's trace_pipe ones, not
     * cpu1's trace_pipe_raw (no page is full) */
    struct woken w = {0};
    tracefs_wake(tf, wake, &w);
    w.n = 0;
    tracefs_wake(tf, wake, &w); /* nothing new */
    assert_int_equal(w.n, 0);
    print_at(tf, 1, 4000, "n1");
    tracefs_wake(tf, wake, &w);
    assert_int_equal(w.n, 2);
    assert_ptr_equal(w.keys[0], tracefs_wait_key(tf, "trace_pipe"));
    assert_ptr_equal(w.keys[1], tracefs_wait_key(tf, "per_cpu/cpu1/trace_pipe"));
    assert_ptr_not_equal(tracefs_wait_key(tf, "per_cpu/cpu1/trace_pipe_raw"),
                         tracefs_wait_key(tf, "per_cpu/cpu1/trace_pipe"));
    /* O_TRUNC on trace empties it */
    tracefs_truncate(tf, "trace");
    text = read_file(tf, "trace", &size);
    assert_string_equal(text, HEADER("0", "0"));
    free(text);
    tracefs_free(tf);
}

/* 20 prints of 200 bytes: each record is 218 bytes, 228 in the page (a
 * header with a length word, rounded to words), so a page (4080 bytes of
 * records) holds 17; a trace_pipe read takes 15 lines (the next would pass
 * 4096 bytes of text); trace_pipe_raw then gives the 2 left of the first
 * page as a page, then the second page's 3. A full page wakes cpu0's
 * trace_pipe_raw readers. */
static void test_partly_taken_page(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(2);
    assert_non_null(tf);
    char msg[201];
    for (int i = 0; i < 20; i++) {
        snprintf(msg, sizeof msg, "%03d%0197d", i, 0);
        print_at(tf, 0, 1000u * (unsigned)(i + 1), msg);
    }
    struct woken w = {0};
    tracefs_wake(tf, wake, &w);
    int raw = 0;
    for (unsigned i = 0; i < w.n; i++)
        raw += w.keys[i] == tracefs_wait_key(tf, "per_cpu/cpu0/trace_pipe_raw");
    assert_int_equal(raw, 1);
    size_t size;
    char *text = read_file(tf, "trace_pipe", &size);
    unsigned nl = 0;
    for (size_t i = 0; i < size; i++)
        nl += text[i] == '\n';
    assert_int_equal(nl, 15);
    assert_true(size <= 4095);
    free(text);
    char *page = read_file(tf, "per_cpu/cpu0/trace_pipe_raw", &size);
    assert_int_equal(size, 4096);
    uint64_t ts, commit;
    memcpy(&ts, page, 8);
    memcpy(&commit, page + 8, 8);
    assert_int_equal(ts, 16000); /* the 16th print's */
    assert_int_equal(commit, 2 * 228);
    assert_memory_equal(page + 16 + 8 + 16, "015", 3);
    free(page);
    page = read_file(tf, "per_cpu/cpu0/trace_pipe_raw", &size);
    assert_int_equal(size, 4096);
    memcpy(&commit, page + 8, 8);
    assert_int_equal(commit, 3 * 228);
    assert_memory_equal(page + 16 + 8 + 16, "017", 3);
    free(page);
    page = read_file(tf, "per_cpu/cpu0/trace_pipe_raw", &size);
    assert_int_equal(size, 0);
    free(page);
    tracefs_free(tf);
}

/* trace_pipe reads across pages: 15 lines, then the other 5 (the rest of
 * the first page and the second's 3), then nothing; a print after it goes
 * on the page being written, and trace_pipe_raw gives it alone. */
static void test_pipe_across_pages(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(1);
    assert_non_null(tf);
    char msg[201];
    for (int i = 0; i < 20; i++) {
        snprintf(msg, sizeof msg, "%03d%0197d", i, 0);
        print_at(tf, 0, 1000u * (unsigned)(i + 1), msg);
    }
    size_t size;
    free(read_file(tf, "trace_pipe", &size));
    char *text = read_file(tf, "trace_pipe", &size);
    const char *at = text;
    for (int i = 15; i < 20; i++) {
        char want[16];
        snprintf(want, sizeof want, "write: %03d", i);
        at = strstr(at, want);
        assert_non_null(at);
    }
    free(text);
    text = read_file(tf, "trace_pipe", &size);
    assert_int_equal(size, 0);
    free(text);
    print_at(tf, 0, 30000, "after");
    char *page = read_file(tf, "per_cpu/cpu0/trace_pipe_raw", &size);
    assert_int_equal(size, 4096);
    uint64_t ts, commit;
    memcpy(&ts, page, 8);
    memcpy(&commit, page + 8, 8);
    assert_int_equal(ts, 30000);
    /* a header word, then print's 16 bytes and buf: "after\n\0" and the 4 bytes that
     * make it as long as "<faulted>" would need (11), 27 rounded to 28 */
    assert_int_equal(commit, 4 + 28);
    assert_memory_equal(page + 16 + 4 + 16, "after\n", 6);
    free(page);
    tracefs_free(tf);
}

/* A page trace_pipe took all of stays while it is written to; the record
 * that fills it starts the next page, and trace_pipe gives that one once. */
static void test_pipe_after_taken_page(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(1);
    assert_non_null(tf);
    char msg[201];
    for (int i = 0; i < 18; i++) {
        if (i == 17) { /* the first page (17 records) taken whole */
            size_t size;
            free(read_file(tf, "trace_pipe", &size));
            char *text = read_file(tf, "trace_pipe", &size);
            assert_non_null(strstr(text, "write: 016"));
            free(text);
        }
        snprintf(msg, sizeof msg, "%03d%0197d", i, 0);
        print_at(tf, 0, 1000u * (unsigned)(i + 1), msg);
    }
    size_t size;
    char *text = read_file(tf, "trace_pipe", &size);
    unsigned nl = 0;
    for (size_t i = 0; i < size; i++)
        nl += text[i] == '\n';
    assert_int_equal(nl, 1); /* only that one */
    assert_non_null(strstr(text, "write: 017"));
    free(text);
    text = read_file(tf, "trace_pipe", &size);
    assert_int_equal(size, 0);
    free(text);
    tracefs_free(tf);
}

/* poll(): trace_pipe readable at a record, per vCPU or of every vCPU,
 * trace_pipe_raw at a full page; the "block" option makes all readable.
 * splice(): only pages the writer left and trace_pipe took nothing of. */
static void test_poll_and_splice(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(2);
    assert_non_null(tf);
    assert_false(tracefs_readable(tf, "trace_pipe"));
    print_at(tf, 1, 1000, "n0");
    assert_true(tracefs_readable(tf, "trace_pipe"));
    assert_true(tracefs_readable(tf, "per_cpu/cpu1/trace_pipe"));
    assert_false(tracefs_readable(tf, "per_cpu/cpu1/trace_pipe_raw"));
    assert_false(tracefs_readable(tf, "per_cpu/cpu0/trace_pipe"));
    unsigned char page[4096];
    assert_int_equal(tracefs_splice_page(tf, "per_cpu/cpu1/trace_pipe_raw", page), 0);
    assert_int_equal(tracefs_splice_page(tf, "per_cpu/cpu1/trace_pipe", page), -ENOENT);
    size_t size;
    char *text = read_file(tf, "trace_pipe", &size);
    free(text);
    assert_false(tracefs_readable(tf, "per_cpu/cpu1/trace_pipe_raw"));
    assert_int_equal(tracefs_write(tf, "options/block", "1", 1), 1);
    assert_true(tracefs_readable(tf, "per_cpu/cpu0/trace_pipe_raw"));
    assert_int_equal(tracefs_write(tf, "options/block", "0", 1), 1);
    /* 20 records of 228 bytes: a full page of 17, the writer's of 3 */
    char msg[201];
    for (int i = 0; i < 20; i++) {
        snprintf(msg, sizeof msg, "%03d%0197d", i, 0);
        print_at(tf, 0, 2000u + 1000u * (unsigned)i, msg);
    }
    assert_true(tracefs_readable(tf, "per_cpu/cpu0/trace_pipe_raw"));
    assert_int_equal(tracefs_splice_page(tf, "per_cpu/cpu0/trace_pipe_raw", page), 1);
    assert_non_null(memmem(page, sizeof page, "016", 3));
    assert_null(memmem(page, sizeof page, "017000", 6));
    assert_int_equal(tracefs_splice_page(tf, "per_cpu/cpu0/trace_pipe_raw", page), 0);
    assert_false(tracefs_readable(tf, "per_cpu/cpu0/trace_pipe_raw"));
    assert_true(tracefs_readable(tf, "per_cpu/cpu0/trace_pipe"));
    tracefs_free(tf);
}

/* A sched_switch on cpu of prev (comm "tt", prio 120) to 6 ("uu") at ts. */
static void switch_from(struct tracefs *tf, unsigned cpu, uint64_t ts, int prev)
{
    struct mevent ev = {.kind = MEVENT_SWITCH, .ts_ns = ts, .cpu = cpu, .src_cpu = cpu};
    ev.task.tid = ev.task.tgid = 6;
    ev.task.prio = 120;
    strcpy(ev.task.comm, "uu");
    ev.sw.prev.tid = ev.sw.prev.tgid = prev;
    ev.sw.prev.prio = 120;
    strcpy(ev.sw.prev.comm, "tt");
    tracefs_event(tf, &ev);
}

static void switch_at(struct tracefs *tf, unsigned cpu, uint64_t ts)
{
    switch_from(tf, cpu, ts, 5);
}

static int64_t write_str(struct tracefs *tf, const char *rel, const char *s)
{
    return tracefs_write(tf, rel, s, strlen(s));
}

struct names {
    char text[512];
};

static void add_name(const char *name, unsigned char type, void *arg)
{
    struct names *n = arg;
    (void)type;
    strcat(n->text, name);
    strcat(n->text, " ");
}

/* instances/ (issue 28 item 3): mkdir makes a trace array with its own
 * files and buffers; an event enabled in it only is recorded there only,
 * a print from its trace_marker too; the top level's files it lacks;
 * EEXIST, ENOENT, EPERM, ENOTDIR; EBUSY while pinned; the budget. */
static void test_instances(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(2);
    assert_non_null(tf);
    unsigned mode;
    bool dir;
    assert_int_equal(tracefs_lookup(tf, "instances/foo", &mode, &dir), -ENOENT);
    assert_int_equal(tracefs_mkdir(tf, "instances/foo"), 0);
    assert_int_equal(tracefs_mkdir(tf, "instances/foo"), -EEXIST);
    assert_int_equal(tracefs_mkdir(tf, "instances/foo/bar"), -EPERM);
    assert_int_equal(tracefs_mkdir(tf, "instances/nope/bar"), -ENOENT);
    assert_int_equal(tracefs_mkdir(tf, "events/x"), -EPERM);
    assert_int_equal(tracefs_mkdir(tf, "trace/x"), -ENOTDIR);
    assert_int_equal(tracefs_mkdir(tf, "trace"), -EEXIST);
    assert_int_equal(tracefs_lookup(tf, "instances/foo", &mode, &dir), 0);
    assert_true(dir);
    assert_int_equal(tracefs_lookup(tf, "instances/foo/events/sched/sched_switch/enable", &mode,
                                    &dir), 0);
    assert_int_equal(tracefs_lookup(tf, "instances/foo/per_cpu/cpu1/trace_pipe_raw", &mode, &dir),
                     0);
    assert_int_equal(tracefs_lookup(tf, "instances/foo/saved_cmdlines", &mode, &dir), -ENOENT);
    assert_int_equal(tracefs_lookup(tf, "instances/foo/instances", &mode, &dir), -ENOENT);
    struct names n = {""};
    assert_int_equal(tracefs_list(tf, "instances", add_name, &n), 0);
    assert_string_equal(n.text, "foo ");
    n.text[0] = '\0';
    assert_int_equal(tracefs_list(tf, "instances/foo", add_name, &n), 0);
    assert_string_equal(n.text, "available_tracers buffer_size_kb buffer_total_size_kb "
                                "current_tracer events "
                                "options per_cpu set_event trace trace_clock trace_marker "
                                "trace_marker_raw trace_pipe tracing_cpumask tracing_on ");
    size_t size;
    char *text = read_file(tf, "instances/foo/buffer_size_kb", &size);
    assert_string_equal(text, "1408 (expanded: 1408)\n");
    free(text);
    assert_false(tracefs_any_enabled(tf));
    assert_int_equal(write_str(tf, "instances/foo/set_event", "sched:sched_switch\n"), 19);
    assert_true(tracefs_any_enabled(tf));
    text = read_file(tf, "instances/foo/set_event", &size);
    assert_string_equal(text, "sched:sched_switch\n");
    free(text);
    text = read_file(tf, "set_event", &size);
    assert_int_equal(size, 0);
    free(text);
    switch_at(tf, 1, 1000);
    struct mevent mark = {.kind = MEVENT_PRINT, .ts_ns = 2000, .cpu = 0};
    mark.task.tid = mark.task.tgid = 5;
    mark.task.prio = 120;
    strcpy(mark.task.comm, "tt");
    mark.print.msg = "in foo";
    mark.print.ip = 0xffff8000101c0000;
    tracefs_mark(tf, "instances/foo/trace_marker", &mark);
    print_at(tf, 0, 3000, "top");
    text = read_file(tf, "instances/foo/trace_pipe", &size);
    assert_string_equal(text, "              tt-5       [001] d..2.     0.000001: sched_switch: "
                              "prev_comm=tt prev_pid=5 prev_prio=120 prev_state=R+ ==> "
                              "next_comm=uu next_pid=6 next_prio=120\n" LINE("0", "02", "in foo"));
    free(text);
    text = read_file(tf, "trace_pipe", &size);
    assert_string_equal(text, LINE("0", "03", "top"));
    free(text);
    /* tracing_on of the instance: its marker off, the top level's not */
    assert_int_equal(write_str(tf, "instances/foo/tracing_on", "0"), 1);
    assert_false(tracefs_on(tf, "instances/foo/trace_marker"));
    assert_true(tracefs_on(tf, "trace_marker"));
    /* wait keys are the instance's own */
    assert_ptr_not_equal(tracefs_wait_key(tf, "instances/foo/trace_pipe"),
                         tracefs_wait_key(tf, "trace_pipe"));
    assert_null(tracefs_pin(tf, "trace"));
    assert_null(tracefs_pin(tf, "instances/foo")); /* the directory itself pins nothing */
    struct tracefs_pin *pin = tracefs_pin(tf, "instances/foo/trace");
    assert_non_null(pin);
    assert_int_equal(tracefs_rmdir(tf, "instances/foo"), -EBUSY);
    tracefs_unpin(pin);
    assert_int_equal(tracefs_rmdir(tf, "instances/foo/events"), -EPERM);
    assert_int_equal(tracefs_rmdir(tf, "instances/foo/trace"), -ENOTDIR);
    assert_int_equal(tracefs_rmdir(tf, "events"), -EPERM);
    assert_int_equal(tracefs_rmdir(tf, "instances/foo"), 0);
    assert_int_equal(tracefs_rmdir(tf, "instances/foo"), -ENOENT);
    assert_int_equal(tracefs_read(tf, "instances/foo/trace", 0, &text, &size), -ENOENT);
    /* the budget: 65536 KiB for every buffer, 2816 each of 2 vCPUs at
     * 1408: the top level and 22 instances (64768), not a 23rd */
    char name[32];
    for (int i = 0; i < 22; i++) {
        snprintf(name, sizeof name, "instances/i%d", i);
        assert_int_equal(tracefs_mkdir(tf, name), 0);
    }
    assert_int_equal(tracefs_mkdir(tf, "instances/i22"), -ENOMEM);
    /* 61952 KiB without i0's: 3584 left, 1792 per vCPU */
    assert_int_equal(write_str(tf, "instances/i0/buffer_size_kb", "1793"), -ENOMEM);
    assert_int_equal(write_str(tf, "instances/i0/buffer_size_kb", "1792"), 4);
    /* smaller buffers: then the count bounds them, 32 at most */
    assert_int_equal(write_str(tf, "buffer_size_kb", "4"), 1);
    for (int i = 0; i < 22; i++) {
        snprintf(name, sizeof name, "instances/i%d/buffer_size_kb", i);
        assert_int_equal(write_str(tf, name, "4"), 1);
    }
    for (int i = 22; i < 32; i++) {
        snprintf(name, sizeof name, "instances/i%d", i);
        assert_int_equal(tracefs_mkdir(tf, name), 0);
    }
    assert_int_equal(tracefs_mkdir(tf, "instances/i32"), -ENOMEM);
    /* a pin outlives the tracefs */
    pin = tracefs_pin(tf, "instances/i3/trace_pipe");
    assert_non_null(pin);
    tracefs_free(tf);
    tracefs_unpin(pin);
}

/* The sched_switch lines trace holds. */
static int switches(struct tracefs *tf)
{
    size_t size;
    char *text = read_file(tf, "trace", &size);
    int n = 0;
    for (const char *p = text; (p = strstr(p, " sched_switch: ")); p++)
        n++;
    free(text);
    return n;
}

#define SW "events/sched/sched_switch/filter"

/* A filter written: its return, and what the file shows after it. */
static void filter_is(struct tracefs *tf, const char *text, int64_t ret, const char *shown)
{
    assert_int_equal(tracefs_write(tf, SW, text, strlen(text)), ret);
    size_t size;
    char *got = read_file(tf, SW, &size);
    assert_string_equal(got, shown);
    free(got);
}

/* events/SYSTEM/EVENT/filter (issue 28 item 3): 5.15's syntax subset
 * applied when recording; "0" clears; a bad filter EINVAL, the file
 * showing the error with its caret (append_filter_err()), none applied. */
static void test_filters(void **state)
{
    (void)state;
    struct tracefs *tf = tracefs_new(2);
    assert_non_null(tf);
    size_t size;
    char *text = read_file(tf, SW, &size);
    assert_string_equal(text, "none\n");
    free(text);
    assert_int_equal(write_str(tf, "events/sched/sched_switch/enable", "1"), 1);
    filter_is(tf, "prev_pid == 5 && next_comm == \"uu\"\n", 35,
              "prev_pid == 5 && next_comm == \"uu\"\n");
    switch_from(tf, 0, 1000, 5);
    switch_from(tf, 0, 2000, 7);
    assert_int_equal(switches(tf), 1);
    filter_is(tf, "prev_pid > 5 || prev_prio < 100", 31, "prev_pid > 5 || prev_prio < 100\n");
    switch_from(tf, 0, 3000, 5);
    switch_from(tf, 0, 4000, 7);
    assert_int_equal(switches(tf), 2);
    filter_is(tf, "!(common_pid == 5) && prev_comm != 'xx'", 39,
              "!(common_pid == 5) && prev_comm != 'xx'\n");
    switch_from(tf, 0, 5000, 5);
    switch_from(tf, 0, 6000, 8);
    assert_int_equal(switches(tf), 3);
    filter_is(tf, "prev_pid >= 0x9 && prev_pid <= 9 && prev_state & 0x100 && prev_comm ~ \"t*\"", 74,
              "prev_pid >= 0x9 && prev_pid <= 9 && prev_state & 0x100 && prev_comm ~ \"t*\"\n");
    switch_from(tf, 0, 7000, 9);
    switch_from(tf, 0, 8000, 10);
    assert_int_equal(switches(tf), 4);
    /* errors: EINVAL, the text and where, no filter applied */
    filter_is(tf, "prev_pidd == 5", -EINVAL,
              "prev_pidd == 5\n         ^\nparse_error: Field not found\n\n");
    switch_from(tf, 0, 9000, 11);
    assert_int_equal(switches(tf), 5);
    filter_is(tf, "prev_comm < \"a\"", -EINVAL,
              "prev_comm < \"a\"\n            ^\nparse_error: Illegal operation for field type\n\n");
    filter_is(tf, "prev_pid == \"x\"", -EINVAL,
              "prev_pid == \"x\"\n            ^\nparse_error: Expecting numeric field\n\n");
    filter_is(tf, "prev_comm == 5", -EINVAL,
              "prev_comm == 5\n             ^\nparse_error: Expecting string field\n\n");
    filter_is(tf, "prev_comm == tt", -EINVAL,
              "prev_comm == tt\n             ^\n"
              "parse_error: Invalid value (did you forget quotes)?\n\n");
    filter_is(tf, "prev_pid == 5abc", -EINVAL,
              "prev_pid == 5abc\n            ^\nparse_error: Illegal integer value\n\n");
    filter_is(tf, "prev_pid 5", -EINVAL,
              "prev_pid 5\n         ^\nparse_error: Illegal operation for field type\n\n");
    filter_is(tf, "(prev_pid == 5", -EINVAL, "(prev_pid == 5\n^\nparse_error: Too many '('\n\n");
    filter_is(tf, "prev_pid == 5)", -EINVAL,
              "prev_pid == 5)\n             ^\nparse_error: Too few '('\n\n");
    filter_is(tf, "prev_comm == \"tt", -EINVAL,
              "prev_comm == \"tt\n                ^\nparse_error: Missing matching quote\n\n");
    filter_is(tf, "prev_pid == 5 &&", -EINVAL,
              "prev_pid == 5 &&\n                ^\nparse_error: Meaningless filter expression\n\n");
    /* "0" clears */
    filter_is(tf, "prev_pid == 1", 13, "prev_pid == 1\n");
    filter_is(tf, " 0\n", 3, "none\n");
    switch_from(tf, 0, 10000, 12);
    assert_int_equal(switches(tf), 6);
    /* each trace array has its own */
    assert_int_equal(tracefs_mkdir(tf, "instances/f"), 0);
    assert_int_equal(write_str(tf, "instances/f/events/sched/sched_switch/enable", "1"), 1);
    assert_int_equal(write_str(tf, "instances/f/" SW, "prev_pid == 13"), 14);
    text = read_file(tf, SW, &size);
    assert_string_equal(text, "none\n");
    free(text);
    switch_from(tf, 0, 11000, 13);
    switch_from(tf, 0, 12000, 14);
    assert_int_equal(switches(tf), 8);
    text = read_file(tf, "instances/f/trace", &size);
    assert_non_null(strstr(text, "prev_pid=13"));
    assert_null(strstr(text, "prev_pid=14"));
    free(text);
    tracefs_free(tf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_and_pipe),
        cmocka_unit_test(test_partly_taken_page),
        cmocka_unit_test(test_pipe_across_pages),
        cmocka_unit_test(test_pipe_after_taken_page),
        cmocka_unit_test(test_poll_and_splice),
        cmocka_unit_test(test_instances),
        cmocka_unit_test(test_filters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
