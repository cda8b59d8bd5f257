/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-trace-report.c - `asymu report`'s reader and numbers
 * (trace/trace_report*.c): a hand-made trace whose every number is worked
 * out below, and hostile input: each prefix of that trace, each byte of it
 * changed, and traces broken one field at a time are refused with a
 * message naming the file, never a crash (issue 28 item 4). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_report-int.h"

#define HEAD "{\"otherData\":{\"generator\":\"asymu\",\"policy\":\"upstream\",\"seed\":1,"
#define MACHINE HEAD "\"cpus\":4,\"aarch32\":\"0-1\",\"capacity\":[512,512,1024,1024]},"
#define A "\"pid\":1,\"tid\":1,\"comm\":\"a\",\"isa\":\"aarch64\""
#define B "\"pid\":1,\"tid\":2,\"comm\":\"b\",\"isa\":\"aarch32\""

/* Two tasks on a 4-vCPU machine (0-1 32-bit capable, capacity 512; 2-3
 * 64-bit only, 1024). a: woken new at 0, runs 0-10 on cpu0 (preempted),
 * 15-20 (moved to cpu2 by the balancer: misfit, to a bigger vCPU), 22-30 on
 * cpu2 (sleeps), moved to cpu3 by sched_setaffinity (U8) at 30, woken at
 * 40, runs 43-50 and exits. b: runs 10-15 on cpu0 (sleeps), woken at 25
 * onto cpu1, runs 26-30 and exits. cpu1 is offline from 31 to 35. */
static const char trace[] = MACHINE
    "\"traceEvents\":[\n"
    "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"vCPUs\"}},\n"
    "{\"name\":\"wakeup\",\"ph\":\"i\",\"pid\":0,\"tid\":0,\"ts\":0,\"args\":{" A
    ",\"new\":true}},\n"
    "{\"name\":\"a\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":0,\"dur\":10,\"args\":{" A
    ",\"end\":\"runnable\"}},\n"
    "{\"name\":\"b\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":10,\"dur\":5,\"args\":{" B
    ",\"end\":\"blocked\"}},\n"
    "{\"name\":\"a\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":15,\"dur\":5,\"args\":{" A
    ",\"end\":\"moved\"}},\n"
    "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":2,\"ts\":20,\"args\":{" A
    ",\"from\":0,\"to\":2}},\n"
    "{\"name\":\"a\",\"ph\":\"X\",\"pid\":0,\"tid\":2,\"ts\":22,\"dur\":8,\"args\":{" A
    ",\"end\":\"blocked\"}},\n"
    "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":1,\"ts\":25,\"args\":{" B
    ",\"from\":0,\"to\":1}},\n"
    "{\"name\":\"wakeup\",\"ph\":\"i\",\"pid\":0,\"tid\":1,\"ts\":25,\"args\":{" B
    ",\"new\":false}},\n"
    "{\"name\":\"b\",\"ph\":\"X\",\"pid\":0,\"tid\":1,\"ts\":26,\"dur\":4,\"args\":{" B
    ",\"end\":\"dead\"}},\n"
    "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":3,\"ts\":30,\"args\":{" A
    ",\"from\":2,\"to\":3}},\n"
    "{\"name\":\"affinity\",\"ph\":\"i\",\"pid\":0,\"tid\":2,\"ts\":30,\"args\":{" A
    ",\"old\":\"0-3\",\"new\":\"3\",\"rule\":\"U8\",\"cause\":\"sched_setaffinity\"}},\n"
    "{\"name\":\"cpu offline\",\"ph\":\"i\",\"pid\":0,\"tid\":1,\"ts\":31,\"args\":{\"cpu\":1}},\n"
    "{\"name\":\"cpu online\",\"ph\":\"i\",\"pid\":0,\"tid\":1,\"ts\":35,\"args\":{\"cpu\":1}},\n"
    "{\"name\":\"wakeup\",\"ph\":\"i\",\"pid\":0,\"tid\":3,\"ts\":40,\"args\":{" A
    ",\"new\":false}},\n"
    "{\"name\":\"a\",\"ph\":\"X\",\"pid\":0,\"tid\":3,\"ts\":43,\"dur\":7,\"args\":{" A
    ",\"end\":\"dead\"}}\n"
    "]}\n";

#define US 1000u

static struct trace_report *parse(const char *text, size_t len, char *err, size_t errlen)
{
    /* an exact-size copy: a read past the end is a read of freed memory */
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    err[0] = '\0';
    struct trace_report *r = trace_report_parse(copy, len, "t.json", err, errlen);
    free(copy);
    return r;
}

static void test_known_answer(void **state)
{
    (void)state;
    char err[512];
    struct trace_report *r = parse(trace, strlen(trace), err, sizeof err);
    assert_non_null(r);
    assert_int_equal(r->start, 0);
    assert_int_equal(r->end, 50 * US);
    assert_int_equal(r->nr_tasks, 2);
    const struct report_task *a = &r->tasks[0], *b = &r->tasks[1];
    assert_int_equal(a->id.tid, 1);
    assert_int_equal(a->running, 30 * US); /* 10 + 5 + 8 + 7 */
    assert_int_equal(a->cpu_ns[0], 15 * US);
    assert_int_equal(a->cpu_ns[1], 0);
    assert_int_equal(a->cpu_ns[2], 8 * US);
    assert_int_equal(a->cpu_ns[3], 7 * US);
    assert_int_equal(a->on_aarch32_cpus, 15 * US);
    assert_int_equal(a->on_aarch64_only, 15 * US);
    /* preempted 10-15, moved 20-22, woken 0 (ran at once) and 40-43 */
    assert_int_equal(a->waiting, 10 * US);
    assert_int_equal(a->wakeups, 2);
    assert_int_equal(a->nr_latencies, 2);
    assert_int_equal(a->p50, 0); /* the 1st of 2 */
    assert_int_equal(a->p90, 3 * US);
    assert_int_equal(a->p99, 3 * US);
    assert_int_equal(a->max, 3 * US);
    assert_int_equal(a->migrations, 2);
    assert_int_equal(a->nr_reasons, 2);
    assert_string_equal(a->reasons[0].reason, "affinity U8");
    assert_int_equal(a->reasons[0].count, 1);
    assert_string_equal(a->reasons[1].reason, "misfit");
    assert_int_equal(a->affinity_changes, 1);
    assert_false(a->compat);
    assert_int_equal(b->id.tid, 2);
    assert_true(b->compat);
    assert_int_equal(b->running, 9 * US);
    assert_int_equal(b->on_aarch32_cpus, 9 * US);
    assert_int_equal(b->on_aarch64_only, 0);
    assert_int_equal(b->waiting, 1 * US);
    assert_int_equal(b->p50, 1 * US);
    assert_int_equal(b->max, 1 * US);
    assert_int_equal(b->nr_reasons, 1);
    assert_string_equal(b->reasons[0].reason, "wakeup");
    assert_int_equal(r->cpus[0].busy, 20 * US);
    assert_int_equal(r->cpus[0].idle, 30 * US);
    assert_int_equal(r->cpus[1].busy, 4 * US);
    assert_int_equal(r->cpus[1].offline, 4 * US);
    assert_int_equal(r->cpus[1].idle, 42 * US);
    assert_int_equal(r->cpus[3].idle, 43 * US);
    assert_int_equal(r->nr_classes, 2);
    assert_int_equal(r->classes[0].capacity, 1024);
    assert_int_equal(r->migrations, 3);
    assert_int_equal(r->wakeups, 3);
    assert_int_equal(r->affinity_changes, 1);
    /* both outputs are written without a failure */
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    trace_report_text(r, devnull);
    trace_report_json(r, devnull);
    fclose(devnull);
    trace_report_free(r);
}

/* Every proper prefix is refused (the JSON ends early), with the file's
 * name; no prefix crashes. */
static void test_every_prefix(void **state)
{
    (void)state;
    char err[512];
    size_t len = strlen(trace) - 1; /* without the final newline, which JSON may lose */
    for (size_t n = 0; n < len; n++) {
        struct trace_report *r = parse(trace, n, err, sizeof err);
        if (r)
            fail_msg("prefix of %zu bytes accepted", n);
        assert_memory_equal(err, "t.json", 6);
    }
}

/* Each byte replaced by each of a few hostile bytes: accepted or refused
 * with a message, never a crash (the sanitizer build sees reads past the
 * end). */
static void test_every_byte(void **state)
{
    (void)state;
    static const char bytes[] = {'\0', '"', '}', ']', '-', '9', 'x', ',', '\\', (char)0xff};
    size_t len = strlen(trace);
    char *copy = malloc(len);
    char err[512];
    assert_non_null(copy);
    for (size_t i = 0; i < len; i++)
        for (size_t b = 0; b < sizeof bytes; b++) {
            memcpy(copy, trace, len);
            copy[i] = bytes[b];
            struct trace_report *r = parse(copy, len, err, sizeof err);
            if (r) {
                FILE *devnull = fopen("/dev/null", "w");
                trace_report_text(r, devnull);
                trace_report_json(r, devnull);
                fclose(devnull);
                trace_report_free(r);
            } else {
                assert_memory_equal(err, "t.json", 6);
            }
        }
    free(copy);
}

static void refused(const char *text, const char *want)
{
    char err[512];
    struct trace_report *r = parse(text, strlen(text), err, sizeof err);
    if (r)
        fail_msg("accepted: %s", text);
    assert_string_equal(err, want);
}

static void test_broken_fields(void **state)
{
    (void)state;
    refused("", "t.json: empty file, not a trace");
    refused(" \n\t", "t.json: empty file, not a trace"); /* fuzz-report: read past the end */
    /* not JSON: read as the ftrace text, whose header is missing */
    refused("cpus=8\n", "t.json:1: not a trace: no JSON object, trace.dat magic or ftrace "
                        "\"# tracer:\" header");
    refused("{\"a\":\n", "t.json:2:0: unexpected token near end of file");
    refused("[]", "t.json:1: not a trace: no JSON object, trace.dat magic or ftrace "
                  "\"# tracer:\" header");
    refused("{}", "t.json: not a trace of asymu (no otherData.generator \"asymu\")");
    refused(HEAD "\"cpus\":0,\"aarch32\":\"\"},\"traceEvents\":[]}",
            "t.json: otherData: 'cpus' 0 is out of range 1-1024");
    refused(HEAD "\"cpus\":2,\"aarch32\":\"0-5\"},\"traceEvents\":[]}",
            "t.json: otherData: 'aarch32' \"0-5\": CPU 5 is out of range 0-1");
    refused(HEAD "\"cpus\":2,\"aarch32\":\"\",\"capacity\":[1024]},\"traceEvents\":[]}",
            "t.json: otherData: 'capacity' is not an array of 2 capacities");
    refused(HEAD "\"cpus\":2,\"aarch32\":\"\",\"capacity\":[1024,0]},\"traceEvents\":[]}",
            "t.json: otherData: 'capacity'[1] is not a capacity 1-1024");
    refused(HEAD "\"cpus\":2,\"aarch32\":\"\"}}", "t.json: no traceEvents array");
    refused(MACHINE "\"traceEvents\":[1]}", "t.json: traceEvents[0]: not an object");
    refused(MACHINE "\"traceEvents\":[{},{\"ph\":\"X\",\"tid\":4}]}",
            "t.json: traceEvents[0]: no string 'ph'");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"X\",\"tid\":4}]}",
            "t.json: traceEvents[0]: 'tid' 4 is out of range 0-3");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"X\",\"tid\":0,\"ts\":-1}]}",
            "t.json: traceEvents[0]: 'ts' -1 is out of range");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"X\",\"tid\":0,\"ts\":1e300}]}",
            "t.json: traceEvents[0]: 'ts' 1e+300 is out of range");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"X\",\"tid\":0,\"ts\":1,\"dur\":1}]}",
            "t.json: traceEvents[0]: no object 'args'");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"X\",\"tid\":0,\"ts\":1,\"dur\":1,\"args\":{"
                    "\"pid\":1,\"tid\":1,\"comm\":\"a\",\"isa\":\"x86\"}}]}",
            "t.json: traceEvents[0]: isa \"x86\" is neither aarch32 nor aarch64");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"X\",\"tid\":0,\"ts\":1,\"dur\":1,\"args\":{" A
                    ",\"end\":\"gone\"}}]}",
            "t.json: traceEvents[0]: run end \"gone\" is not runnable, moved, blocked or dead");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"i\",\"name\":\"migrate\",\"tid\":0,\"ts\":1,"
                    "\"args\":{" A ",\"from\":0,\"to\":9}}]}",
            "t.json: traceEvents[0]: 'to' 9 is out of range 0-3");
    refused(MACHINE "\"traceEvents\":[{\"ph\":\"i\",\"name\":\"affinity\",\"tid\":0,\"ts\":1,"
                    "\"args\":{" A
                    ",\"old\":\"0-3\",\"new\":\"x\",\"rule\":\"U8\",\"cause\":\"c\"}}]}",
            "t.json: traceEvents[0]: 'new' \"x\": expected a CPU number, found 'x'");
}

/* A trace of an asymu before the report (no run ends, no capacities) is
 * read: waiting is not known, every vCPU is 1024. */
static void test_old_trace(void **state)
{
    (void)state;
    static const char old[] =
        HEAD "\"cpus\":2,\"aarch32\":\"0\"},\"traceEvents\":[\n"
             "{\"name\":\"a\",\"ph\":\"X\",\"pid\":0,\"tid\":1,\"ts\":1.5,\"dur\":2.25,\"args\":{" A
             "}}\n]}\n";
    char err[512];
    struct trace_report *r = parse(old, strlen(old), err, sizeof err);
    assert_non_null(r);
    assert_true(r->old_trace);
    assert_int_equal(r->capacity[1], 1024);
    assert_int_equal(r->tasks[0].running, 2250);
    assert_int_equal(r->tasks[0].on_aarch64_only, 2250);
    trace_report_free(r);
}

/* The reason the scheduler recorded (args.reason) is the one counted, not
 * what the events around would suggest: a move to a bigger vCPU recorded
 * as balance stays balance; an exec's move shows the rule of its affinity
 * change; a reason without its affinity change shows as recorded. */
static void test_recorded_reason(void **state)
{
    (void)state;
    static const char t[] = MACHINE "\"traceEvents\":[\n"
        "{\"name\":\"a\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":0,\"dur\":1,\"args\":{" A
        ",\"end\":\"moved\"}},\n"
        "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":2,\"ts\":1,\"args\":{" A
        ",\"from\":0,\"to\":2,\"reason\":\"balance\"}},\n"
        "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":0,\"ts\":2,\"args\":{" A
        ",\"from\":2,\"to\":0,\"reason\":\"exec\"}},\n"
        "{\"name\":\"affinity\",\"ph\":\"i\",\"pid\":0,\"tid\":0,\"ts\":2,\"args\":{" A
        ",\"old\":\"0-3\",\"new\":\"0-1\",\"rule\":\"U1\",\"cause\":\"exec\"}},\n"
        "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":1,\"ts\":3,\"args\":{" A
        ",\"from\":0,\"to\":1,\"reason\":\"affinity\"}},\n"
        "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":3,\"ts\":4,\"args\":{" A
        ",\"from\":1,\"to\":3,\"reason\":\"hotplug\"}}\n"
        "]}\n";
    char err[512];
    struct trace_report *r = parse(t, strlen(t), err, sizeof err);
    assert_non_null(r);
    assert_int_equal(r->nr_tasks, 1);
    const struct report_task *a = &r->tasks[0];
    assert_int_equal(a->migrations, 4);
    /* by reason, in strcmp order */
    assert_int_equal(a->nr_reasons, 4);
    assert_string_equal(a->reasons[0].reason, "affinity");
    assert_string_equal(a->reasons[1].reason, "affinity U1");
    assert_string_equal(a->reasons[2].reason, "balance");
    assert_string_equal(a->reasons[3].reason, "hotplug");
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(a->reasons[i].count, 1);
    trace_report_free(r);
    /* a reason that is not a string is refused, naming the event */
    static const char bad[] = MACHINE "\"traceEvents\":[\n"
        "{\"name\":\"migrate\",\"ph\":\"i\",\"pid\":0,\"tid\":2,\"ts\":1,\"args\":{" A
        ",\"from\":0,\"to\":2,\"reason\":7}}]}";
    assert_null(parse(bad, strlen(bad), err, sizeof err));
    assert_non_null(strstr(err, "traceEvents[0]"));
    assert_non_null(strstr(err, "reason"));
}

/* No event at all: an empty report (fuzz-report: qsort of no runs). */
static void test_no_events(void **state)
{
    (void)state;
    static const char none[] = MACHINE "\"traceEvents\":[]}";
    char err[512];
    struct trace_report *r = parse(none, strlen(none), err, sizeof err);
    assert_non_null(r);
    assert_int_equal(r->nr_tasks, 0);
    assert_int_equal(r->end - r->start, 0);
    assert_int_equal(r->cpus[3].idle, 0);
    trace_report_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answer), cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_every_byte),   cmocka_unit_test(test_broken_fields),
        cmocka_unit_test(test_old_trace),    cmocka_unit_test(test_no_events),
        cmocka_unit_test(test_recorded_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
