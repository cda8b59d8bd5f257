/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event_formats.c - the layouts of the trace events asymu writes, as an
 * arm64 Linux 5.15 kernel prints them in events/SYSTEM/EVENT/format: each
 * field's offset and size follow from the TP_STRUCT__entry() of the
 * kernel source named in .source with arm64's sizes and alignment (long
 * and pointers 8 bytes, plain char unsigned, hence signed:0 on char
 * arrays); print fmt is the kernel's TP_printk() after the preprocessor.
 * The IDs are asymu's numbering (a kernel assigns them at boot; readers
 * take them from these formats); print keeps ftrace's fixed TRACE_PRINT. */
#include "event_formats.h"

#include <stdio.h>
#include <string.h>

/* sched_switch's prev_state, TP_printk of include/trace/events/sched.h
 * with 5.15's TASK_REPORT and TASK_REPORT_MAX expanded. */
#define TASK_REPORT "0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040"
#define PREV_STATE_MASK "((((" TASK_REPORT ") + 1) << 1) - 1)"
#define PREV_STATE_MAX "(((" TASK_REPORT ") + 1) << 1)"

/* A table, one event per block: */
/* clang-format off */
#define F(decl, offset, size, sign) {decl, offset, size, sign}
#define COMM(name, offset) F("char " name "[16]", offset, 16, false)

/* sched_wakeup_template: sched_waking, sched_wakeup, sched_wakeup_new. */
#define WAKEUP(event, ident)                                                                       \
    [ident] = {"sched", event, 0, 5,                                                               \
               {COMM("comm", 8), F("pid_t pid", 24, 4, true), F("int prio", 28, 4, true),          \
                F("int success", 32, 4, true), F("int target_cpu", 36, 4, true)},                  \
               40,                                                                                 \
               "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, "      \
               "REC->target_cpu",                                                                  \
               "include/trace/events/sched.h (sched_wakeup_template)"}

/* sched_process_template: sched_process_exit, sched_process_free. */
#define PROCESS(event, ident)                                                                      \
    [ident] = {"sched", event, 0, 3,                                                               \
               {COMM("comm", 8), F("pid_t pid", 24, 4, true), F("int prio", 28, 4, true)},         \
               32,                                                                                 \
               "\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio",                       \
               "include/trace/events/sched.h (sched_process_template)"}

/* power.h's cpu class: cpu_idle, cpu_frequency. */
#define POWER_CPU(event, ident)                                                                    \
    [ident] = {"power", event, 0, 2,                                                               \
               {F("u32 state", 8, 4, false), F("u32 cpu_id", 12, 4, false)},                       \
               16,                                                                                 \
               "\"state=%lu cpu_id=%lu\", (unsigned long)REC->state, (unsigned long)REC->cpu_id",  \
               "include/trace/events/power.h (cpu)"}

const struct event_format event_formats[EVENT_COUNT] = {
    [EVENT_SCHED_SWITCH] =
        {"sched", "sched_switch", 0, 7,
         {COMM("prev_comm", 8), F("pid_t prev_pid", 24, 4, true), F("int prev_prio", 28, 4, true),
          F("long prev_state", 32, 8, true), COMM("next_comm", 40),
          F("pid_t next_pid", 56, 4, true), F("int next_prio", 60, 4, true)},
         64,
         "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d "
         "next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & "
         PREV_STATE_MASK ") ? __print_flags(REC->prev_state & " PREV_STATE_MASK ", \"|\", "
         "{ 0x0001, \"S\" }, { 0x0002, \"D\" }, { 0x0004, \"T\" }, { 0x0008, \"t\" }, "
         "{ 0x0010, \"X\" }, { 0x0020, \"Z\" }, { 0x0040, \"P\" }, { 0x0080, \"I\" }) : \"R\", "
         "REC->prev_state & " PREV_STATE_MAX " ? \"+\" : \"\", REC->next_comm, REC->next_pid, "
         "REC->next_prio",
         "include/trace/events/sched.h"},
    WAKEUP("sched_waking", EVENT_SCHED_WAKING),
    WAKEUP("sched_wakeup", EVENT_SCHED_WAKEUP),
    WAKEUP("sched_wakeup_new", EVENT_SCHED_WAKEUP_NEW),
    [EVENT_SCHED_MIGRATE_TASK] =
        {"sched", "sched_migrate_task", 0, 5,
         {COMM("comm", 8), F("pid_t pid", 24, 4, true), F("int prio", 28, 4, true),
          F("int orig_cpu", 32, 4, true), F("int dest_cpu", 36, 4, true)},
         40,
         "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, "
         "REC->orig_cpu, REC->dest_cpu",
         "include/trace/events/sched.h"},
    [EVENT_SCHED_PROCESS_FORK] =
        {"sched", "sched_process_fork", 0, 4,
         {COMM("parent_comm", 8), F("pid_t parent_pid", 24, 4, true), COMM("child_comm", 28),
          F("pid_t child_pid", 44, 4, true)},
         48,
         "\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, "
         "REC->child_comm, REC->child_pid",
         "include/trace/events/sched.h"},
    [EVENT_SCHED_PROCESS_EXEC] =
        {"sched", "sched_process_exec", 0, 3,
         {F("__data_loc char[] filename", 8, 4, false), F("pid_t pid", 12, 4, true),
          F("pid_t old_pid", 16, 4, true)},
         20,
         "\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid",
         "include/trace/events/sched.h"},
    PROCESS("sched_process_exit", EVENT_SCHED_PROCESS_EXIT),
    PROCESS("sched_process_free", EVENT_SCHED_PROCESS_FREE),
    [EVENT_SCHED_STAT_RUNTIME] =
        {"sched", "sched_stat_runtime", 0, 4,
         {COMM("comm", 8), F("pid_t pid", 24, 4, true), F("u64 runtime", 32, 8, false),
          F("u64 vruntime", 40, 8, false)},
         48,
         "\"comm=%s pid=%d runtime=%Lu [ns] vruntime=%Lu [ns]\", REC->comm, REC->pid, "
         "(unsigned long long)REC->runtime, (unsigned long long)REC->vruntime",
         "include/trace/events/sched.h"},
    POWER_CPU("cpu_idle", EVENT_CPU_IDLE),
    POWER_CPU("cpu_frequency", EVENT_CPU_FREQUENCY),
    [EVENT_CPUHP_ENTER] =
        {"cpuhp", "cpuhp_enter", 0, 4,
         {F("unsigned int cpu", 8, 4, false), F("int target", 12, 4, true),
          F("int idx", 16, 4, true), F("void * fun", 24, 8, false)},
         32,
         "\"cpu: %04u target: %3d step: %3d (%ps)\", REC->cpu, REC->target, REC->idx, REC->fun",
         "include/trace/events/cpuhp.h"},
    [EVENT_CPUHP_EXIT] =
        {"cpuhp", "cpuhp_exit", 0, 4,
         {F("unsigned int cpu", 8, 4, false), F("int state", 12, 4, true),
          F("int idx", 16, 4, true), F("int ret", 20, 4, true)},
         24,
         "\"cpu: %04u  state: %3d step: %3d ret: %d\", REC->cpu, REC->state, REC->idx, REC->ret",
         "include/trace/events/cpuhp.h"},
    [EVENT_TASK_NEWTASK] =
        {"task", "task_newtask", 0, 4,
         {F("pid_t pid", 8, 4, true), COMM("comm", 12), F("unsigned long clone_flags", 32, 8, false),
          F("short oom_score_adj", 40, 2, true)},
         48,
         "\"pid=%d comm=%s clone_flags=%lx oom_score_adj=%hd\", REC->pid, REC->comm, "
         "REC->clone_flags, REC->oom_score_adj",
         "include/trace/events/task.h"},
    [EVENT_TASK_RENAME] =
        {"task", "task_rename", 0, 4,
         {F("pid_t pid", 8, 4, true), COMM("oldcomm", 12), COMM("newcomm", 28),
          F("short oom_score_adj", 44, 2, true)},
         48,
         "\"pid=%d oldcomm=%s newcomm=%s oom_score_adj=%hd\", REC->pid, REC->oldcomm, "
         "REC->newcomm, REC->oom_score_adj",
         "include/trace/events/task.h"},
    [EVENT_SIGNAL_GENERATE] =
        {"signal", "signal_generate", 0, 7,
         {F("int sig", 8, 4, true), F("int errno", 12, 4, true), F("int code", 16, 4, true),
          COMM("comm", 20), F("pid_t pid", 36, 4, true), F("int group", 40, 4, true),
          F("int result", 44, 4, true)},
         48,
         "\"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d\", REC->sig, REC->errno, "
         "REC->code, REC->comm, REC->pid, REC->group, REC->result",
         "include/trace/events/signal.h"},
    [EVENT_SIGNAL_DELIVER] =
        {"signal", "signal_deliver", 0, 5,
         {F("int sig", 8, 4, true), F("int errno", 12, 4, true), F("int code", 16, 4, true),
          F("unsigned long sa_handler", 24, 8, false), F("unsigned long sa_flags", 32, 8, false)},
         40,
         "\"sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx\", REC->sig, REC->errno, "
         "REC->code, REC->sa_handler, REC->sa_flags",
         "include/trace/events/signal.h"},
    [EVENT_FTRACE_PRINT] =
        {"ftrace", "print", 5, 2,
         {F("unsigned long ip", 8, 8, false), F("char buf[]", 16, 0, false)},
         16,
         "\"%ps: %s\", (void *)REC->ip, REC->buf",
         "kernel/trace/trace_entries.h (TRACE_PRINT, written by trace_marker)"},
    /* asymu's own: the rule behind an affinity change or a kill, which no
     * kernel tracepoint carries (docs/policies.md names the rules). */
    [EVENT_ASYMU_AFFINITY] =
        {"asymu", "asymu_affinity", 0, 6,
         {COMM("comm", 8), F("pid_t pid", 24, 4, true),
          F("__data_loc char[] old_cpus", 28, 4, false), F("__data_loc char[] cpus", 32, 4, false),
          F("__data_loc char[] cause", 36, 4, false), F("__data_loc char[] rule", 40, 4, false)},
         44,
         "\"comm=%s pid=%d old_cpus=%s cpus=%s cause=%s rule=%s\", REC->comm, REC->pid, "
         "__get_str(old_cpus), __get_str(cpus), __get_str(cause), __get_str(rule)",
         "asymu: docs/tracing.md"},
    [EVENT_ASYMU_KILL] =
        {"asymu", "asymu_kill", 0, 4,
         {COMM("comm", 8), F("pid_t pid", 24, 4, true), F("int sig", 28, 4, true),
          F("__data_loc char[] rule", 32, 4, false)},
         36,
         "\"comm=%s pid=%d sig=%d rule=%s\", REC->comm, REC->pid, REC->sig, __get_str(rule)",
         "asymu: docs/tracing.md"},
    [EVENT_FTRACE_RAW_DATA] =
        {"ftrace", "raw_data", 6, 2,
         {F("unsigned int id", 8, 4, false), F("char buf[]", 12, 0, false)},
         12,
         "\"id:%04x %08x\", REC->id, (int)REC->buf[0]",
         "kernel/trace/trace_entries.h (TRACE_RAW_DATA, written by trace_marker_raw; in the "
         "guest's tracefs only)"},
    /* asymu's own, for `asymu report`: the machine (at time 0), and each
     * run, wake-up, migration, affinity change and hotplug as the JSON
     * trace has them, with nanosecond times (the text's are microseconds)
     * and what no kernel tracepoint carries (tgid, ISA, how a run ended,
     * why a task moved). Unused fields are "-" or -1. */
    [EVENT_ASYMU_MACHINE] =
        {"asymu", "asymu_machine", 0, 5,
         {F("unsigned int cpus", 8, 4, false), F("__data_loc char[] aarch32", 12, 4, false),
          F("u64 seed", 16, 8, false), F("__data_loc char[] policy", 24, 4, false),
          F("__data_loc char[] capacity", 28, 4, false)},
         32,
         "\"cpus=%u aarch32=%s policy=%s seed=%llu capacity=%s\", REC->cpus, "
         "__get_str(aarch32), __get_str(policy), REC->seed, __get_str(capacity)",
         "asymu: docs/tracing.md"},
    [EVENT_ASYMU_REPORT] =
        {"asymu", "asymu_report", 0, 15,
         {F("__data_loc char[] what", 8, 4, false), F("unsigned int cpu", 12, 4, false),
          F("pid_t pid", 16, 4, true), F("pid_t tgid", 20, 4, true), COMM("comm", 24),
          F("u64 ts_ns", 40, 8, false), F("u64 end_ns", 48, 8, false), F("u64 seq", 56, 8, false),
          F("int from", 64, 4, true), F("int to", 68, 4, true),
          F("__data_loc char[] isa", 72, 4, false), F("__data_loc char[] old_cpus", 76, 4, false),
          F("__data_loc char[] cpus", 80, 4, false), F("__data_loc char[] rule", 84, 4, false),
          F("__data_loc char[] why", 88, 4, false)},
         92,
         "\"what=%s seq=%llu cpu=%u comm=%s pid=%d tgid=%d isa=%s ts_ns=%llu end_ns=%llu from=%d "
         "to=%d old_cpus=%s cpus=%s rule=%s why=%s\", __get_str(what), REC->seq, REC->cpu, "
         "REC->comm, REC->pid, REC->tgid, __get_str(isa), REC->ts_ns, REC->end_ns, REC->from, "
         "REC->to, __get_str(old_cpus), __get_str(cpus), __get_str(rule), __get_str(why)",
         "asymu: docs/tracing.md"},
};

/* clang-format on */

/* The ID of event i: ftrace's fixed one, else 300 + its index. */
static unsigned event_id(const struct event_format *e)
{
    return e->id ? e->id : 300 + (unsigned)(e - event_formats);
}

const struct event_format *event_format_find(const char *system, const char *name)
{
    for (size_t i = 0; i < EVENT_COUNT; i++)
        if (strcmp(event_formats[i].system, system) == 0 &&
            strcmp(event_formats[i].name, name) == 0)
            return &event_formats[i];
    return NULL;
}

unsigned event_format_id(const struct event_format *e)
{
    return event_id(e);
}

/* trace_events.c's f_show(): the common fields, a blank line, the event's
 * own fields, a blank line, the print fmt. */
size_t event_format_text(const struct event_format *e, char *buf, size_t len)
{
    static const struct event_field common[] = {
        F("unsigned short common_type", 0, 2, false),
        F("unsigned char common_flags", 2, 1, false),
        F("unsigned char common_preempt_count", 3, 1, false),
        F("int common_pid", 4, 4, true),
    };
    size_t n = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int k = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, __VA_ARGS__);           \
        n += k > 0 ? (size_t)k : 0;                                                                \
    } while (0)
    if (len)
        buf[0] = '\0';
    PUT("name: %s\nID: %u\nformat:\n", e->name, event_id(e));
    for (size_t i = 0; i < sizeof common / sizeof *common; i++)
        PUT("\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n", common[i].decl, common[i].offset,
            common[i].size, common[i].is_signed);
    PUT("\n");
    for (unsigned i = 0; i < e->nr_fields; i++)
        PUT("\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n", e->fields[i].decl,
            e->fields[i].offset, e->fields[i].size, e->fields[i].is_signed);
    PUT("\nprint fmt: %s\n", e->print_fmt);
#undef PUT
    return n;
}

/* ring_buffer_print_page_header(): commit is a local_t (long), overwrite
 * its top bit; char is unsigned on arm64. */
const char event_header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                                 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
                                 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                                 "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

/* ring_buffer_print_entry_header(). */
const char event_header_event[] = "# compressed entry header\n"
                                  "\ttype_len    :    5 bits\n"
                                  "\ttime_delta  :   27 bits\n"
                                  "\tarray       :   32 bits\n"
                                  "\n"
                                  "\tpadding     : type == 29\n"
                                  "\ttime_extend : type == 30\n"
                                  "\ttime_stamp : type == 31\n"
                                  "\tdata max type_len  == 28\n";
