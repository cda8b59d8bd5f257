/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-trace-dat.c - the trace.dat writer (trace/trace_dat.c) and the event
 * formats (trace/event_formats.c) read back by Debian's libtraceevent and
 * libtracecmd (issue 28 item 2): every format parses with the offsets the
 * table states; a trace of many events over several pages, with gaps that
 * need the ring buffer's time extends and a record too long for a small
 * header, gives back every record with its exact time, vCPU and fields;
 * the records the ftrace text derives (sched_waking, cpu_idle) are there,
 * on the vCPUs the text puts them on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sched.h> /* cpu_set_t, which trace-cmd.h uses */
#include <trace-cmd.h>

#include "cpumask.h"
#include "event_formats.h"
#include "trace.h"

/* Every format parses, with the table's fields at the table's offsets,
 * and the ring buffer's page header says 64-bit commits. */
static void formats_parse(void **state)
{
    (void)state;
    struct tep_handle *tep = tep_alloc();
    assert_non_null(tep);
    char page[512];
    snprintf(page, sizeof page, "%s", event_header_page);
    assert_int_equal(tep_parse_header_page(tep, page, strlen(page), 8), 0);
    for (unsigned i = 0; i < EVENT_COUNT; i++) {
        const struct event_format *e = &event_formats[i];
        char text[4096];
        size_t n = event_format_text(e, text, sizeof text);
        assert_true(n < sizeof text);
        assert_int_equal(tep_parse_event(tep, text, n, e->system), 0);
        struct tep_event *ev = tep_find_event(tep, (int)event_format_id(e));
        assert_non_null(ev);
        assert_string_equal(ev->name, e->name);
        assert_string_equal(ev->system, e->system);
        assert_int_equal(ev->format.nr_fields, e->nr_fields);
        assert_int_equal(ev->format.nr_common, 4);
        for (unsigned f = 0; f < e->nr_fields; f++) {
            struct tep_format_field *field = ev->format.fields;
            for (unsigned k = 0; k < f; k++)
                field = field->next;
            assert_int_equal(field->offset, e->fields[f].offset);
            assert_int_equal(field->size, e->fields[f].size);
            assert_true(strstr(e->fields[f].decl, field->name) != NULL);
        }
        /* The fixed part ends where the last field does. */
        const struct event_field *last = &e->fields[e->nr_fields - 1];
        assert_true(last->offset + last->size <= e->size &&
                    e->size - (last->offset + last->size) < 8);
    }
    tep_free(tep);
}

/* The format file's text of sched_switch, as an arm64 5.15 kernel gives it. */
static void sched_switch_text(void **state)
{
    (void)state;
    char text[4096];
    event_format_text(event_format_find("sched", "sched_switch"), text, sizeof text);
    const char *want =
        "name: sched_switch\nID: 300\nformat:\n"
        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
        "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
        "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
        "\n"
        "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
        "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
        "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
        "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
        "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
        "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
        "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
        "\n"
        "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
        "next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
        "REC->prev_prio, (REC->prev_state & ((((0x0000 | 0x0001 | 0x0002 | 0x0004 "
        "| 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1)) ? "
        "__print_flags(REC->prev_state & ((((0x0000 | 0x0001 | 0x0002 | 0x0004 | "
        "0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1), \"|\", { 0x0001, \"S\" "
        "}, { 0x0002, \"D\" }, { 0x0004, \"T\" }, { 0x0008, \"t\" }, { 0x0010, "
        "\"X\" }, { 0x0020, \"Z\" }, { 0x0040, \"P\" }, { 0x0080, \"I\" }) : "
        "\"R\", REC->prev_state & (((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | "
        "0x0010 | 0x0020 | 0x0040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
        "REC->next_pid, REC->next_prio\n";
    assert_string_equal(text, want);
    /* Truncation: the whole length, a NUL-terminated prefix. */
    char small[10];
    assert_int_equal(
        event_format_text(event_format_find("sched", "sched_switch"), small, sizeof small),
        strlen(want));
    assert_string_equal(small, "name: sch");
    assert_null(event_format_find("sched", "no_such_event"));
}

#define SWITCHES 3000
#define LONG_PATH 300

/* Switch i: on vCPU i % 2, at a time with gaps up to 2^30 ns (past the
 * 27 bits of a record's delta), from tid 100 + i to 100 + i + 1. */
static uint64_t switch_ts(unsigned i)
{
    return 1000u * i + (uint64_t)(i / 500) * (UINT64_C(1) << 30);
}

static struct mevent switch_event(unsigned i)
{
    struct mevent ev = {.kind = MEVENT_SWITCH, .ts_ns = switch_ts(i), .cpu = i % 2};
    ev.task = (struct mevent_task){.tid = 101 + (int)i, .tgid = 1, .prio = 120};
    snprintf(ev.task.comm, sizeof ev.task.comm, "w%u", i + 1);
    ev.sw.prev = (struct mevent_task){.tid = 100 + (int)i, .tgid = 1, .prio = 120};
    snprintf(ev.sw.prev.comm, sizeof ev.sw.prev.comm, "w%u", i);
    ev.sw.prev_end = MEVENT_END_BLOCKED;
    return ev;
}

static void str_field(struct tep_event *ev, struct tep_record *rec, const char *name,
                      const char *want);

static unsigned long long field(struct tep_event *ev, struct tep_record *rec, const char *name)
{
    unsigned long long v = 0;
    struct tep_format_field *f = tep_find_any_field(ev, name);
    assert_non_null(f);
    assert_int_equal(tep_read_number_field(f, rec->data, &v), 0);
    return v;
}

static void roundtrip(void **state)
{
    (void)state;
    char path[] = "/tmp/asymu-test-trace-dat-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    struct trace_machine m = {.nr_cpus = 2, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_DAT, out, &m);
    assert_non_null(w);
    /* An exec with a long path first, on vCPU 1: a record past 112 bytes. */
    char exec_path[LONG_PATH + 1];
    memset(exec_path, 'p', LONG_PATH);
    exec_path[0] = '/';
    exec_path[LONG_PATH] = '\0';
    struct mevent exec = {.kind = MEVENT_EXEC, .ts_ns = 0, .cpu = 1};
    exec.task = (struct mevent_task){.tid = 7, .tgid = 7, .prio = 120};
    strcpy(exec.task.comm, "exec");
    exec.exec.path = exec_path;
    exec.exec.old_tid = 7;
    trace_writer_event(w, &exec);
    /* Switches given in reverse: the writer orders them by time. */
    for (unsigned i = SWITCHES; i-- > 0;) {
        struct mevent ev = switch_event(i);
        trace_writer_event(w, &ev);
    }
    assert_int_equal(trace_writer_dropped(w), 0);
    assert_int_equal(trace_writer_finish(w), 0);

    struct tracecmd_input *in = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    assert_non_null(in);
    struct tep_handle *tep = tracecmd_get_tep(in);
    unsigned seen[2] = {0, 0};
    bool exec_seen = false, machine_seen = false;
    for (int cpu = 0; cpu < 2; cpu++) {
        for (struct tep_record *rec = tracecmd_read_cpu_first(in, cpu); rec;
             rec = tracecmd_read_data(in, cpu)) {
            struct tep_event *ev = tep_find_event_by_record(tep, rec);
            assert_non_null(ev);
            if (strcmp(ev->name, "asymu_machine") == 0) {
                /* the machine, first at time 0 (`asymu report` reads it) */
                assert_int_equal(cpu, 0);
                assert_int_equal(rec->ts, 0);
                assert_int_equal(seen[0], 0);
                assert_int_equal(field(ev, rec, "cpus"), 2);
                assert_int_equal(field(ev, rec, "seed"), 0);
                str_field(ev, rec, "aarch32", "");
                str_field(ev, rec, "policy", "upstream");
                str_field(ev, rec, "capacity", "1024,1024");
                machine_seen = true;
            } else if (strcmp(ev->name, "sched_process_exec") == 0) {
                assert_int_equal(cpu, 1);
                assert_false(exec_seen);
                exec_seen = true;
                assert_int_equal(rec->ts, 0);
                int len = 0;
                const char *name = tep_get_field_raw(NULL, ev, "filename", rec, &len, 0);
                assert_non_null(name);
                assert_int_equal(len, LONG_PATH + 1);
                assert_string_equal(name, exec_path);
                assert_int_equal(field(ev, rec, "pid"), 7);
            } else {
                assert_string_equal(ev->name, "sched_switch");
                unsigned i = seen[cpu]++ * 2 + (unsigned)cpu;
                assert_int_equal(rec->ts, switch_ts(i));
                assert_int_equal(field(ev, rec, "prev_pid"), 100 + i);
                assert_int_equal(field(ev, rec, "next_pid"), 101 + i);
                assert_int_equal(field(ev, rec, "prev_state"), EVENT_STATE_INTERRUPTIBLE);
                assert_int_equal(field(ev, rec, "common_pid"), 100 + i);
                char want[16];
                snprintf(want, sizeof want, "w%u", i + 1);
                assert_string_equal((char *)rec->data + 40, want);
            }
            tracecmd_free_record(rec);
        }
    }
    assert_true(exec_seen);
    assert_true(machine_seen);
    assert_int_equal(seen[0], SWITCHES / 2);
    assert_int_equal(seen[1], SWITCHES / 2);
    /* saved cmdlines: each tid's last name. */
    assert_string_equal(tep_data_comm_from_pid(tep, 100 + SWITCHES), "w3000");
    assert_string_equal(tep_data_comm_from_pid(tep, 7), "exec");
    tracecmd_close(in);
    unlink(path);
}

/* The next record of cpu: its event's name, common_pid and time. */
static struct tep_record *next_rec(struct tracecmd_input *in, int cpu, bool first, const char *name,
                                   int pid, uint64_t ts, struct tep_event **ev)
{
    struct tep_record *rec = first ? tracecmd_read_cpu_first(in, cpu) : tracecmd_read_data(in, cpu);
    assert_non_null(rec);
    *ev = tep_find_event_by_record(tracecmd_get_tep(in), rec);
    assert_non_null(*ev);
    assert_string_equal((*ev)->name, name);
    assert_int_equal(field(*ev, rec, "common_pid"), pid);
    assert_int_equal(rec->ts, ts);
    return rec;
}

static void str_field(struct tep_event *ev, struct tep_record *rec, const char *name,
                      const char *want)
{
    int len = 0;
    const char *s = tep_get_field_raw(NULL, ev, name, rec, &len, 0);
    assert_non_null(s);
    assert_string_equal(s, want);
}

/* The records the ftrace text derives (trace_lines.c) and their vCPUs:
 * cpu_idle around the idle task, sched_waking on the waker's vCPU before
 * sched_wakeup on the target's, asymu_affinity on the caller's, each with
 * the task that vCPU runs as common_pid; asymu's events with the text's
 * field names. */
static void derived(void **state)
{
    (void)state;
    char path[] = "/tmp/asymu-test-trace-dat-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    struct trace_machine m = {.nr_cpus = 2, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_DAT, out, &m);
    assert_non_null(w);
    struct mevent_task a = {.tid = 5, .tgid = 5, .prio = 120, .comm = "a"};
    struct mevent_task b = {.tid = 6, .tgid = 6, .prio = 120, .comm = "b"};
    struct mevent sw = {.kind = MEVENT_SWITCH, .ts_ns = 10, .cpu = 0, .task = a};
    sw.sw.prev = (struct mevent_task){.tid = 0, .prio = 120};
    sw.sw.prev_end = MEVENT_END_RUNNABLE;
    trace_writer_event(w, &sw);
    struct mevent wake = {.kind = MEVENT_WAKEUP, .ts_ns = 20, .cpu = 1, .src_cpu = 0, .task = b};
    trace_writer_event(w, &wake);
    struct cpumask old, new_mask;
    cpumask_clear(&old);
    cpumask_set_cpu(0, &old);
    cpumask_set_cpu(1, &old);
    cpumask_clear(&new_mask);
    cpumask_set_cpu(1, &new_mask);
    struct mevent aff = {.kind = MEVENT_AFFINITY, .ts_ns = 30, .cpu = 1, .src_cpu = 0, .task = b};
    aff.affinity.old_mask = &old;
    aff.affinity.new_mask = &new_mask;
    aff.affinity.cause = MEVENT_CAUSE_SETAFFINITY;
    aff.affinity.rule = "U1";
    trace_writer_event(w, &aff);
    struct mevent kill = {.kind = MEVENT_KILL, .ts_ns = 40, .cpu = 0, .src_cpu = 0, .task = a};
    kill.kill.rule = "K2";
    trace_writer_event(w, &kill);
    assert_int_equal(trace_writer_finish(w), 0);

    struct tracecmd_input *in = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    assert_non_null(in);
    struct tep_event *ev;
    struct tep_record *rec = next_rec(in, 0, true, "asymu_machine", 0, 0, &ev);
    tracecmd_free_record(rec);
    rec = next_rec(in, 0, false, "cpu_idle", 0, 10, &ev);
    assert_int_equal(field(ev, rec, "state"), 4294967295u);
    assert_int_equal(field(ev, rec, "cpu_id"), 0);
    tracecmd_free_record(rec);
    rec = next_rec(in, 0, false, "sched_switch", 0, 10, &ev);
    tracecmd_free_record(rec);
    rec = next_rec(in, 0, false, "sched_waking", 5, 20, &ev);
    assert_int_equal(field(ev, rec, "pid"), 6);
    assert_int_equal(field(ev, rec, "target_cpu"), 1);
    tracecmd_free_record(rec);
    rec = next_rec(in, 0, false, "asymu_affinity", 5, 30, &ev);
    assert_string_equal(ev->system, "asymu");
    assert_int_equal(field(ev, rec, "pid"), 6);
    str_field(ev, rec, "old_cpus", "0-1");
    str_field(ev, rec, "cpus", "1");
    str_field(ev, rec, "cause", "sched_setaffinity");
    str_field(ev, rec, "rule", "U1");
    tracecmd_free_record(rec);
    rec = next_rec(in, 0, false, "asymu_kill", 5, 40, &ev);
    assert_int_equal(field(ev, rec, "pid"), 5);
    assert_int_equal(field(ev, rec, "sig"), 9);
    str_field(ev, rec, "rule", "K2");
    tracecmd_free_record(rec);
    assert_null(tracecmd_read_data(in, 0));
    rec = next_rec(in, 1, true, "sched_wakeup", 0, 20, &ev);
    assert_int_equal(field(ev, rec, "pid"), 6);
    tracecmd_free_record(rec);
    /* asymu_report of the wake-up and the affinity change, on the vCPU the
     * JSON trace puts them on (the task's), with their order (seq) */
    rec = next_rec(in, 1, false, "asymu_report", 0, 20, &ev);
    str_field(ev, rec, "what", "wakeup");
    assert_int_equal(field(ev, rec, "seq"), 0);
    assert_int_equal(field(ev, rec, "pid"), 6);
    assert_int_equal(field(ev, rec, "ts_ns"), 20);
    str_field(ev, rec, "isa", "aarch64");
    str_field(ev, rec, "why", "wakeup");
    tracecmd_free_record(rec);
    rec = next_rec(in, 1, false, "asymu_report", 0, 30, &ev);
    str_field(ev, rec, "what", "affinity");
    assert_int_equal(field(ev, rec, "seq"), 1);
    assert_int_equal(field(ev, rec, "cpu"), 1);
    str_field(ev, rec, "old_cpus", "0-1");
    str_field(ev, rec, "cpus", "1");
    str_field(ev, rec, "rule", "U1");
    str_field(ev, rec, "why", "sched_setaffinity");
    tracecmd_free_record(rec);
    assert_null(tracecmd_read_data(in, 1));
    tracecmd_close(in);
    unlink(path);
}

/* A trace without events (tracing turned off over the control socket from
 * the start) is still a file trace-cmd opens: headers, and the machine's
 * asymu_machine alone. */
static void empty(void **state)
{
    (void)state;
    char path[] = "/tmp/asymu-test-trace-dat-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    struct trace_machine m = {.nr_cpus = 4, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_DAT, out, &m);
    assert_non_null(w);
    assert_int_equal(trace_writer_finish(w), 0);
    struct tracecmd_input *in = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    assert_non_null(in);
    /* only the machine, on cpu 0 */
    struct tep_record *rec = tracecmd_read_cpu_first(in, 0);
    assert_non_null(rec);
    assert_string_equal(tep_find_event_by_record(tracecmd_get_tep(in), rec)->name,
                        "asymu_machine");
    tracecmd_free_record(rec);
    assert_null(tracecmd_read_data(in, 0));
    for (int cpu = 1; cpu < 4; cpu++)
        assert_null(tracecmd_read_cpu_first(in, cpu));
    assert_non_null(tep_find_event_by_name(tracecmd_get_tep(in), "sched", "sched_switch"));
    tracecmd_close(in);
    unlink(path);
}

/* Past its budget the writer keeps what came first and counts the rest. */
static void budget(void **state)
{
    (void)state;
    char *data = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&data, &size);
    assert_non_null(out);
    struct trace_machine m = {.nr_cpus = 2, .policy = "upstream"};
    struct trace_writer *w = trace_writer_new(TRACE_FORMAT_DAT, out, &m);
    trace_writer_keep_max(w, 64 << 10);
    for (unsigned i = 0; i < SWITCHES; i++) {
        struct mevent ev = switch_event(i);
        trace_writer_event(w, &ev);
    }
    uint64_t dropped = trace_writer_dropped(w);
    assert_true(dropped > 0 && dropped < SWITCHES);
    assert_int_equal(trace_writer_finish(w), 0);
    assert_true(size > 4096 && size % 4096 == 0);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(formats_parse), cmocka_unit_test(sched_switch_text),
        cmocka_unit_test(roundtrip),     cmocka_unit_test(empty),
        cmocka_unit_test(budget),        cmocka_unit_test(derived),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
