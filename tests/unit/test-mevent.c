/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-mevent.c - the machine's event stream (sched/mevent.h): nothing is
 * wanted without subscribers, the switches a vCPU's runs imply, and the
 * scheduler's events with the rule behind each affinity change and kill. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "scheduler.h"

#include "sched-fixture.h"

/* Every event received, one line each. */
static char got[8192];

static void record(void *ctx, const struct mevent *ev)
{
    (void)ctx;
    size_t at = strlen(got);
    char *p = got + at;
    size_t left = sizeof(got) - at;
    switch (ev->kind) {
    case MEVENT_SWITCH:
        snprintf(p, left, "%llu cpu%u switch %d(%d) -> %d\n", (unsigned long long)ev->ts_ns,
                 ev->cpu, ev->sw.prev.tid, ev->sw.prev_end, ev->task.tid);
        break;
    case MEVENT_AFFINITY:
        snprintf(p, left, "affinity %d %s -> %s %s %s\n", ev->task.tid,
                 list_of(ev->affinity.old_mask), list_of(ev->affinity.new_mask), ev->affinity.rule,
                 mevent_cause_name(ev->affinity.cause));
        break;
    case MEVENT_KILL:
        snprintf(p, left, "kill %d %s cpu%u\n", ev->task.tid, ev->kill.rule, ev->cpu);
        break;
    case MEVENT_MIGRATE:
        snprintf(p, left, "migrate %d %u -> %u\n", ev->task.tid, ev->migrate.from, ev->migrate.to);
        break;
    case MEVENT_HOTPLUG:
        snprintf(p, left, "cpu%u %s\n", ev->cpu, ev->hotplug.online ? "online" : "offline");
        break;
    default:
        snprintf(p, left, "%s %d\n", mevent_kind_name(ev->kind), ev->task.tid);
        break;
    }
}

static void test_nothing_wanted_without_subscribers(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    for (int k = 0; k < MEVENT_KIND_COUNT; k++)
        assert_false(mevent_wanted(&vm->s.events, (enum mevent_kind)k));
    assert_int_equal(mevent_subscribe(&vm->s.events, MEVENT_BIT(MEVENT_KILL), record, NULL), 0);
    assert_true(mevent_wanted(&vm->s.events, MEVENT_KILL));
    assert_false(mevent_wanted(&vm->s.events, MEVENT_EXEC));
    shutdown_vm(vm);
}

static void run(struct mevent_bus *bus, unsigned cpu, int tid, uint64_t start, uint64_t end,
                enum mevent_run_end how)
{
    struct mevent ev = {.kind = MEVENT_RUN, .ts_ns = start, .cpu = cpu, .task = {.tid = tid}};
    ev.run.end_ns = end;
    ev.run.end = how;
    mevent_emit(bus, &ev);
}

/* A vCPU switches when another task runs, or at the time the last one
 * left: straight to the next if it starts then, else through idle. */
static void test_switches_from_runs(void **state)
{
    (void)state;
    struct mevent_bus bus = {.nr_cpus = 2};
    got[0] = '\0';
    assert_int_equal(mevent_subscribe(&bus, MEVENT_BIT(MEVENT_SWITCH), record, NULL), 0);
    assert_true(mevent_wanted(&bus, MEVENT_RUN));
    run(&bus, 0, 1, 0, 10, MEVENT_END_RUNNABLE);
    run(&bus, 0, 1, 10, 20, MEVENT_END_RUNNABLE); /* goes on: no switch */
    run(&bus, 0, 2, 20, 30, MEVENT_END_BLOCKED);
    run(&bus, 0, 1, 30, 40, MEVENT_END_RUNNABLE); /* 2 left at 30, 1 starts at 30 */
    run(&bus, 1, 3, 5, 15, MEVENT_END_MOVED);
    run(&bus, 0, 1, 40, 50, MEVENT_END_DEAD);
    run(&bus, 1, 3, 25, 35, MEVENT_END_RUNNABLE); /* 3 left cpu1 at 15: idle until 25 */
    mevent_close(&bus);
    assert_string_equal(got, "0 cpu0 switch 0(0) -> 1\n"
                             "20 cpu0 switch 1(0) -> 2\n"
                             "30 cpu0 switch 2(1) -> 1\n"
                             "5 cpu1 switch 0(0) -> 3\n"
                             "15 cpu1 switch 3(3) -> 0\n"
                             "25 cpu1 switch 0(0) -> 3\n"
                             "50 cpu0 switch 1(2) -> 0\n");
    assert_false(mevent_wanted(&bus, MEVENT_RUN));
}

/* Each affinity change names its rule and cause: U8 and U4 for
 * sched_setaffinity, U1 for a 32-bit exec, U3 for the 64-bit restore,
 * 3.1 for a child's inherited mask. */
static void test_affinity_rules_upstream(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    got[0] = '\0';
    assert_int_equal(mevent_subscribe(&vm->s.events, MEVENT_BIT(MEVENT_AFFINITY), record, NULL), 0);
    struct sched_task t, child;
    sched_task_init(&vm->s, &t, 1, 1, "init");
    assert_int_equal(setaff(vm, &t, "2,5"), 0);
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    assert_int_equal(sched_task_fork(&vm->s, &t, &child, 2, 2), 0);
    assert_int_equal(setaff(vm, &t, "1-2,6"), 0);
    assert_int_equal(sched_task_exec(&vm->s, &t, false), 0);
    assert_string_equal(got, "affinity 1 0-7 -> 2,5 U8 sched_setaffinity\n"
                             "affinity 1 2,5 -> 2 U1 exec\n"
                             "affinity 2 0-7 -> 2 3.1 fork inheritance\n"
                             "affinity 1 2 -> 1-2 U4 sched_setaffinity\n");
    shutdown_vm(vm);
}

/* kill: a compat task on a 64-bit-only vCPU is killed by K2, and by H2
 * once M has no online CPU. */
static void test_kill_rules(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_KILL);
    got[0] = '\0';
    assert_int_equal(mevent_subscribe(&vm->s.events, MEVENT_BIT(MEVENT_KILL), record, NULL), 0);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "init");
    assert_int_equal(setaff(vm, &t, "5"), 0);
    assert_int_equal(sched_task_exec(&vm->s, &t, true), 0);
    struct sched_task *picked;
    unsigned cpu;
    assert_int_equal(sched_pick(&vm->s, &picked, &cpu), SCHED_KILL);
    assert_string_equal(got, "kill 1 K2 cpu5\n");
    shutdown_vm(vm);
}

/* Offlining a vCPU moves its tasks (migrate), then reports the hotplug. */
static void test_hotplug_migrates(void **state)
{
    (void)state;
    struct vm *vm = boot(8, "0-3", true, SCHED_POLICY_UPSTREAM);
    struct sched_task t;
    sched_task_init(&vm->s, &t, 1, 1, "init");
    assert_int_equal(setaff(vm, &t, "3,6"), 0);
    got[0] = '\0';
    assert_int_equal(mevent_subscribe(&vm->s.events,
                                      MEVENT_BIT(MEVENT_MIGRATE) | MEVENT_BIT(MEVENT_HOTPLUG),
                                      record, NULL),
                     0);
    assert_int_equal(sched_cpu_offline(&vm->s, t.cpu), 0);
    assert_int_equal(sched_cpu_online(&vm->s, 3), 0);
    assert_string_equal(got, "migrate 1 3 -> 6\ncpu3 offline\ncpu3 online\n");
    shutdown_vm(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_wanted_without_subscribers),
        cmocka_unit_test(test_switches_from_runs),
        cmocka_unit_test(test_affinity_rules_upstream),
        cmocka_unit_test(test_kill_rules),
        cmocka_unit_test(test_hotplug_migrates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
