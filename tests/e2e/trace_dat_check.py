#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""trace_dat_check.py - runs tests/guest/trace-demo under asymu with
--trace-format dat and reads the trace.dat with Debian's trace-cmd, comparing
it event by event with what asymu wrote for the same seed in its other
formats (issue 28 item 2).

  trace_dat_check.py MODE ASYMU GUEST_DIR ISA OUTDIR

MODE:
  report       `trace-cmd report -N` (the kernel's print fmts, no plugins) of
               the .dat against the --trace-format ftrace text of the same
               run: exactly the text's events (no other kinds), per vCPU in
               the same order with the same timestamps, pids and fields; as
               many of each kind; the sched_switch prev/next pids in order;
               and the asymu events (asymu_affinity) against the JSON
               trace's affinity events.
  threads      like report, for threads-ISA prodcons on 4 vCPUs: over a
               hundred thousand events on many ring-buffer pages.
  kill         the same under --policy kill: the text's events, and
               asymu_kill and asymu_affinity against the JSON trace's kill
               and affinity.
  plugins      `trace-cmd report` with its plugins (sched_switch's compact
               form) reads every record, and `trace-cmd report --events`
               gives back the 5.15 format of sched_switch.
  stat         `trace-cmd report --stat`: succeeds, one CPU block per vCPU,
               "read events" adding up to the number of records.
  determinism  the same seed twice: identical bytes.
  errors       an uncreatable path fails before the run with a clear
               message; a full device reports the failed write.
Exit status 0 when every check holds; the failures are printed otherwise.
"""
import collections
import json
import os
import re
import subprocess
import sys

MODE, ASYMU, GUEST, ISA, OUT = sys.argv[1:6]
PROG = os.path.join(GUEST, f"trace-demo-{ISA}")
PROG32 = os.path.join(GUEST, "trace-demo-armhf")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def expect(got, want, what):
    check(got == want, f"{what}: expected {want!r}, got {got!r}")


def run(policy, seed, *options, status=0):
    cmd = [ASYMU, "run", "--cpus", "8", "--aarch32", "0-3", "--policy", policy, "--seed",
           str(seed), *options, "--", PROG, PROG32]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    expect(r.returncode, status, f"status of {' '.join(cmd)}")
    return r


def trace_cmd(*args):
    r = subprocess.run(["trace-cmd", *args], capture_output=True, text=True, timeout=120)
    expect(r.returncode, 0, f"status of trace-cmd {' '.join(args)}")
    # libtraceevent warns on stderr about formats it cannot parse.
    expect(r.stderr, "", f"trace-cmd {' '.join(args)}'s stderr")
    return r.stdout


# A line of the trace text, trace-cmd report's or asymu's ftrace text (the
# compact or the kernel's form; with or without the latency columns).
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(\d{3})\]\s+(?:[a-zA-Z0-9.]{4,5}\s+)?"
                  r"(\d+)\.(\d{6}|\d{9}): (\w+):\s+(.*)$")
SWITCH_KV = re.compile(r"prev_comm=(.*) prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> "
                       r"next_comm=(.*) next_pid=(\d+) next_prio=(-?\d+)")
SWITCH_COMPACT = re.compile(r"(.*):(\d+) \[(-?\d+)\] (\S+) ==> (.*):(\d+) \[(-?\d+)\]")
WAKEUP_KV = re.compile(r"comm=(.*) pid=(\d+) prio=(-?\d+)(?: success=1)? target_cpu=(\d{3})")
WAKEUP_COMPACT = re.compile(r"(.*):(\d+) \[(-?\d+)\](?: success=1)? CPU:(\d{3})")


def fields_key(event, fields):
    """What both forms say: sched_switch's and sched_wakeup's values, the
    kernel's text for the others (the print fmts are the same)."""
    if event == "sched_switch":
        m = SWITCH_KV.fullmatch(fields) or SWITCH_COMPACT.fullmatch(fields)
        return ("switch", m[1], int(m[2]), int(m[3]), m[4], m[5], int(m[6]), int(m[7])) if m \
            else ("unparsed", fields)
    if event.startswith("sched_wakeup"):
        m = WAKEUP_KV.fullmatch(fields) or WAKEUP_COMPACT.fullmatch(fields)
        return ("wakeup", m[1], int(m[2]), int(m[3]), int(m[4])) if m else ("unparsed", fields)
    return fields


def parse(text, what):
    """(cpu, ts, event, pid, key) per line, in the file's order; ts in the
    text's unit: microseconds, or nanoseconds from `trace-cmd report -t`."""
    events = []
    for line in text.splitlines():
        if not line or line.startswith("#") or line.startswith("cpus="):
            continue
        m = LINE.match(line)
        if not m:
            failures.append(f"{what}: malformed line {line!r}")
            continue
        comm, pid, cpu, sec, usec, event, fields = m.groups()
        scale = 10 ** len(usec)
        events.append((int(cpu), int(sec) * scale + int(usec), event, int(pid),
                       fields_key(event, fields)))
    return events


def per_cpu(events):
    cpus = collections.defaultdict(list)
    for e in events:
        cpus[e[0]].append(e[1:])
    return dict(cpus)


def dat_and_json(policy, seed=1):
    dat = os.path.join(OUT, f"{MODE}-{ISA}-{policy}.dat")
    js = os.path.join(OUT, f"{MODE}-{ISA}-{policy}.json")
    run(policy, seed, "--trace", dat, "--trace-format", "dat")
    run(policy, seed, "--trace", js)
    with open(js) as f:
        doc = json.load(f)
    # -t: nanoseconds, -N: the kernel's print fmts rather than plugins.
    return dat, parse(trace_cmd("report", "-t", "-N", "-i", dat), "trace-cmd report -N"), doc


# The JSON's affinity cause (mevent_cause_name()) as the text's token.
CAUSE = {"sched_setaffinity": "sched_setaffinity", "exec": "exec",
         "return-to-user check": "return_to_user", "hotplug fallback": "hotplug_fallback",
         "fork inheritance": "fork"}


def json_instants(doc, name):
    return [e for e in doc["traceEvents"] if e.get("name") == name and e["ph"] == "i"]


def check_asymu_events(dat_events, doc):
    """asymu_affinity and asymu_kill: the JSON trace's affinity and kill
    events, at the same nanosecond with the same fields (the .dat puts
    them on the caller's vCPU, as the text does, where the JSON has the
    task's: compare_with_text checks the vCPUs)."""
    got = [(ts, key) for cpu, ts, event, pid, key in dat_events if event == "asymu_affinity"]
    want = [(round(e["ts"] * 1000),
             f"comm={e['args']['comm']} pid={e['args']['tid']} old_cpus={e['args']['old']} "
             f"cpus={e['args']['new']} cause={CAUSE[e['args']['cause']]} rule={e['args']['rule']}")
            for e in json_instants(doc, "affinity")]
    check(len(want) > 0, "the JSON trace has no affinity events")
    expect(sorted(got), sorted(want), "asymu_affinity records (ns, fields)")
    got = [(ts, key) for cpu, ts, event, pid, key in dat_events if event == "asymu_kill"]
    want = [(round(e["ts"] * 1000),
             f"comm={e['args']['comm']} pid={e['args']['tid']} sig=9 rule={e['args']['rule']}")
            for e in json_instants(doc, "kill")]
    expect(sorted(got), sorted(want), "asymu_kill records (ns, fields)")


def compare_with_text(dat_events, text_events, extra_kinds):
    """The .dat has the text's events, per vCPU in the same order with the
    same times, pids and fields, and beyond them only extra_kinds."""
    kinds = {e[2] for e in text_events}
    # The same events as the text: the kinds the text has, as many of each.
    dat_counts = collections.Counter(e[2] for e in dat_events if e[2] in kinds)
    expect(dat_counts, collections.Counter(e[2] for e in text_events), "events per kind")
    expect({e[2] for e in dat_events} - kinds, extra_kinds, "kinds beyond the text")
    # Event by event, per vCPU (trace-cmd merges the vCPUs' buffers by time
    # and orders same-time events of different vCPUs its own way).
    text_cpus = per_cpu(text_events)
    dat_cpus = per_cpu([e for e in dat_events if e[2] in kinds])
    expect(sorted(dat_cpus), sorted(text_cpus), "vCPUs with events")
    for cpu in sorted(text_cpus):
        t, d = text_cpus[cpu], dat_cpus.get(cpu, [])
        for i, (a, b) in enumerate(zip(d, t)):
            # The text's microseconds: the kernel rounds the nanoseconds
            # (ns2usecs), asymu's text has truncated them.
            if a[1:] != b[1:] or b[0] not in (a[0] // 1000, (a[0] + 500) // 1000):
                failures.append(f"cpu{cpu} event {i}: trace.dat {a!r}, text {b!r}")
                break
        expect(len(d), len(t), f"cpu{cpu}'s events")
    # sched_switch's prev and next pids in order, per vCPU, and each vCPU's
    # next task is the prev of its following switch (idle first).
    by_cpu = collections.defaultdict(list)
    for cpu, ts, event, pid, key in dat_events:
        if event == "sched_switch":
            by_cpu[cpu].append((key[2], key[6]))
    text_by_cpu = collections.defaultdict(list)
    for cpu, ts, event, pid, key in text_events:
        if event == "sched_switch":
            text_by_cpu[cpu].append((key[2], key[6]))
    expect(dict(by_cpu), dict(text_by_cpu), "sched_switch (prev_pid, next_pid) per vCPU in order")
    for cpu, pairs in by_cpu.items():
        running = 0
        for prev, nxt in pairs:
            if prev != running:
                failures.append(f"cpu{cpu}: a switch from {prev} while {running} ran")
                break
            running = nxt


def text_of(policy, seed=1):
    txt = os.path.join(OUT, f"{MODE}-{ISA}-{policy}.txt")
    run(policy, seed, "--trace", txt, "--trace-format", "ftrace")
    with open(txt) as f:
        return parse(f.read(), "ftrace text")


def mode_report():
    dat, dat_events, doc = dat_and_json("upstream")
    text_events = text_of("upstream")
    check(len(text_events) > 20, f"only {len(text_events)} events in the ftrace text")
    compare_with_text(dat_events, text_events, set())
    check_asymu_events(dat_events, doc)


def mode_threads():
    """A longer run: threads-ISA prodcons on 4 vCPUs, over a hundred
    thousand events on many ring-buffer pages."""
    prog = [os.path.join(GUEST, f"threads-{ISA}"), "prodcons"]
    dat = os.path.join(OUT, f"{MODE}-{ISA}.dat")
    txt = os.path.join(OUT, f"{MODE}-{ISA}.txt")
    for path, fmt in ((dat, "dat"), (txt, "ftrace")):
        cmd = [ASYMU, "run", "--cpus", "4", "--seed", "3", "--trace", path, "--trace-format", fmt,
               "--", *prog]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        expect(r.returncode, 0, f"status of {' '.join(cmd)}")
    dat_events = parse(trace_cmd("report", "-t", "-N", "-i", dat), "trace-cmd report -N")
    with open(txt) as f:
        text_events = parse(f.read(), "ftrace text")
    check(len(text_events) > 100000, f"only {len(text_events)} events in the ftrace text")
    compare_with_text(dat_events, text_events, set())


def mode_kill():
    dat, dat_events, doc = dat_and_json("kill")
    compare_with_text(dat_events, text_of("kill"), set())
    check_asymu_events(dat_events, doc)
    expect(len([e for e in dat_events if e[2] == "asymu_kill"]), 1, "asymu_kill records")


def mode_plugins():
    dat, dat_events, doc = dat_and_json("upstream")
    text = trace_cmd("report", "-i", dat)
    lines = [l for l in text.splitlines() if l and not l.startswith("cpus=")]
    expect(len(lines), len(dat_events), "records with and without plugins")
    compact = [l for l in lines if " sched_switch: " in l]
    check(compact and all(SWITCH_COMPACT.search(l) for l in compact),
          "sched_switch in the plugin's compact form")
    formats = trace_cmd("report", "--events", "-i", dat)
    want = """name: sched_switch
ID: 300
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;
\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;
\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;
\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;
\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;
\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;
\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;
"""
    check(want in formats, "sched_switch's format in trace-cmd report --events")
    expect(trace_cmd("report", "-E", "-i", dat).split(), sorted(
        f"{s}:{e}" for s, events in (
            ("sched", ("sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
                       "sched_migrate_task", "sched_process_fork", "sched_process_exec",
                       "sched_process_exit", "sched_process_free", "sched_stat_runtime")),
            ("power", ("cpu_idle", "cpu_frequency")), ("cpuhp", ("cpuhp_enter", "cpuhp_exit")),
            ("task", ("task_newtask", "task_rename")),
            ("signal", ("signal_generate", "signal_deliver")), ("ftrace", ("print",)),
            ("asymu", ("asymu_affinity", "asymu_kill", "asymu_machine", "asymu_report")))
        for e in events),
        "the event formats in the file (trace-cmd report -E)")


def mode_stat():
    dat, dat_events, doc = dat_and_json("upstream")
    text = trace_cmd("report", "--stat", "-i", dat)
    cpus = re.findall(r"^CPU: (\d+)\nentries: 0\n", text, re.M)
    expect([int(c) for c in cpus], list(range(8)), "CPU blocks, nothing left in the buffers")
    read = [int(n) for n in re.findall(r"^read events: (\d+)$", text, re.M)]
    expect(len(read), 8, "read events lines")
    expect(sum(read), len(dat_events), "events read on all CPUs")
    expect(re.findall(r"^dropped events: (\d+)$", text, re.M), ["0"] * 8, "dropped events")


def mode_determinism():
    files = []
    for attempt in range(2):
        path = os.path.join(OUT, f"det{attempt}-{ISA}.dat")
        run("upstream", 7, "--trace", path, "--trace-format", "dat")
        with open(path, "rb") as f:
            files.append(f.read())
    expect(files[0] == files[1], True, "two runs give the same bytes")
    check(len(files[0]) > 4096 and len(files[0]) % 4096 == 0,
          f"size {len(files[0])}: a header page and whole ring-buffer pages")
    expect(files[0][:12], b"\x17\x08\x44tracing6\x00", "magic and version")


def mode_errors():
    r = run("upstream", 1, "--trace", "/nonexistent-dir/t.dat", "--trace-format", "dat", status=2)
    expect(r.stderr, "asymu run: cannot create /nonexistent-dir/t.dat for --trace: "
           "No such file or directory\n", "uncreatable path's message")
    expect(r.stdout, "", "no guest output before the error")
    r = run("upstream", 1, "--trace", "/dev/full", "--trace-format", "dat")
    expect(r.stderr, "asymu: writing a trace file failed: Input/output error\n",
           "full device's message")


os.makedirs(OUT, exist_ok=True)
{
    "report": mode_report,
    "kill": mode_kill,
    "threads": mode_threads,
    "plugins": mode_plugins,
    "stat": mode_stat,
    "determinism": mode_determinism,
    "errors": mode_errors,
}[MODE]()
for f in failures:
    print("FAIL:", f)
print(f"{MODE} {ISA}: {'ok' if not failures else f'{len(failures)} failure(s)'}")
sys.exit(1 if failures else 0)
