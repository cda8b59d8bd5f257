#!/usr/bin/python3
"""trace_check.py - runs tests/guest/trace-demo under asymu with --trace
(JSON, ftrace) and --timeline, parses what it wrote and checks exact events.

  trace_check.py MODE ASYMU GUEST_DIR ISA OUTDIR

MODE: json, json-kill, ftrace, svg, chromium, determinism. ISA: aarch64 or
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


FTRACE_LINE = re.compile(r"^ {0,15}(\S.{0,15})-(\d+) +\[(\d{3})\] (\d+)\.(\d{6}): (\S+): +(.*)$")
FTRACE_FIELDS = {
    "sched_switch": r"(.+):(\d+) \[(-?\d+)\] (R\+?|S|Z|X) ==> (.+):(\d+) \[(-?\d+)\]",
    "sched_wakeup": r"(.+):(\d+) \[(-?\d+)\] CPU:(\d{3})",
    "sched_wakeup_new": r"(.+):(\d+) \[(-?\d+)\] CPU:(\d{3})",
    "sched_migrate_task": r"comm=(.+) pid=(\d+) prio=(-?\d+) orig_cpu=(\d+) dest_cpu=(\d+)",
    "sched_process_fork": r"comm=(.+) pid=(\d+) child_comm=(.+) child_pid=(\d+)",
    "sched_process_exec": r"filename=(.+) pid=(\d+) old_pid=(\d+)",
    "sched_process_exit": r"comm=(.+) pid=(\d+) prio=(-?\d+)",
    "cpuhp_enter": r"cpu: (\d{4}) target: +(\d+) step: +(\d+) \((\w+)\)",
    "cpuhp_exit": r"cpu: (\d{4})  state: +(\d+) step: +(\d+) ret: (-?\d+)",
}

# The lines other than switches and wake-ups, without their timestamps;
# HOTPLUG stands for vCPU 3 going offline and online.
FTRACE_HOTPLUG = """\
          <idle>-0     [003] cpuhp_enter:         cpu: 0003 target:   0 step:   1 (sched_cpu_deactivate)
          <idle>-0     [003] cpuhp_exit:          cpu: 0003  state:   0 step:   1 ret: 0
          <idle>-0     [003] cpuhp_enter:         cpu: 0003 target:   1 step:   1 (sched_cpu_activate)
          <idle>-0     [003] cpuhp_exit:          cpu: 0003  state:   1 step:   1 ret: 0
"""
FTRACE_EXPECTED = {
    "aarch64": """ trace-demo-aarc-1     [000] sched_process_exec:  filename=GUEST/trace-demo-aarch64 pid=1 old_pid=1
 trace-demo-aarc-1     [000] sched_process_fork:  comm=trace-demo-aarc pid=1 child_comm=trace-demo-aarc child_pid=2
 trace-demo-aarc-2     [001] sched_migrate_task:  comm=trace-demo-aarc pid=2 prio=120 orig_cpu=1 dest_cpu=6
 trace-demo-armh-2     [006] sched_migrate_task:  comm=trace-demo-armh pid=2 prio=120 orig_cpu=6 dest_cpu=0
 trace-demo-armh-2     [000] sched_process_exec:  filename=GUEST/trace-demo-armhf pid=2 old_pid=2
 trace-demo-armh-2     [000] sched_process_exit:  comm=trace-demo-armh pid=2 prio=120
HOTPLUG
 trace-demo-aarc-1     [000] sched_migrate_task:  comm=trace-demo-aarc pid=1 prio=120 orig_cpu=0 dest_cpu=2
 trace-demo-aarc-1     [002] sched_process_exit:  comm=trace-demo-aarc pid=1 prio=120
""",
    "armhf": """ trace-demo-armh-1     [000] sched_process_exec:  filename=GUEST/trace-demo-armhf pid=1 old_pid=1
 trace-demo-armh-1     [000] sched_process_fork:  comm=trace-demo-armh pid=1 child_comm=trace-demo-armh child_pid=2
 trace-demo-armh-2     [001] sched_process_exec:  filename=GUEST/trace-demo-armhf pid=2 old_pid=2
 trace-demo-armh-2     [001] sched_process_exit:  comm=trace-demo-armh pid=2 prio=120
HOTPLUG
 trace-demo-armh-1     [000] sched_migrate_task:  comm=trace-demo-armh pid=1 prio=120 orig_cpu=0 dest_cpu=2
 trace-demo-armh-1     [002] sched_process_exit:  comm=trace-demo-armh pid=1 prio=120
""",
}


def mode_ftrace():
    path = os.path.join(OUT, f"trace-{ISA}.txt")
    run("upstream", 1, "--trace", path, "--trace-format", "ftrace")
    with open(path) as f:
        lines = f.read().splitlines()
    expect(lines[0], "cpus=8", "first line")
    last_ts, rest, running = 0, [], {}
    for line in lines[1:]:
        m = FTRACE_LINE.match(line)
        if not m:
            failures.append(f"malformed line: {line!r}")
            continue
        comm, pid, cpu, sec, usec, event, fields = m.groups()
        ts = int(sec) * 1000000 + int(usec)
        check(ts >= last_ts, f"time goes back: {line!r}")
        last_ts = ts
        f = re.fullmatch(FTRACE_FIELDS.get(event, "(?!)"), fields)
        if not f:
            failures.append(f"bad {event} fields: {line!r}")
            continue
        if event == "sched_switch":
            prev, next_ = (f[1], f[2]), (f[5], f[6])
            # The vCPU runs what its last switch brought in (swapper first).
            expect(prev, running.get(cpu, (f"swapper/{int(cpu)}", "0")), f"cpu{cpu} prev")
            running[cpu] = next_
            expect((comm, pid), ("<idle>", "0") if prev[1] == "0" else prev, "switch's task")
        elif event not in ("sched_wakeup", "sched_wakeup_new"):
            rest.append(line[:line.index("]") + 1] + " " + line[line.index(": ") + 2:])
    want = FTRACE_EXPECTED[ISA].replace("GUEST", GUEST).replace("HOTPLUG\n", FTRACE_HOTPLUG)
    expect("\n".join(rest) + "\n", want,
           "lines other than switches and wake-ups")
    seen = {FTRACE_LINE.match(l)[6] for l in lines[1:] if FTRACE_LINE.match(l)}
    expect(seen, set(FTRACE_FIELDS), "event kinds")


SVG = "{http://www.w3.org/2000/svg}"


def classes(el):
    return el.get("class", "").split()


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
    "svg": lambda: (mode_svg("upstream"), mode_svg("kill")),
    "chromium": mode_chromium,
    "determinism": mode_determinism,
}[MODE]()
for f in failures:
    print("FAIL:", f)
print(f"{MODE} {ISA}: {'ok' if not failures else f'{len(failures)} failure(s)'}")
sys.exit(1 if failures else 0)
