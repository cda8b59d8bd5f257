#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""trace_check.py - runs tests/guest/trace-demo under asymu with --trace
(JSON, ftrace) and --timeline, parses what it wrote and checks exact events.

  trace_check.py MODE ASYMU GUEST_DIR ISA OUTDIR

MODE: json, json-kill, ftrace, ftrace-kill, ftrace-signal, svg, chromium, determinism. ISA: aarch64 or
armhf (the parent's; the child always execs the 32-bit trace-demo-armhf).
Exit status 0 when every check holds; the failures are printed otherwise.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

MODE, ASYMU, GUEST, ISA, OUT = sys.argv[1:6]
PROG = os.path.join(GUEST, f"trace-demo-{ISA}")
PROG32 = os.path.join(GUEST, "trace-demo-armhf")
failures = []

# What the guest prints: exact, per ISA and policy.
STDOUT = {
    ("aarch64", "upstream"): """aarch64 parent: affinity 0-7
aarch64 child: sched_setaffinity(6-7) = 0
arm child: affinity 0-3
aarch64 parent: child exited 3
aarch64 parent: cpu3 online=0: ok
aarch64 parent: cpu3 online=1: ok
aarch64 parent: sched_setaffinity(2-3) = 0
""",
    ("armhf", "upstream"): """arm parent: affinity 0-3
arm child: sched_setaffinity(6-7) = EINVAL
arm child: affinity 0-3
arm parent: child exited 3
arm parent: cpu3 online=0: ok
arm parent: cpu3 online=1: ok
arm parent: sched_setaffinity(2-3) = 0
""",
    ("aarch64", "kill"): """aarch64 parent: affinity 0-7
aarch64 child: sched_setaffinity(6-7) = 0
aarch64 parent: child killed by signal 9
aarch64 parent: cpu3 online=0: ok
aarch64 parent: cpu3 online=1: ok
aarch64 parent: sched_setaffinity(2-3) = 0
""",
    # The compat child is SIGKILLed on cpu6 (K1/K2) before it prints.
    ("armhf", "kill"): """arm parent: affinity 0-7
arm parent: child killed by signal 9
arm parent: cpu3 online=0: ok
arm parent: cpu3 online=1: ok
arm parent: sched_setaffinity(2-3) = 0
""",
}


def check(cond, what):
    if not cond:
        failures.append(what)


def expect(got, want, what):
    check(got == want, f"{what}: expected {want!r}, got {got!r}")


def run(policy="upstream", seed=1, *options):
    cmd = [ASYMU, "run", "--cpus", "8", "--aarch32", "0-3", "--policy", policy, "--seed",
           str(seed), *options, "--", PROG, PROG32]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    expect(r.returncode, 0, f"status of {' '.join(cmd)}")
    expect(r.stdout, STDOUT[(ISA, policy)], "guest stdout")
    return r


def load_json(path):
    with open(path) as f:
        return json.load(f)


def affinity_changes(events, pid):
    return [(e["args"]["old"], e["args"]["new"], e["args"]["rule"], e["args"]["cause"])
            for e in events if e.get("name") == "affinity" and e["args"]["tid"] == pid]


def check_runs(events, aarch32):
    """Every X event on a vCPU that runs its ISA; none overlap on one vCPU."""
    runs = [e for e in events if e["ph"] == "X"]
    check(len(runs) > 0, "no X events")
    by_cpu = {}
    for e in runs:
        check(e["dur"] > 0, f"X event without duration: {e}")
        if e["args"]["isa"] == "aarch32":
            check(e["tid"] in aarch32, f"32-bit task ran on 64-bit-only cpu{e['tid']}: {e}")
        by_cpu.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for cpu, spans in by_cpu.items():
        spans.sort()
        for (s0, e0, n0), (s1, e1, n1) in zip(spans, spans[1:]):
            check(s1 >= e0 - 1e-6, f"cpu{cpu}: {n0} [{s0}, {e0}) overlaps {n1} [{s1}, {e1})")


def mode_json(policy):
    path = os.path.join(OUT, f"trace-{ISA}-{policy}.json")
    run(policy, 1, "--trace", path)
    doc = load_json(path)
    expect(doc["otherData"], {"generator": "asymu", "policy": policy, "seed": 1, "cpus": 8,
                              "aarch32": "0-3", "capacity": [1024] * 8}, "otherData")
    ev = doc["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 0}
    expect(names, {c: f"cpu{c} (aarch32+aarch64)" if c < 4 else f"cpu{c} (aarch64 only)"
                   for c in range(8)}, "vCPU track names")
    expect([e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"
            and e["pid"] == 2], ["trace-demo-aarc" if ISA == "aarch64" else "trace-demo-armh",
                                 "trace-demo-armh"] if ISA == "aarch64" else ["trace-demo-armh"],
           "pid 2's names (metadata)")
    check_runs(ev, range(4))
    execs = [(e["args"]["tid"], e["args"]["isa"], os.path.basename(e["args"]["path"]))
             for e in ev if e.get("name") == "exec"]
    want = [(1, "aarch32" if ISA == "armhf" else "aarch64", f"trace-demo-{ISA}")]
    if not (policy == "kill" and ISA == "armhf"):  # killed before its exec
        want.append((2, "aarch32", "trace-demo-armhf"))
    expect(execs, want, "exec events (tid, isa, program)")
    hotplug = [(e["name"], e["args"]["cpu"]) for e in ev if e.get("name", "").startswith("cpu o")]
    expect(hotplug, [("cpu offline", 3), ("cpu online", 3)], "hotplug events")
    exits = {e["args"]["tid"]: {k: v for k, v in e["args"].items() if k in ("code", "signal")}
             for e in ev if e.get("name") == "exit"}
    counters = [e for e in ev if e["ph"] == "C"]
    check(counters and all(re.fullmatch(r"runnable cpu[0-7]", e["name"]) and
                           e["args"]["tasks"] >= 0 for e in counters), "runnable counters")
    forks = [(e["args"]["tid"], e["args"]["child_tid"], e["args"]["thread"])
             for e in ev if e.get("name") == "fork"]
    expect(forks, [(1, 2, False)], "fork events")
    kills = [(e["args"]["tid"], e["args"]["rule"], e["tid"]) for e in ev if e.get("name") == "kill"]
    if policy == "upstream":
        expect(exits, {1: {"code": 0}, 2: {"code": 3}}, "exit events")
        expect(kills, [], "kill events")
        if ISA == "aarch64":
            # The article's case: 6-7 asked for, then the 32-bit exec's U1
            # fallback to M & online.
            expect(affinity_changes(ev, 2), [("0-7", "6-7", "U8", "sched_setaffinity"),
                                             ("6-7", "0-3", "U1", "exec")], "pid 2's affinity")
            expect(affinity_changes(ev, 1), [("0-7", "2-3", "U8", "sched_setaffinity")],
                   "pid 1's affinity")
            migrations = [(e["args"]["from"], e["args"]["to"]) for e in ev
                          if e.get("name") == "migrate" and e["args"]["tid"] == 2]
            expect(migrations, [(1, 6), (6, 0)], "pid 2's migrations")
        else:
            expect(affinity_changes(ev, 1), [("0-7", "0-3", "U1", "exec"),
                                             ("0-3", "2-3", "U4", "sched_setaffinity")],
                   "pid 1's affinity")
            expect(affinity_changes(ev, 2), [("0-7", "0-3", "3.1", "fork inheritance")],
                   "pid 2's affinity")
    else:
        expect(exits, {1: {"code": 0}, 2: {"signal": 9}}, "exit events")
        expect(kills, [(2, "K2", 6)], "kill events (tid, rule, vCPU)")
        expect(affinity_changes(ev, 2), [("0-7", "6-7", "K4", "sched_setaffinity")],
               "pid 2's affinity")


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftrace_check  # noqa: E402  Perfetto's systrace rules and 5.15's formats

# The events checked below line by line (without their timestamps); the
# others (sched_switch, wake-ups, cpu_idle) are checked by ftrace_check.
FTRACE_SCHEDULE = {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "cpu_idle",
                   "sched_stat_runtime"}
# HOTPLUG stands for vCPU 3 going offline and online.
FTRACE_HOTPLUG = """\
          <idle>-0       [003] .....  cpuhp_enter: cpu: 0003 target:   0 step:   1 (sched_cpu_deactivate)
          <idle>-0       [003] .....  cpuhp_exit:  cpu: 0003  state:   0 step:   1 ret: 0
          <idle>-0       [003] .....  cpuhp_enter: cpu: 0003 target:   1 step:   1 (sched_cpu_activate)
          <idle>-0       [003] .....  cpuhp_exit:  cpu: 0003  state:   1 step:   1 ret: 0
"""
FTRACE_EXPECTED = {
    "aarch64": """          <idle>-0       [000] .....  task_rename: pid=1 oldcomm=init newcomm=trace-demo-aarc oom_score_adj=0
 trace-demo-aarc-1       [000] .....  sched_process_exec: filename=GUEST/trace-demo-aarch64 pid=1 old_pid=1
 trace-demo-aarc-1       [000] .....  task_newtask: pid=2 comm=trace-demo-aarc clone_flags=1200011 oom_score_adj=0
 trace-demo-aarc-1       [000] .....  sched_process_fork: comm=trace-demo-aarc pid=1 child_comm=trace-demo-aarc child_pid=2
 trace-demo-armh-2       [001] d..2.  sched_migrate_task: comm=trace-demo-aarc pid=2 prio=120 orig_cpu=1 dest_cpu=6
 trace-demo-armh-2       [001] .....  asymu_affinity: comm=trace-demo-aarc pid=2 old_cpus=0-7 cpus=6-7 cause=sched_setaffinity rule=U8
 trace-demo-armh-2       [006] .....  task_rename: pid=2 oldcomm=trace-demo-aarc newcomm=trace-demo-armh oom_score_adj=0
 trace-demo-armh-2       [006] d..2.  sched_migrate_task: comm=trace-demo-armh pid=2 prio=120 orig_cpu=6 dest_cpu=0
 trace-demo-armh-2       [006] .....  asymu_affinity: comm=trace-demo-armh pid=2 old_cpus=6-7 cpus=0-3 cause=exec rule=U1
 trace-demo-armh-2       [006] .....  sched_process_exec: filename=GUEST/trace-demo-armhf pid=2 old_pid=2
 trace-demo-armh-2       [000] .....  sched_process_exit: comm=trace-demo-armh pid=2 prio=120
 trace-demo-armh-2       [000] .....  signal_generate: sig=17 errno=0 code=1 comm=trace-demo-aarc pid=1 grp=1 res=1
 trace-demo-armh-2       [000] .....  sched_process_free: comm=trace-demo-armh pid=2 prio=120
HOTPLUG
 trace-demo-aarc-1       [000] d..2.  sched_migrate_task: comm=trace-demo-aarc pid=1 prio=120 orig_cpu=0 dest_cpu=2
 trace-demo-aarc-1       [000] .....  asymu_affinity: comm=trace-demo-aarc pid=1 old_cpus=0-7 cpus=2-3 cause=sched_setaffinity rule=U8
 trace-demo-aarc-1       [002] .....  sched_process_exit: comm=trace-demo-aarc pid=1 prio=120
""",
    "armhf": """          <idle>-0       [000] .....  task_rename: pid=1 oldcomm=init newcomm=trace-demo-armh oom_score_adj=0
          <idle>-0       [000] .....  asymu_affinity: comm=trace-demo-armh pid=1 old_cpus=0-7 cpus=0-3 cause=exec rule=U1
 trace-demo-armh-1       [000] .....  sched_process_exec: filename=GUEST/trace-demo-armhf pid=1 old_pid=1
 trace-demo-armh-1       [000] .....  task_newtask: pid=2 comm=trace-demo-armh clone_flags=1200011 oom_score_adj=0
 trace-demo-armh-1       [000] .....  sched_process_fork: comm=trace-demo-armh pid=1 child_comm=trace-demo-armh child_pid=2
 trace-demo-armh-1       [000] .....  asymu_affinity: comm=trace-demo-armh pid=2 old_cpus=0-7 cpus=0-3 cause=fork rule=3.1
 trace-demo-armh-2       [001] .....  task_rename: pid=2 oldcomm=trace-demo-armh newcomm=trace-demo-armh oom_score_adj=0
 trace-demo-armh-2       [001] .....  sched_process_exec: filename=GUEST/trace-demo-armhf pid=2 old_pid=2
 trace-demo-armh-2       [001] .....  sched_process_exit: comm=trace-demo-armh pid=2 prio=120
 trace-demo-armh-2       [001] .....  signal_generate: sig=17 errno=0 code=1 comm=trace-demo-armh pid=1 grp=1 res=1
 trace-demo-armh-2       [001] .....  sched_process_free: comm=trace-demo-armh pid=2 prio=120
HOTPLUG
 trace-demo-armh-1       [000] d..2.  sched_migrate_task: comm=trace-demo-armh pid=1 prio=120 orig_cpu=0 dest_cpu=2
 trace-demo-armh-1       [000] .....  asymu_affinity: comm=trace-demo-armh pid=1 old_cpus=0-3 cpus=2-3 cause=sched_setaffinity rule=U4
 trace-demo-armh-1       [002] .....  sched_process_exit: comm=trace-demo-armh pid=1 prio=120
""",
}


def mode_ftrace():
    path = os.path.join(OUT, f"trace-{ISA}.txt")
    run("upstream", 1, "--trace", path, "--trace-format", "ftrace")
    failures.extend(ftrace_check.check_file(path, nr_cpus=8))
    with open(path) as f:
        lines = f.read().splitlines()
    rest, seen = [], set()
    stat = {}  # pid: [(vCPU, runtime, vruntime)] of its sched_stat_runtime lines
    for line in lines[len(ftrace_check.HEADER):]:
        m = ftrace_check.LINE.match(line)
        if not m:
            continue  # reported by ftrace_check
        seen.add(m["event"])
        if m["event"] == "sched_stat_runtime":
            f = re.search(r"\[(\d+)\].*: comm=.* pid=(\d+) runtime=(\d+) \[ns\] "
                          r"vruntime=(\d+) \[ns\]$", line)
            expect(bool(f) and line.split("[")[0].strip().endswith(f"-{f[2]}"), True,
                   f"sched_stat_runtime in its task's context: {line}")
            if f:
                stat.setdefault(int(f[2]), []).append((int(f[1]), int(f[3]), int(f[4])))
        if m["event"] == "asymu_machine":
            expect(line[line.index(": ") + 2:], "asymu_machine: cpus=8 aarch32=0-3 "
                   "policy=upstream seed=1 capacity=" + ",".join(["1024"] * 8), "asymu_machine")
        # asymu_report: checked against the JSON by report_check.py formats
        if m["event"] not in FTRACE_SCHEDULE | {"asymu_machine", "asymu_report"}:
            rest.append(line[:line.index("]") + 8] + " " + line[line.index(": ") + 2:])
    want = FTRACE_EXPECTED[ISA].replace("GUEST", GUEST).replace("HOTPLUG\n", FTRACE_HOTPLUG)
    expect("\n".join(rest) + "\n", want, "lines other than switches, wake-ups and idle")
    # update_curr()'s charges: every task that ran has some, each of time
    # spent (vruntime is of the runqueue's: a task moved to another vCPU is
    # placed against that one's min_vruntime).
    expect(sorted(stat), [1, 2], "pids with sched_stat_runtime")
    for pid, charges in stat.items():
        expect(all(runtime > 0 for _, runtime, _ in charges), True,
               f"pid {pid}: every runtime > 0")
    kinds = FTRACE_SCHEDULE | {"sched_migrate_task", "sched_process_fork", "sched_process_exec",
                               "sched_process_exit", "cpuhp_enter", "cpuhp_exit",
                               "asymu_affinity", "task_newtask", "signal_generate",
                               "task_rename", "sched_process_free", "asymu_machine",
                               "asymu_report"}
    expect(seen, kinds, "event kinds")


def mode_ftrace_kill():
    """Under the kill policy: the policy's SIGKILL as asymu_kill, with its rule."""
    path = os.path.join(OUT, f"trace-{ISA}-kill.txt")
    run("kill", 1, "--trace", path, "--trace-format", "ftrace")
    failures.extend(ftrace_check.check_file(path, nr_cpus=8))
    with open(path) as f:
        kills = [re.search(r"\[(\d{3})\] .*asymu_kill: (.*)$", l).groups() for l in f
                 if "asymu_kill:" in l]
    expect(kills, [("006", "comm=trace-demo-armh pid=2 sig=9 rule=K2")],
           "asymu_kill lines (vCPU, fields)")


def mode_ftrace_signal():
    """abort(): SIGABRT sent to itself (tgkill, SI_TKILL) and taken with its
    default action: signal_generate, then signal_deliver, status 134."""
    path = os.path.join(OUT, f"trace-{ISA}-signal.txt")
    cmd = [ASYMU, "run", "--cpus", "4", "--seed", "1", "--trace", path, "--trace-format", "ftrace",
           "--", os.path.join(GUEST, f"signals-{ISA}"), "abort"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    expect(r.returncode, 134, f"status of {' '.join(cmd)}")
    failures.extend(ftrace_check.check_file(path, nr_cpus=4))
    comm = f"signals-{ISA}"[:15]
    with open(path) as f:
        got = [l[:l.index("]") + 1] + " " + l[l.index(": ") + 2:].rstrip("\n") for l in f
               if "signal_" in l]
    expect(got, ["%16s-1       [000] signal_generate: sig=6 errno=0 code=-6 comm=%s pid=1 grp=0 "
                 "res=0" % (comm, comm),
                 "%16s-1       [000] signal_deliver: sig=6 errno=0 code=-6 sa_handler=0 "
                 "sa_flags=0" % comm], "signal lines")


SVG = "{http://www.w3.org/2000/svg}"


def classes(el):
    return el.get("class", "").split()


SVG_AFFINITY = {
    ("aarch64", "upstream"): ["affinity of trace-demo-aarc 2: 0-7 to 6-7, rule U8 (sched_setaffinity)",
                              "affinity of trace-demo-armh 2: 6-7 to 0-3, rule U1 (exec)",
                              "affinity of trace-demo-aarc 1: 0-7 to 2-3, rule U8 (sched_setaffinity)"],
    ("armhf", "upstream"): ["affinity of trace-demo-armh 1: 0-7 to 0-3, rule U1 (exec)",
                            "affinity of trace-demo-armh 2: 0-7 to 0-3, rule 3.1 (fork inheritance)",
                            "affinity of trace-demo-armh 1: 0-3 to 2-3, rule U4 (sched_setaffinity)"],
    ("aarch64", "kill"): ["affinity of trace-demo-aarc 2: 0-7 to 6-7, rule K4 (sched_setaffinity)",
                          "affinity of trace-demo-aarc 1: 0-7 to 2-3, rule K4 (sched_setaffinity)"],
    ("armhf", "kill"): ["affinity of trace-demo-armh 2: 0-7 to 6-7, rule K4 (sched_setaffinity)",
                        "affinity of trace-demo-armh 1: 0-7 to 2-3, rule K4 (sched_setaffinity)"],
}


def mode_svg(policy):
    path = os.path.join(OUT, f"timeline-{ISA}-{policy}.svg")
    run(policy, 1, "--timeline", path)
    root = ET.parse(path).getroot()
    expect(root.tag, SVG + "svg", "root element")
    rows = [g for g in root.iter(SVG + "g") if "row" in classes(g)]
    expect([g.get("data-cpu") for g in rows], [str(c) for c in range(8)], "rows")
    expect([g.get("data-cpu") for g in rows if "aarch32" in classes(g)],
           ["0", "1", "2", "3"], "32-bit-capable rows")
    expect([g.find(SVG + "text").text for g in rows][3:5], ["cpu3 (32-bit)", "cpu4 (64-bit only)"],
           "row labels")
    legend = sorted(g.find(SVG + "text").text for g in root.iter(SVG + "g")
                    if "legend-task" in classes(g))
    # A run that ends in execve is the caller's: under kill the 32-bit child
    # never runs; the 32-bit parent's child has no 64-bit part.
    if ISA == "aarch64":
        want = ["trace-demo-aarc pid 1 tid 1 (aarch64)", "trace-demo-aarc pid 2 tid 2 (aarch64)"]
    else:
        want = ["trace-demo-armh pid 1 tid 1 (aarch32)"]
    if policy == "upstream" or ISA == "armhf":
        want.append("trace-demo-armh pid 2 tid 2 (aarch32)")
    expect(legend, sorted(want), "legend")
    markers = {}
    for g in root.iter(SVG + "g"):
        if "marker" in classes(g):
            kind = classes(g)[1]
            markers[kind] = markers.get(kind, 0) + 1
            check(g.find(SVG + "title") is not None, f"marker {kind} without a title")
    expect(markers.get("exec"), 1 if (policy, ISA) == ("kill", "armhf") else 2, "exec markers")
    expect(markers.get("offline"), 1, "offline markers")
    expect(markers.get("online"), 1, "online markers")
    expect(markers.get("kill", 0), 1 if policy == "kill" else 0, "kill markers")
    check(markers.get("migrate", 0) >= 1, "no migration marker")
    # Affinity changes with their rule (docs/tracing.md promises them).
    affinity = [g.find(SVG + "title").text for g in root.iter(SVG + "g")
                if classes(g)[:2] == ["marker", "affinity"]]
    expect(affinity, SVG_AFFINITY[(ISA, policy)], "affinity markers")
    # Rows grouped by type and capacity, each group labelled.
    groups = [(g.get("data-cpus"), g.find(SVG + "text").text) for g in root.iter(SVG + "g")
              if "group" in classes(g)]
    expect(groups, [("0-3", "cpu0-3: 32-bit-capable (aarch32+aarch64), capacity 1024"),
                    ("4-7", "cpu4-7: 64-bit only (aarch64), capacity 1024")], "row groups")
    # Drawn in time order: bars by start (their titles' times), and no
    # task on two vCPUs at once.
    spans = []
    for r in root.iter(SVG + "rect"):
        if "run" in classes(r):
            m = re.search(r"([0-9.]+)-([0-9.]+) \u00b5s$", r.find(SVG + "title").text)
            spans.append((float(m[1]), float(m[2]), r.get("data-tid"), r.get("y")))
    expect([sp[0] for sp in spans], sorted(sp[0] for sp in spans), "bars in time order")
    for i, (s0, e0, tid0, y0) in enumerate(spans):
        for s1, e1, tid1, y1 in spans[i + 1:]:
            check(not (tid0 == tid1 and y0 != y1 and s1 < e0 - 1e-9 and s0 < e1 - 1e-9),
                  f"tid {tid0} on two vCPUs at once: {s0}-{e0} and {s1}-{e1}")
    runs = [r for r in root.iter(SVG + "rect") if "run" in classes(r)]
    check(len(runs) > 0, "no runs drawn")
    ticks = [t.text for t in root.iter(SVG + "text") if "tick" in classes(t)]
    check(len(ticks) >= 2 and ticks[0] == "0", f"time axis ticks: {ticks}")
    return path


def mode_chromium():
    svg = mode_svg("upstream")
    # Chromium refuses to run as root with its sandbox (it needs user
    # namespaces it cannot set up for root): --no-sandbox, on a local file.
    base = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=" + os.path.join(OUT, f"chromium-profile-{ISA}")]
    url = "file://" + os.path.abspath(svg)
    r = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=180)
    expect(r.returncode, 0, "chromium --dump-dom status")
    check("<svg" in r.stdout and 'class="run"' in r.stdout, "chromium's DOM has no timeline")
    check("parsererror" not in r.stdout, "chromium found XML errors: " + r.stdout[:500])
    png = os.path.join(OUT, f"timeline-{ISA}.png")
    if os.path.exists(png):
        os.remove(png)
    r = subprocess.run(base + ["--window-size=1250,560", f"--screenshot={png}", url],
                       capture_output=True, text=True, timeout=180)
    expect(r.returncode, 0, "chromium --screenshot status")
    with open(png, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000,
          f"screenshot is not a drawn PNG ({len(data)} bytes)")


def mode_determinism():
    """The same program and seed twice: byte-identical trace files."""
    outputs = []
    for attempt in range(2):
        paths = [os.path.join(OUT, f"det{attempt}-{ISA}.{ext}") for ext in ("json", "txt", "svg")]
        run("upstream", 7, "--trace", paths[0])
        run("upstream", 7, "--trace", paths[1], "--trace-format", "ftrace", "--timeline", paths[2])
        outputs.append([open(p, "rb").read() for p in paths])
    for i, ext in enumerate(("json", "txt", "svg")):
        check(outputs[0][i] == outputs[1][i], f"two runs gave different {ext} files")
        check(len(outputs[0][i]) > 0, f"empty {ext} file")


os.makedirs(OUT, exist_ok=True)
{
    "json": lambda: mode_json("upstream"),
    "json-kill": lambda: mode_json("kill"),
    "ftrace": mode_ftrace,
    "ftrace-kill": mode_ftrace_kill,
    "ftrace-signal": mode_ftrace_signal,
    "svg": lambda: (mode_svg("upstream"), mode_svg("kill")),
    "chromium": mode_chromium,
    "determinism": mode_determinism,
}[MODE]()
for f in failures:
    print("FAIL:", f)
print(f"{MODE} {ISA}: {'ok' if not failures else f'{len(failures)} failure(s)'}")
sys.exit(1 if failures else 0)
