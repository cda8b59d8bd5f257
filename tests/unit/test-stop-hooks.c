/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-stop-hooks.c - the debuggers' interface (emu/kernel/stop_hooks.h,
 * issue 25 item 1): machine_boot puts guest ptrace in the first slot and
 * nothing in the host's (gdb's, while --gdb listens); each stop_hooks_*
 * call asks the slots in order, the first debugger that stops a task
 * having it (signal_stop, syscall_enter, exit_stop, traces) or every one
 * being told (syscall_exit, exec, clone, group_stop, process_exit) or
 * asked (block), a missing hook skipped; so do the machine layer's calls
 * around a slice (hold_machine, hold_task, machine_stopping, single_step
 * the first true; before_slice, after_slice, step_done every one). Guest
 * ptrace answers them: a stopped tracee is held until its tracer restarts
 * it, and a PTRACE_SINGLESTEP slice ends with the step's SIGTRAP. Through
 * the kernel layer itself:
 * a fork is told to the host's debugger, a tracee's signal stops it for
 * its ptrace tracer and never reaches the host's debugger while an
 * untraced task's does, a fatal signal waits for a debugger that traces
 * the task, a process's end reaches the debugger before its parent's
 * SIGCHLD. The host's debugger here is a recording fake; the machine is
 * kernel-fixture.h's, the children do_clone's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>

#include "kernel-fixture.h"
#include "lifetime.h"
#include "ptrace.h"
#include "signals.h"
#include "stop_hooks.h"

#define FORK_FLAGS 17 /* SIGCHLD: fork */
#define PT_TRACEME 0
#define PT_SINGLESTEP 9

static struct kfix *k;

/* What the fakes were asked, in order ("G" the guest slot's, "H" the
 * host's), and what they answer. */
static char calls[512];
static bool guest_says, host_says;
static struct task *last_child;
static bool parent_had_sigchld;

static void note(const char *who, const char *what)
{
    strncat(calls, who, sizeof calls - strlen(calls) - 1);
    strncat(calls, what, sizeof calls - strlen(calls) - 1);
    strncat(calls, " ", sizeof calls - strlen(calls) - 1);
}

#define FAKE(slot, said)                                                                           \
    static bool slot##_traces(const struct task *t)                                                \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":traces");                                                                    \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_signal_stop(struct task *t, int sig)                                        \
    {                                                                                              \
        (void)t, (void)sig;                                                                        \
        note(#slot, ":signal");                                                                    \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_syscall_enter(struct task *t, uint64_t nr, const uint64_t a[6])             \
    {                                                                                              \
        (void)t, (void)nr, (void)a;                                                                \
        note(#slot, ":enter");                                                                     \
        return said;                                                                               \
    }                                                                                              \
    static void slot##_syscall_exit(struct task *t, bool exec_done, int64_t ret)                   \
    {                                                                                              \
        (void)t, (void)exec_done, (void)ret;                                                       \
        note(#slot, ":exit");                                                                      \
    }                                                                                              \
    static void slot##_exec(struct task *t)                                                        \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":exec");                                                                      \
    }                                                                                              \
    static void slot##_clone(struct task *p, struct task *c, uint64_t flags)                       \
    {                                                                                              \
        (void)p, (void)flags;                                                                      \
        last_child = c;                                                                            \
        note(#slot, ":clone");                                                                     \
    }                                                                                              \
    static bool slot##_exit_stop(struct task *t, int status)                                       \
    {                                                                                              \
        (void)t, (void)status;                                                                     \
        note(#slot, ":exitstop");                                                                  \
        return said;                                                                               \
    }                                                                                              \
    static void slot##_group_stop(struct task *t, int sig)                                         \
    {                                                                                              \
        (void)t, (void)sig;                                                                        \
        note(#slot, ":group");                                                                     \
    }                                                                                              \
    static void slot##_process_exit(struct process *p)                                             \
    {                                                                                              \
        parent_had_sigchld = p->parent && (p->parent->pending.set & SIGBIT(SIGCHLD));              \
        note(#slot, ":zombie");                                                                    \
    }                                                                                              \
    static bool slot##_block(struct machine *m)                                                    \
    {                                                                                              \
        (void)m;                                                                                   \
        note(#slot, ":block");                                                                     \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_hold_machine(struct machine *m)                                             \
    {                                                                                              \
        (void)m;                                                                                   \
        note(#slot, ":holdm");                                                                     \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_hold_task(struct task *t)                                                   \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":holdt");                                                                     \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_machine_stopping(const struct machine *m)                                   \
    {                                                                                              \
        (void)m;                                                                                   \
        note(#slot, ":stopping");                                                                  \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_single_step(const struct task *t)                                           \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":step");                                                                      \
        return said;                                                                               \
    }                                                                                              \
    static bool slot##_watch_blocks(const struct machine *m)                                       \
    {                                                                                              \
        (void)m;                                                                                   \
        note(#slot, ":watch");                                                                     \
        return said;                                                                               \
    }                                                                                              \
    static void slot##_before_slice(struct task *t)                                                \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":before");                                                                    \
    }                                                                                              \
    static void slot##_after_slice(struct task *t)                                                 \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":after");                                                                     \
    }                                                                                              \
    static void slot##_step_done(struct task *t)                                                   \
    {                                                                                              \
        (void)t;                                                                                   \
        note(#slot, ":stepdone");                                                                  \
    }                                                                                              \
    static const struct stop_hooks slot##_hooks = {                                                \
        .traces = slot##_traces,                                                                   \
        .signal_stop = slot##_signal_stop,                                                         \
        .syscall_enter = slot##_syscall_enter,                                                     \
        .syscall_exit = slot##_syscall_exit,                                                       \
        .exec = slot##_exec,                                                                       \
        .clone = slot##_clone,                                                                     \
        .exit_stop = slot##_exit_stop,                                                             \
        .group_stop = slot##_group_stop,                                                           \
        .process_exit = slot##_process_exit,                                                       \
        .block = slot##_block,                                                                     \
        .hold_machine = slot##_hold_machine,                                                       \
        .hold_task = slot##_hold_task,                                                             \
        .machine_stopping = slot##_machine_stopping,                                               \
        .single_step = slot##_single_step,                                                         \
        .watch_blocks = slot##_watch_blocks,                                                       \
        .before_slice = slot##_before_slice,                                                       \
        .after_slice = slot##_after_slice,                                                         \
        .step_done = slot##_step_done,                                                             \
    };

FAKE(G, guest_says)
FAKE(H, host_says)

/* A host debugger with a signal stop only. */
static const struct stop_hooks host_signal_only = {.signal_stop = H_signal_stop};

static int setup(void **state)
{
    (void)state;
    k = kf_boot(LOADER_ISA_AARCH64);
    calls[0] = '\0';
    guest_says = host_says = false;
    last_child = NULL;
    parent_had_sigchld = true;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kf_shutdown(k);
    return 0;
}

static void test_boot_slots(void **state)
{
    (void)state;
    assert_ptr_equal(k->m.stop_hooks[STOP_HOOKS_GUEST], &ptrace_stop_hooks);
    assert_null(k->m.stop_hooks[STOP_HOOKS_HOST]);
    /* Nobody traces pid 1: nothing holds it or the machine. */
    assert_false(stop_hooks_traces(k->init));
    assert_false(stop_hooks_block(&k->m));
    assert_false(stop_hooks_hold_machine(&k->m));
    assert_false(stop_hooks_hold_task(k->init));
    assert_false(stop_hooks_machine_stopping(&k->m));
    assert_false(stop_hooks_single_step(k->init));
    assert_false(stop_hooks_watch_blocks(&k->m));
}

/* The first that stops the task has it; the later ones are not asked. */
static void test_first_stop_wins(void **state)
{
    (void)state;
    struct task *t = k->init;
    const uint64_t a[6] = {0};
    stop_hooks_set(&k->m, STOP_HOOKS_GUEST, &G_hooks);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    guest_says = true;
    assert_true(stop_hooks_signal_stop(t, SIGUSR1));
    assert_true(stop_hooks_syscall_enter(t, 172, a));
    assert_true(stop_hooks_exit_stop(t, SIGTERM));
    assert_true(stop_hooks_traces(t));
    assert_string_equal(calls, "G:signal G:enter G:exitstop G:traces ");
    calls[0] = '\0';
    guest_says = false;
    host_says = true;
    assert_true(stop_hooks_signal_stop(t, SIGUSR1));
    assert_true(stop_hooks_syscall_enter(t, 172, a));
    assert_true(stop_hooks_exit_stop(t, SIGTERM));
    assert_true(stop_hooks_traces(t));
    assert_string_equal(calls, "G:signal H:signal G:enter H:enter G:exitstop H:exitstop "
                               "G:traces H:traces ");
    calls[0] = '\0';
    host_says = false;
    assert_false(stop_hooks_signal_stop(t, SIGUSR1));
    assert_false(stop_hooks_traces(t));
    assert_string_equal(calls, "G:signal H:signal G:traces H:traces ");
}

/* Events reach every debugger, the guest's tracer first; every single
 * step is asked at a block, whichever ends. */
static void test_every_one_told(void **state)
{
    (void)state;
    struct task *t = k->init;
    stop_hooks_set(&k->m, STOP_HOOKS_GUEST, &G_hooks);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    stop_hooks_syscall_exit(t, true, 0);
    stop_hooks_exec(t);
    stop_hooks_clone(t, t, FORK_FLAGS);
    stop_hooks_group_stop(t, SIGSTOP);
    stop_hooks_process_exit(t->proc);
    assert_string_equal(calls, "G:exit H:exit G:exec H:exec G:clone H:clone G:group H:group "
                               "G:zombie H:zombie ");
    calls[0] = '\0';
    guest_says = true;
    assert_true(stop_hooks_block(&k->m));
    guest_says = false;
    host_says = true;
    assert_true(stop_hooks_block(&k->m));
    host_says = false;
    assert_false(stop_hooks_block(&k->m));
    assert_string_equal(calls, "G:block H:block G:block H:block G:block H:block ");
}

/* run_slice's questions (run.c): the first debugger that holds the
 * machine or the task, has a stop on its way or makes the slice a step
 * has it; the later ones are not asked. */
static void test_slice_first_wins(void **state)
{
    (void)state;
    struct task *t = k->init;
    stop_hooks_set(&k->m, STOP_HOOKS_GUEST, &G_hooks);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    guest_says = true;
    assert_true(stop_hooks_hold_machine(&k->m));
    assert_true(stop_hooks_hold_task(t));
    assert_true(stop_hooks_machine_stopping(&k->m));
    assert_true(stop_hooks_single_step(t));
    assert_true(stop_hooks_watch_blocks(&k->m));
    assert_string_equal(calls, "G:holdm G:holdt G:stopping G:step G:watch ");
    calls[0] = '\0';
    guest_says = false;
    host_says = true;
    assert_true(stop_hooks_hold_machine(&k->m));
    assert_true(stop_hooks_hold_task(t));
    assert_true(stop_hooks_machine_stopping(&k->m));
    assert_true(stop_hooks_single_step(t));
    assert_true(stop_hooks_watch_blocks(&k->m));
    assert_string_equal(calls, "G:holdm H:holdm G:holdt H:holdt G:stopping H:stopping "
                               "G:step H:step G:watch H:watch ");
    calls[0] = '\0';
    host_says = false;
    assert_false(stop_hooks_hold_machine(&k->m));
    assert_false(stop_hooks_hold_task(t));
    assert_false(stop_hooks_machine_stopping(&k->m));
    assert_false(stop_hooks_single_step(t));
    assert_false(stop_hooks_watch_blocks(&k->m));
    assert_string_equal(calls, "G:holdm H:holdm G:holdt H:holdt G:stopping H:stopping "
                               "G:step H:step G:watch H:watch ");
}

/* Every debugger puts its hooks into the slice's engine, takes them out
 * and ends its own step, the guest's tracer first. */
static void test_slice_every_one_told(void **state)
{
    (void)state;
    struct task *t = k->init;
    stop_hooks_set(&k->m, STOP_HOOKS_GUEST, &G_hooks);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    guest_says = host_says = true;
    stop_hooks_before_slice(t);
    stop_hooks_after_slice(t);
    stop_hooks_step_done(t);
    assert_string_equal(calls, "G:before H:before G:after H:after G:stepdone H:stepdone ");
}

/* A debugger without a hook is skipped; an empty slot too. */
static void test_missing_hooks(void **state)
{
    (void)state;
    struct task *t = k->init;
    stop_hooks_set(&k->m, STOP_HOOKS_GUEST, NULL);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &host_signal_only);
    host_says = true;
    assert_false(stop_hooks_traces(t));
    assert_false(stop_hooks_block(&k->m));
    stop_hooks_exec(t);
    assert_false(stop_hooks_hold_machine(&k->m));
    assert_false(stop_hooks_hold_task(t));
    assert_false(stop_hooks_machine_stopping(&k->m));
    assert_false(stop_hooks_single_step(t));
    assert_false(stop_hooks_watch_blocks(&k->m));
    stop_hooks_before_slice(t);
    stop_hooks_after_slice(t);
    stop_hooks_step_done(t);
    assert_true(stop_hooks_signal_stop(t, SIGUSR1));
    assert_string_equal(calls, "H:signal ");
}

/* Guest ptrace through run_slice's calls: a tracee in its
 * signal-delivery-stop is held (off its runqueue); its tracer's
 * PTRACE_SINGLESTEP is carried out at the next hold_task, which lets it
 * run, the slice is a step, and step_done queues the step's SIGTRAP. */
static void test_ptrace_slice_hooks(void **state)
{
    (void)state;
    int64_t pid = do_clone(k->init, FORK_FLAGS, 0, 0, 0, 0);
    struct task *tracee = task_find(&k->m, (int)pid);
    assert_non_null(tracee);
    assert_int_equal(KF_CALL(sys_ptrace, tracee, PT_TRACEME, 0, 0, 0), 0);
    struct siginfo_lite info = {.code = SI_USER, .pid = 1};
    signal_queue_task(tracee, SIGUSR1, &info);
    signal_deliver(tracee);
    assert_true(ptrace_stopped(tracee));
    assert_true(stop_hooks_hold_task(tracee));
    assert_int_equal(tracee->state, TASK_BLOCKED);
    assert_false(stop_hooks_single_step(tracee));

    assert_int_equal(KF_CALL(sys_ptrace, k->init, PT_SINGLESTEP, (uint64_t)pid, 0, 0), 0);
    assert_false(stop_hooks_hold_task(tracee));
    assert_false(ptrace_stopped(tracee));
    assert_true(stop_hooks_single_step(tracee));
    /* ptrace holds tracees, never the machine. */
    assert_false(stop_hooks_hold_machine(&k->m));
    assert_false(stop_hooks_machine_stopping(&k->m));
    assert_false(tracee->pending.set & SIGBIT(SIGTRAP));
    tracee->stop = false; /* run_slice's, before the slice runs */
    stop_hooks_step_done(tracee);
    assert_true(tracee->pending.set & SIGBIT(SIGTRAP));
    assert_false(stop_hooks_single_step(tracee));
}

/* do_clone tells the host's debugger of the fork (task.c). */
static void test_fork_reaches_host(void **state)
{
    (void)state;
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    int64_t pid = do_clone(k->init, FORK_FLAGS, 0, 0, 0, 0);
    assert_true(pid > 1);
    assert_string_equal(calls, "H:clone ");
    assert_non_null(last_child);
    assert_int_equal(last_child->tid, pid);
}

/* signal_deliver: a tracee's signal is its ptrace tracer's
 * (signal-delivery-stop) and never reaches the host's debugger; an
 * untraced task's signal does, and the host's stop keeps it from its
 * default action (SIGUSR1 would end the process). */
static void test_tracer_sees_signal_first(void **state)
{
    (void)state;
    int64_t traced = do_clone(k->init, FORK_FLAGS, 0, 0, 0, 0);
    int64_t plain = do_clone(k->init, FORK_FLAGS, 0, 0, 0, 0);
    struct task *tracee = task_find(&k->m, (int)traced), *other = task_find(&k->m, (int)plain);
    assert_non_null(tracee);
    assert_non_null(other);
    assert_int_equal(KF_CALL(sys_ptrace, tracee, PT_TRACEME, 0, 0, 0), 0);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    host_says = true;
    struct siginfo_lite info = {.code = SI_USER, .pid = 1};

    signal_queue_task(tracee, SIGUSR1, &info);
    signal_deliver(tracee);
    assert_true(ptrace_stopped(tracee));
    assert_false(tracee->proc->exiting);

    signal_queue_task(other, SIGUSR1, &info);
    signal_deliver(other);
    assert_false(ptrace_stopped(other));
    assert_false(other->proc->exiting);
    /* signal_fatal asked whether a debugger traces `other`: the host's
     * did (true), then it stopped for the signal. */
    assert_string_equal(calls, "H:traces H:signal ");
}

/* signal_fatal: a pending fatal signal is a group exit unless a debugger
 * traces the task (it sees the signal first). */
static void test_fatal_waits_for_debugger(void **state)
{
    (void)state;
    struct task *t = k->init;
    struct siginfo_lite info = {.code = SI_USER, .pid = 1};
    signal_queue_task(t, SIGTERM, &info);
    assert_int_equal(signal_fatal(t), SIGTERM);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    assert_int_equal(signal_fatal(t), SIGTERM);
    host_says = true;
    assert_int_equal(signal_fatal(t), 0);
    assert_string_equal(calls, "H:traces H:traces ");
}

/* A process's end reaches the debuggers before its parent hears of it. */
static void test_exit_before_parent(void **state)
{
    (void)state;
    int64_t pid = do_clone(k->init, FORK_FLAGS, 0, 0, 0, 0);
    struct task *c = task_find(&k->m, (int)pid);
    assert_non_null(c);
    stop_hooks_set(&k->m, STOP_HOOKS_HOST, &H_hooks);
    /* A handler, so that the SIGCHLD is queued (SIG_DFL ignores it). */
    k->init->proc->sighand->action[SIGCHLD].handler = 0x1000;
    assert_false(k->init->proc->pending.set & SIGBIT(SIGCHLD));
    process_exit_group(c->proc, 3 << 8);
    assert_string_equal(calls, "H:zombie ");
    assert_false(parent_had_sigchld);
    assert_true(k->init->proc->pending.set & SIGBIT(SIGCHLD));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_boot_slots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_first_stop_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_one_told, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slice_first_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slice_every_one_told, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_hooks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ptrace_slice_hooks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fork_reaches_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tracer_sees_signal_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fatal_waits_for_debugger, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_before_parent, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
