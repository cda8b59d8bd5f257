#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ftrace_check.py - checks an asymu --trace-format ftrace file the way
Perfetto's systrace importer reads it, and against Linux 5.15's output
(docs/tracing.md, "The ftrace text").

  ftrace_check.py FILE...    exit 0 when every file passes, else 1

Perfetto's rules, as its trace processor (github.com/google/perfetto)
applies them to text traces (reimplemented here, not copied):
- src/trace_processor/util/trace_type.cc (forwarding_trace_parser.cc in
  older releases): a file with "# tracer" in its first bytes is a systrace
  text trace.
- src/trace_processor/importers/systrace/systrace_trace_parser.cc: lines
  that start with '#' and empty lines are skipped; every other line goes to
  the tokenizer, and a line it rejects is counted as systrace_parse_failure.
- .../systrace/systrace_line_tokenizer.cc: the line regex (TOKEN below):
  task name before "-PID", an optional "(TGID)", "[CPU]", at most five flag
  characters, "SECONDS.FRACTION:", the event name followed by ':', and the
  rest as args.
- .../systrace/systrace_line_parser.cc: args split on ' ', each token with
  '=' is key=value, others are "name"; sched_switch needs prev_pid and
  next_pid (unsigned) and prev_prio and next_prio (int) or it fails;
  sched_waking needs pid (unsigned); cpu_idle and cpu_frequency need cpu_id
  (unsigned) and state (a number); tracing_mark_write/print take any text.
- src/trace_processor/types/task_state.cc (TaskState from a systrace
  string): prev_state is R or R+, or letters from S D T t X Z P x K W N I
  (with '|' between them); anything else is an invalid state.
- .../importers/ftrace/ftrace_sched_event_tracker.cc: a sched_switch whose
  prev_pid is not the next_pid of the vCPU's previous sched_switch is
  counted as mismatched_sched_switch_tids.
On top of those: each line in the exact form of Linux 5.15's trace file
(trace_print_context(), trace_print_lat_fmt(), trace_print_time(); one
comm per pid, as trace_find_cmdline() gives it when the file is read), each
event's fields in its TP_printk() format (FIELDS), and time never going
back through the file.
"""
import re
import sys

# systrace_line_tokenizer.cc's regex, searched (not anchored) in the line.
TOKEN = re.compile(r"-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*"
                   r"[a-zA-Z0-9.]{0,5}\s*(\d+\.\d+):\s+(\S+):")
# trace_print_context() "%16s-%-7d [%03d] ", trace_print_lat_fmt()'s five
# flags, trace_print_time() "%5lu.%06lu", then ": EVENT: FIELDS".
LINE = re.compile(r"^(?P<comm>.{16,})-(?P<pid>\d+) *\[(?P<cpu>\d{3,})\] "
                  r"(?P<flags>[dX.][NnPp.][Hhs.][0-9a-f.][0-9.]) +(?P<sec>\d+)\.(?P<usec>\d{6}): "
                  r"(?P<event>\w+): (?P<fields>.*)$")
HEADER = [
    "# tracer: nop",
    "#",
    None,  # the entries line, ENTRIES below
    "#",
    "#                                _-----=> irqs-off",
    "#                               / _----=> need-resched",
    "#                              | / _---=> hardirq/softirq",
    "#                              || / _--=> preempt-depth",
    "#                              ||| / _-=> migrate-disable",
    "#                              |||| /     delay",
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
    "#              | |         |   |||||     |         |",
]
ENTRIES = re.compile(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)   #P:(\d+)$")

C = r"(\S.{0,14}?)"  # a comm: TASK_COMM_LEN - 1 bytes at most
D = r"(-?\d+)"
U = r"(\d+)"
# Linux 5.15's TP_printk() formats, by event (docs/tracing.md's table).
FIELDS = {
    # include/trace/events/sched.h
    "sched_switch": rf"prev_comm={C} prev_pid={D} prev_prio={D} prev_state=(R\+?|[SDTtXZPI](\|[SDTtXZPI])*)"
                    rf" ==> next_comm={C} next_pid={D} next_prio={D}",
    "sched_waking": rf"comm={C} pid={D} prio={D} target_cpu=(\d{{3,}})",
    "sched_wakeup": rf"comm={C} pid={D} prio={D} target_cpu=(\d{{3,}})",
    "sched_wakeup_new": rf"comm={C} pid={D} prio={D} target_cpu=(\d{{3,}})",
    "sched_migrate_task": rf"comm={C} pid={D} prio={D} orig_cpu={D} dest_cpu={D}",
    "sched_process_fork": rf"comm={C} pid={D} child_comm={C} child_pid={D}",
    "sched_process_exec": rf"filename=(.+) pid={D} old_pid={D}",
    "sched_process_exit": rf"comm={C} pid={D} prio={D}",
    "sched_process_free": rf"comm={C} pid={D} prio={D}",
    "sched_stat_runtime": rf"comm={C} pid={D} runtime={U} \[ns\] vruntime={U} \[ns\]",
    # include/trace/events/power.h
    "cpu_idle": rf"state={U} cpu_id={U}",
    "cpu_frequency": rf"state={U} cpu_id={U}",
    # include/trace/events/cpuhp.h
    "cpuhp_enter": r"cpu: (\d{4}) target: +(-?\d+) step: +(-?\d+) \((\w+)\)",
    "cpuhp_exit": r" cpu: (\d{4})  state: +(-?\d+) step: +(-?\d+) ret: (-?\d+)",
    # include/trace/events/task.h
    "task_newtask": rf"pid={D} comm={C} clone_flags=([0-9a-f]+) oom_score_adj={D}",
    "task_rename": rf"pid={D} oldcomm={C} newcomm={C} oom_score_adj={D}",
    # include/trace/events/signal.h
    "signal_generate": rf"sig={D} errno={D} code={D} comm={C} pid={D} grp={D} res={D}",
    "signal_deliver": rf"sig={D} errno={D} code={D} sa_handler=([0-9a-f]+) sa_flags=([0-9a-f]+)",
    # kernel/trace/trace_output.c trace_print_print(): the writer's function
    "tracing_mark_write": r"(.*)",
    # asymu's own (docs/tracing.md)
    "asymu_affinity": rf"comm={C} pid={D} old_cpus=([0-9,-]*) cpus=([0-9,-]*) "
                      r"cause=(sched_setaffinity|exec|return_to_user|hotplug_fallback|fork) rule=(\S+)",
    "asymu_kill": rf"comm={C} pid={D} sig=9 rule=(K2|K2f|H2)",
    # what `asymu report` reads: the machine, and each run and instant of
    # the JSON trace with ns times ("-" and -1: not used by that kind)
    "asymu_machine": r"cpus=(\d+) aarch32=([0-9,-]*) policy=(\S+) seed=(\d+) "
                     r"capacity=(\d+(?:,\d+)*)",
    "asymu_report": rf"what=(run|wakeup|migrate|affinity|offline|online) seq={U} cpu={U} "
                    rf"comm={C} pid={D} tgid={D} isa=(-|aarch32|aarch64) ts_ns={U} end_ns={U} "
                    rf"from={D} to={D} old_cpus=(-|[0-9,-]+) cpus=(-|[0-9,-]+) rule=(\S+) "
                    r"why=(-|runnable|moved|blocked|dead|new|wakeup|balance|misfit|affinity|"
                    r"hotplug|exec|sched_setaffinity|return_to_user|hotplug_fallback|fork)",
}
# TaskState(const char*) of task_state.cc
STATE_LETTERS = set("SDTtXZPxKWNI")


def perfetto_args(args_str):
    """systrace_line_parser.cc: split on ' ' (empty tokens skipped), a
    token with '=' is key=value (split on '=', the last part the value),
    others are name=token."""
    args = {}
    for tok in [t for t in args_str.split(" ") if t]:
        if "=" not in tok:
            args["name"] = tok
            continue
        parts = [p for p in tok.split("=") if p]
        key = parts[0] if parts else ""
        args[key] = parts[-1] if len(parts) > 1 else ""
    return args


def uint(s):
    return s is not None and re.fullmatch(r"\+?\d+", s) is not None and int(s) < 2**32


def int32(s):
    return s is not None and re.fullmatch(r"[-+]?\d+", s) is not None and -2**31 <= int(s) < 2**31


def number(s):
    try:
        float(s)
        return True
    except (TypeError, ValueError):
        return False


def task_state_ok(s):
    if not s:
        return False
    if s[0] == "R":
        return s in ("R", "R+")
    return all(c == "|" or c in STATE_LETTERS for c in s)


def perfetto_line(line):
    """What Perfetto's tokenizer and line parser make of one line: None,
    or why it rejects it."""
    m = TOKEN.search(line)
    if not m:
        return "systrace_line_tokenizer rejects it"
    event, args_str = m[5], line[m.end():].strip()
    if not uint(m[1]) or not uint(m[3]):
        return "pid or cpu is not an unsigned number"
    args = perfetto_args(args_str)
    if event == "sched_switch":
        if not (uint(args.get("prev_pid")) and uint(args.get("next_pid")) and
                int32(args.get("prev_prio")) and int32(args.get("next_prio"))):
            return "Could not parse sched_switch"
        if not task_state_ok(args.get("prev_state")):
            return f"invalid prev_state {args.get('prev_state')!r}"
    elif event == "sched_waking":
        if not uint(args.get("pid")):
            return "Could not convert wakee_pid"
    elif event in ("cpu_idle", "cpu_frequency"):
        if not uint(args.get("cpu_id")) or not number(args.get("state")):
            return "Could not convert event cpu or state"
    return None


def check_file(path, nr_cpus=None):
    """The failures found in one file, as strings."""
    failures = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "# tracer" not in text[:1024]:
        return [f"{path}: Perfetto would not take it for a systrace trace (no '# tracer')"]
    lines = text.split("\n")
    if lines[-1] != "":
        failures.append(f"{path}: no newline at the end")
    lines = lines[:-1]
    for i, want in enumerate(HEADER):
        got = lines[i] if i < len(lines) else None
        if want is None:
            m = ENTRIES.match(got or "")
            if not m:
                failures.append(f"{path}: header line {i + 1}: {got!r}")
                continue
            entries, written, cpus = map(int, m.groups())
            if entries != len(lines) - len(HEADER) or written < entries:
                failures.append(f"{path}: entries {entries}/{written} for "
                                f"{len(lines) - len(HEADER)} lines")
            if nr_cpus is not None and cpus != nr_cpus:
                failures.append(f"{path}: #P:{cpus}, expected {nr_cpus}")
        elif got != want:
            failures.append(f"{path}: header line {i + 1}: expected {want!r}, got {got!r}")
    last_ts, running, shown = -1, {}, {}
    for n, line in enumerate(lines[len(HEADER):], len(HEADER) + 1):
        where = f"{path}:{n}: {line!r}"
        if not line or line.startswith("#"):
            failures.append(f"{where}: a comment or empty line among the events")
            continue
        why = perfetto_line(line)
        if why:
            failures.append(f"{where}: Perfetto: {why}")
        m = LINE.match(line)
        if not m:
            failures.append(f"{where}: not in 5.15's trace line form")
            continue
        comm, pid = m["comm"].lstrip(" "), int(m["pid"])
        # trace_find_cmdline(): one comm per pid through the file, the last
        # saved_cmdlines recorded
        if shown.setdefault(pid, comm) != comm:
            failures.append(f"{where}: pid {pid} shown as {shown[pid]} before")
        prefix = "%16s-%-7d [%s] " % (comm, pid, m["cpu"])
        if not line.startswith(prefix):
            failures.append(f"{where}: context not printed as \"%16s-%-7d [%03d] \"")
        ts = int(m["sec"]) * 1000000 + int(m["usec"])
        if ts < last_ts:
            failures.append(f"{where}: time goes back")
        last_ts = ts
        event, fields = m["event"], m["fields"]
        fm = re.fullmatch(FIELDS.get(event, "(?!)"), fields)
        if not fm:
            failures.append(f"{where}: not {event}'s 5.15 format" if event in FIELDS
                            else f"{where}: unknown event {event}")
            continue
        cpu = int(m["cpu"])
        if nr_cpus is not None and cpu >= nr_cpus:
            failures.append(f"{where}: cpu {cpu} out of range")
        if event == "sched_switch":
            prev = (fm[1], int(fm[2]))
            nxt = (fm[6], int(fm[7]))
            # The kernel prints the idle task as <idle> in the context and
            # swapper/N in the fields.
            if prev[1] == 0:
                if prev[0] != f"swapper/{cpu}" or comm != "<idle>":
                    failures.append(f"{where}: the idle task is swapper/{cpu}, <idle>")
            elif pid != prev[1]:
                failures.append(f"{where}: printed for {comm}-{pid}, not its prev")
            if cpu in running and running[cpu] != prev[1]:
                failures.append(f"{where}: mismatched_sched_switch_tids: cpu{cpu} "
                                f"ran {running[cpu]}")
            running[cpu] = nxt[1]
        elif event == "cpu_idle" and int(fm[2]) != cpu:
            failures.append(f"{where}: cpu_id is not the line's cpu")
    return failures


if __name__ == "__main__":
    failures = []
    for p in sys.argv[1:]:
        failures += check_file(p)
    for f in failures[:200]:
        print("FAIL:", f)
    print(f"ftrace_check: {len(sys.argv) - 1} file(s), "
          f"{'ok' if not failures else f'{len(failures)} failure(s)'}")
    sys.exit(1 if failures else 0)
