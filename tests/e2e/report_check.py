#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""report_check.py - `asymu report TRACE [--json]` (issue 28 item 4) on
traces of tests/guest/report-load.c, workloads whose answer is known.

  report_check.py MODE ASYMU GUEST_DIR ISA OUTDIR

MODE: pin, pair, compat, capacity, affinity, sleep, table, determinism,
errors, 28-4-reason, 28-4-formats (the same report from the JSON, the
ftrace text and the trace.dat), 28-4-formats-errors. Each runs the guest under `asymu run --seed 1 --cpus 8 --aarch32 0-3
--trace F` and checks the report's numbers: identities that hold whatever
the timing (a task pinned to one vCPU runs there the whole window; two
pinned hogs' times add up to the window and each one waits exactly while
the other runs) and the exact values of this build's virtual time (the same
options always give the same trace). Exit status 0 when every check holds.
"""
import json
import os
import re
import subprocess
import sys

MODE, ASYMU, GUEST, ISA, OUT = sys.argv[1:6]
ASYMU, GUEST, OUT = os.path.abspath(ASYMU), os.path.abspath(GUEST), os.path.abspath(OUT)
# Run from GUEST as ./report-load-ISA with a fixed environment: the guest's
# stack holds its path and environment, whose sizes change its virtual time.
PROG = f"/report-load-{ISA}"  # inside --sysroot GUEST: the same path wherever the build is
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
# The sanitizer build's options (LeakSanitizer's suppressions) and the
# coverage map's directory (tests/sanitize/) are kept.
ENV.update({k: os.environ[k] for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
                                       "ASYMU_COVERAGE_DIR") if k in os.environ})
NAME = "report-load-aar" if ISA == "aarch64" else "report-load-arm"
PRINTS = "aarch64" if ISA == "aarch64" else "arm"
failures = []

# Exact values of this build's virtual time (ns), per ISA: the window of
# `pin 0 20` (20 ms of spinning, the start before and the exit after); the
# parent's and the child's running time in `pair 0 20` on two vCPUs and
# cpu0's idle time (the parent, blocked in waitpid, is woken at its child's
# exit and runs 45.142 us (armhf 44.092 us) later: the child's exit work is
# virtual time in no run, so the vCPU shows idle); the sleeper's
# wake-ups and latency percentiles in `sleep 20 1000 1` (each sleep ends
# inside the hog's slice, about 80 us).
EXACT = {
    "aarch64": {"pin": 20087220, "pair": (12089500, 8045068, 45142),
                "sleep": (22, 6, 216, 2000, 2000)},
    "armhf": {"pin": 20087638, "pair": (12089436, 8044094, 44092),
              "sleep": (22, 4, 18, 2000, 2000)},
}


def check(cond, what):
    if not cond:
        failures.append(what)


def expect(got, want, what):
    check(got == want, f"{what}: expected {want!r}, got {got!r}")


def run(name, *args, options=(), fmt="json", sub=""):
    os.makedirs(os.path.join(OUT, sub), exist_ok=True)
    path = os.path.join(OUT, sub, f"{name}-{ISA}.json")
    cmd = [ASYMU, "run", "--seed", "1", "--cpus", "8", "--aarch32", "0-3", *options,
           "--sysroot", GUEST, "--trace", os.path.abspath(path), "--trace-format", fmt,
           "--", PROG, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=GUEST, env=ENV)
    expect(r.returncode, 0, f"status of {' '.join(cmd)} ({r.stderr.strip()})")
    check(r.stdout.startswith(f"{PRINTS}: ") and r.stdout.endswith(" done\n") or
          r.stdout.endswith(" times\n"), f"the guest's output {r.stdout!r}")
    return path


def report(path, *extra, cwd=None):
    r = subprocess.run([ASYMU, "report", path, *extra], capture_output=True, text=True,
                       timeout=60, cwd=cwd)
    expect(r.returncode, 0, f"status of asymu report {path} ({r.stderr.strip()})")
    expect(r.stderr, "", "report's stderr")
    return r.stdout


def report_json(path):
    return json.loads(report(path, "--json"))


def tasks_named(doc, comm):
    return [t for t in doc["tasks"] if t["comm"] == comm]


def mode_pin():
    doc = report_json(run("pin", "pin", "0", "20"))
    length = doc["window"]["length_ns"]
    expect(len(doc["tasks"]), 1, "one task")
    t = doc["tasks"][0]
    expect((t["pid"], t["tid"], t["comm"]), (1, 1, NAME), "the task")
    # pinned to cpu0, where pid 1 starts: it runs there from the first
    # event to the last, and nowhere else
    expect(t["running_by_cpu"], [{"cpu": 0, "running_ns": length}], "running by cpu")
    expect(t["running_ns"], length, "running = the window")
    expect(t["waiting_ns"], 0, "waiting")
    expect(t["migrations"], 0, "migrations")
    expect([(c["rule"], c["old"], c["new"]) for c in t["affinity_changes"]],
           [("U8", "0-7", "0")] if ISA == "aarch64" else [("U1", "0-7", "0-3"), ("U4", "0-3", "0")],
           "affinity changes (a 32-bit exec is narrowed to 0-3 first)")
    expect(doc["cpus"][0]["utilisation_bp"], 10000, "cpu0 100.00%")
    expect([c["busy_ns"] for c in doc["cpus"][1:]], [0] * 7, "other vCPUs busy")
    expect(doc["totals"]["migrations"], 0, "total migrations")
    if EXACT[ISA]["pin"]:
        expect(length, EXACT[ISA]["pin"], "this build's window")


# The pair runs on a two-vCPU machine, vCPU 1 idle: sched_latency 12 ms, so
# the two hogs pinned to vCPU 0 take 8 ms turns (2 ticks; docs/scheduler.md
# C4). On the default 8 vCPUs (24 ms, 12 ms slices) a turn is longer than
# this 20 ms window's halves allow; e2e-sched-27-4-cfs-pinned-cpu0-* check
# those turns.
TWO_CPUS = ("--cpus", "2", "--aarch32", "0-1")


def mode_pair():
    doc = report_json(run("pair", "pair", "0", "20", options=TWO_CPUS))
    length = doc["window"]["length_ns"]
    expect([(t["pid"], t["tid"]) for t in doc["tasks"]], [(1, 1), (2, 2)], "two tasks")
    parent, child = doc["tasks"]
    for t in doc["tasks"]:
        expect([c["cpu"] for c in t["running_by_cpu"]], [0], f"task {t['tid']} only on cpu0")
        expect(t["migrations"], 0, f"task {t['tid']} migrations")
    # vCPU 0 always busy: the two times fill the window; the parent
    # waits exactly while the child runs (it never sleeps until the child
    # has exited), the child waits while the parent runs after the fork
    cpu0 = doc["cpus"][0]
    expect(parent["running_ns"] + child["running_ns"], cpu0["busy_ns"], "cpu0 busy = both runs")
    expect(cpu0["busy_ns"] + cpu0["idle_ns"], length, "busy and idle fill the window")
    expect(parent["waiting_ns"], child["running_ns"], "parent waits while the child runs")
    # the halves: the fair class switches at ticks (4 ms at HZ=250), so
    # each runs within one tick of half the window
    for t in doc["tasks"]:
        check(abs(t["running_ns"] * 2 - length) <= 2 * 4000000,
              f"task {t['tid']} runs {t['running_ns']} of {length}: not within a tick of half")
    if EXACT[ISA]["pair"]:
        expect((parent["running_ns"], child["running_ns"], cpu0["idle_ns"]), EXACT[ISA]["pair"],
               "exact halves")


def mode_compat():
    # six unpinned hogs on 8 vCPUs: a 32-bit program's only on 0-3, a 64-bit
    # one's spread to the 64-bit-only vCPUs too
    doc = report_json(run("spread", "spread", "6", "10"))
    expect(len(doc["tasks"]), 7, "seven tasks")
    off32 = sum(t["running_aarch64_only_cpus_ns"] for t in doc["tasks"])
    for t in doc["tasks"]:
        expect(t["running_aarch32_cpus_ns"] + t["running_aarch64_only_cpus_ns"], t["running_ns"],
               f"task {t['tid']}: the two CPU types add up")
        expect(t["isa"], "aarch32" if ISA == "armhf" else "aarch64", f"task {t['tid']} isa")
    busy_64only = sum(c["busy_ns"] for c in doc["cpus"][4:])
    if ISA == "armhf":
        expect(off32, 0, "32-bit tasks on the 64-bit-only vCPUs")
        expect(busy_64only, 0, "64-bit-only vCPUs busy")
    else:
        check(off32 > 0 and busy_64only == off32, "64-bit hogs use the 64-bit-only vCPUs")


def mode_capacity():
    path = run("capacity", "spread", "6", "10", options=("--capacity", "0-3=512,4-7=1024"))
    doc = report_json(path)
    expect(doc["machine"]["capacity"], [512] * 4 + [1024] * 4, "capacities")
    for t in doc["tasks"]:
        expect(sum(c["running_ns"] for c in t["running_by_capacity"]), t["running_ns"],
               f"task {t['tid']}: the classes add up")
        for c in t["running_by_capacity"]:
            check(c in ({"capacity": 512, "cpus": "0-3", "running_ns": c["running_ns"]},
                        {"capacity": 1024, "cpus": "4-7", "running_ns": c["running_ns"]}),
                  f"class {c}")
    text = report(path)
    check("task time per capacity class (us)" in text, "the capacity table")


def mode_affinity():
    doc = report_json(run("affinity", "affinity"))
    expect(len(doc["tasks"]), 1, "one task")
    t = doc["tasks"][0]
    rule = "U8" if ISA == "aarch64" else "U4"
    changes = [(c["old"], c["new"], c["rule"], c["cause"]) for c in t["affinity_changes"]]
    if ISA == "aarch64":
        want = [("0-7", "1", rule, "sched_setaffinity"), ("1", "2-3", rule, "sched_setaffinity"),
                ("2-3", "0-7", rule, "sched_setaffinity")]
    else:
        # the 32-bit exec narrows 0-7 to the 32-bit vCPUs (U1); the saved
        # "all" is then 0-3
        want = [("0-7", "0-3", "U1", "exec"), ("0-3", "1", rule, "sched_setaffinity"),
                ("1", "2-3", rule, "sched_setaffinity"), ("2-3", "0-3", rule, "sched_setaffinity")]
    expect(changes, want, "affinity changes")
    # moved off cpu0 to 1, off 1 to 2 (the least loaded of 2-3); 0-7 keeps it
    expect(t["migrations"], 2, "migrations")
    expect(t["migrations_by_reason"], {f"affinity {rule}": 2}, "migration reasons")
    expect([c["cpu"] for c in t["running_by_cpu"]], [0, 1, 2], "vCPUs it ran on")
    text = report(os.path.basename(run("affinity", "affinity")), cwd=OUT)
    check(f"report-load-{'aar' if ISA == 'aarch64' else 'arm'}  affinity {rule}" in text,
          "migration reason in the table")


REASONS = {"wakeup", "balance", "misfit", "affinity", "hotplug", "exec"}


def migrate_reasons(path):
    """The JSON trace's migrate events: (tid, reason shown by the report)."""
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    affinity = {(e["ts"], e["args"]["tid"]): e["args"]["rule"] for e in events
                if e.get("name") == "affinity"}
    out = []
    for e in events:
        if e.get("name") != "migrate":
            continue
        why = e["args"].get("reason")
        check(why in REASONS, f"migrate event {e}: reason {why!r}")
        rule = affinity.get((e["ts"], e["args"]["tid"]))
        out.append((e["args"]["tid"], f"affinity {rule}" if why in ("affinity", "exec") and rule
                    else why))
    return out


def mode_reason():
    # issue 28 (item 3 of what was left): the scheduler records why it
    # moved a task; the report counts those reasons (an affinity change's
    # with its rule). sched_setaffinity moves: "affinity" twice.
    path = run("reason-affinity", "affinity")
    moves = migrate_reasons(path)
    rule = "U8" if ISA == "aarch64" else "U4"
    expect([why for _, why in moves], [f"affinity {rule}"] * 2, "affinity workload's reasons")
    # twelve hogs on 8 vCPUs: idle vCPUs pull (balance); the report's
    # counts per task are the trace's recorded reasons
    for name, path in (("affinity", path), ("spread", run("reason-spread", "spread", "12", "10"))):
        moves = migrate_reasons(path) if name == "spread" else moves
        if name == "spread":
            check(any(why == "balance" for _, why in moves), f"spread: a balance move in {moves}")
        want = {}
        for tid, why in moves:
            want.setdefault(tid, {}).setdefault(why, 0)
            want[tid][why] += 1
        got = {}
        for t in report_json(path)["tasks"]:
            for why, n in t["migrations_by_reason"].items():
                got.setdefault(t["tid"], {}).setdefault(why, 0)
                got[t["tid"]][why] += n
        expect(got, want, f"{name}: the report's reasons per task")


def mode_sleep():
    # 20 sleeps of 1 ms, pinned to cpu1 beside a hog: each wake-up waits for
    # the hog's slice
    doc = report_json(run("sleep", "sleep", "20", "1000", "1"))
    sleeper = [t for t in doc["tasks"] if t["tid"] == 1]
    expect(len(sleeper), 1, "one sleeper")
    s = sleeper[0]
    lat = s["wakeup_latency"]
    # its own start, 20 sleeps and the wait for the hog's death
    expect(s["wakeups"], 22, "wakeups")
    expect(lat["count"], 22, "latencies")
    check(lat["p50_ns"] <= lat["p90_ns"] <= lat["p99_ns"] <= lat["max_ns"], "ordered percentiles")
    check(s["waiting_ns"] >= lat["max_ns"], "waiting includes the latencies")
    if EXACT[ISA]["sleep"]:
        expect((s["wakeups"], lat["p50_ns"], lat["p90_ns"], lat["p99_ns"], lat["max_ns"]),
               EXACT[ISA]["sleep"], "exact latencies")


def mode_table():
    """The text form of `pair`: the expected table, byte for byte."""
    path = run("table", "pair", "0", "20", options=TWO_CPUS)
    got = report(os.path.basename(path), cwd=OUT)
    want_path = os.path.join(os.path.dirname(__file__), "expected", f"report-pair-{ISA}.txt")
    with open(want_path) as f:
        want = f.read()
    expect(got, want, f"the table (vs {want_path})")


def mode_determinism():
    a = run("det-a", "sleep", "5", "500", "1")
    b = run("det-b", "sleep", "5", "500", "1")
    ja, jb = report_json(a), report_json(b)
    ja.pop("trace"), jb.pop("trace")
    expect(ja, jb, "the same run twice, the same report")
    text = report(a)
    for t in report_json(a)["tasks"]:
        us = f"{t['running_ns'] // 1000}.{t['running_ns'] % 1000:03d}"
        check(us in text, f"task {t['tid']}'s running time {us} in the table")


FORMATS = ("json", "ftrace", "dat")


def mode_formats():
    """Issue 28 item 4: `asymu report` reads the ftrace text and the
    trace.dat too, and the same run traced in each format gives the same
    report, byte for byte. Each format's trace has the same file name (in
    its own directory), which the report names. The pair's table is the
    expected one (exact numbers); the other workloads (32-bit exec,
    migrations, affinity changes, hotplug, a machine of two capacities,
    wake-up latencies) must agree across the formats."""
    for fmt in FORMATS:
        path = run("table", "pair", "0", "20", options=TWO_CPUS, fmt=fmt, sub=fmt)
        with open(path, "rb") as f:
            head = f.read(16)
        expect(head.startswith({"json": b"{", "ftrace": b"# tracer: nop",
                                "dat": b"\x17\x08\x44tracing"}[fmt]), True,
               f"{fmt}: the file is that format")
        got = report(os.path.basename(path), cwd=os.path.dirname(path))
        want_path = os.path.join(os.path.dirname(__file__), "expected", f"report-pair-{ISA}.txt")
        with open(want_path) as f:
            expect(got, f.read(), f"{fmt}: the table (vs {want_path})")
    workloads = {
        "f-sleep": (("sleep", "20", "1000", "1"), ()),
        "f-affinity": (("affinity",), ()),
        "f-spread": (("spread", "12", "10"), ()),
        "f-capacity": (("spread", "6", "10"), ("--capacity", "0-3=512,4-7=1024")),
        "f-compat": (("pin", "0", "5"), ("--aarch32", "0-3")),
    }
    for name, (args, options) in workloads.items():
        outs = {}
        for fmt in FORMATS:
            path = run(name, *args, options=options, fmt=fmt, sub=fmt)
            base, cwd = os.path.basename(path), os.path.dirname(path)
            outs[fmt] = (report(base, cwd=cwd), report(base, "--json", cwd=cwd))
        for fmt in FORMATS[1:]:
            expect(outs[fmt][0], outs["json"][0], f"{name}: {fmt}'s table is the JSON's")
            expect(outs[fmt][1], outs["json"][1], f"{name}: {fmt}'s --json is the JSON's")
    # trace-demo: a 64-bit task that execs a 32-bit one, migrations by
    # affinity and exec, a vCPU offline and online again
    outs = {}
    for fmt in FORMATS:
        os.makedirs(os.path.join(OUT, fmt), exist_ok=True)
        path = os.path.join(OUT, fmt, f"demo-{ISA}.trace")
        cmd = [ASYMU, "run", "--cpus", "8", "--aarch32", "0-3", "--seed", "1", "--trace", path,
               "--trace-format", fmt, "--", os.path.join(GUEST, f"trace-demo-{ISA}"),
               os.path.join(GUEST, "trace-demo-armhf")]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=ENV)
        expect(r.returncode, 0, f"status of {' '.join(cmd)} ({r.stderr.strip()})")
        outs[fmt] = (report(os.path.basename(path), cwd=os.path.dirname(path)),
                     report(os.path.basename(path), "--json", cwd=os.path.dirname(path)))
    doc = json.loads(outs["json"][1])
    check(doc["totals"]["migrations"] > 0 and any(c["offline_ns"] for c in doc["cpus"]),
          f"trace-demo: migrations and an offline vCPU in {doc['totals']}, {doc['cpus']}")
    check(any(t["isa"] == "aarch32" for t in doc["tasks"]), "trace-demo: a 32-bit task")
    for fmt in FORMATS[1:]:
        expect(outs[fmt][0], outs["json"][0], f"trace-demo: {fmt}'s table is the JSON's")
        expect(outs[fmt][1], outs["json"][1], f"trace-demo: {fmt}'s --json is the JSON's")


def mode_formats_errors():
    """Malformed ftrace texts and trace.dats: refused with the file and the
    line or record that is wrong."""
    for fmt in ("ftrace", "dat"):
        run("good", "pin", "0", "1", fmt=fmt, sub=fmt)
    with open(os.path.join(OUT, "ftrace", f"good-{ISA}.json")) as f:
        lines = f.read().split("\n")
    # an asymu_report line cut short
    n = next(i for i, l in enumerate(lines) if "asymu_report: what=run" in l)
    cut = lines[:n] + [lines[n][:lines[n].index(" rule=")]] + lines[n + 1:]
    with open(os.path.join(OUT, f"cut-{ISA}.txt"), "w") as f:
        f.write("\n".join(cut))
    fails([f"cut-{ISA}.txt"], f"asymu report: cut-{ISA}.txt:{n + 1}: asymu_report: no 'rule' "
          "after 'cpus'\n",
          "an asymu_report line cut short", cwd=OUT)
    # a run that ends past what asymu report reads (MAX_TS_US)
    bad = [re.sub(r"end_ns=\d+", "end_ns=2000000000000000", l) if i == n else l
           for i, l in enumerate(lines)]
    with open(os.path.join(OUT, f"late-{ISA}.txt"), "w") as f:
        f.write("\n".join(bad))
    start = re.search(r"ts_ns=(\d+)", lines[n]).group(1)
    fails([f"late-{ISA}.txt"], f"asymu report: late-{ISA}.txt:{n + 1}: asymu_report: run end_ns "
          f"2000000000000000 is not in {start}-1000000000000000\n", "a run ending too late",
          cwd=OUT)
    # Linux's own trace, without asymu's machine
    with open(os.path.join(OUT, f"linux-{ISA}.txt"), "w") as f:
        f.write("\n".join(lines[:12] + [l for l in lines[12:] if "sched_switch" in l]) + "\n")
    fails([f"linux-{ISA}.txt"],
          f"asymu report: linux-{ISA}.txt:13: the first event is sched_switch, not "
          "asymu_machine: not a trace of asymu\n", "a trace without asymu_machine", cwd=OUT)
    # a line that is no event line
    with open(os.path.join(OUT, f"garbage-{ISA}.txt"), "w") as f:
        f.write("\n".join(lines[:14] + ["garbage"] + lines[14:]))
    fails([f"garbage-{ISA}.txt"],
          f"asymu report: garbage-{ISA}.txt:15: not an event line (COMM-PID [CPU] "
          "FLAGS SECS.MICROS: EVENT: FIELDS)\n", "a line that is no event", cwd=OUT)
    with open(os.path.join(OUT, "dat", f"good-{ISA}.json"), "rb") as f:
        dat = f.read()
    with open(os.path.join(OUT, f"cut-{ISA}.dat"), "wb") as f:
        f.write(dat[:100])
    fails([f"cut-{ISA}.dat"], f"asymu report: cut-{ISA}.dat: trace.dat: its header_page or "
          "header_event is cut short\n",
          "a trace.dat cut short", cwd=OUT)
    # header_page's "size:8" as "saze:8": libtracecmd 3.1.6 crashes in
    # tracecmd_close() (fuzz-report's find), in the child that reads the file
    check(dat[71:77] == b"size:8", "header_page's first 'size:8' at byte 71 of the trace.dat")
    with open(os.path.join(OUT, f"bit-{ISA}.dat"), "wb") as f:
        f.write(dat[:72] + b"a" + dat[73:])
    fails([f"bit-{ISA}.dat"], f"asymu report: bit-{ISA}.dat: libtracecmd failed reading it "
          "(signal 11)\n", "a trace.dat that crashes libtracecmd", cwd=OUT)
    caps = b",".join([b"1024"] * 8)
    check(dat.count(caps) == 1, "the machine's capacities once in the trace.dat")
    with open(os.path.join(OUT, f"caps-{ISA}.dat"), "wb") as f:
        f.write(dat.replace(caps, b",".join([b"1024"] * 7 + [b"2048"])))
    fails([f"caps-{ISA}.dat"],
          f"asymu report: caps-{ISA}.dat: record 1 (cpu 0): asymu_machine: 'capacity' "
          "\"1024,1024,1024,1024,1024,1024,1024,2048\" is not a list of 8 capacities "
          "1-1024\n", "a trace.dat with a capacity out of range", cwd=OUT)


def fails(args, want, what, cwd=None):
    r = subprocess.run([ASYMU, "report", *args], capture_output=True, text=True, timeout=60,
                       cwd=cwd)
    expect((r.returncode, r.stdout, r.stderr), (2, "", want), what)


def mode_errors():
    good = run("good", "pin", "0", "1")
    with open(good) as f:
        text = f.read()
    os.makedirs(os.path.join(OUT, "dir"), exist_ok=True)
    lines = text.split("\n")
    with open(os.path.join(OUT, "cut.json"), "w") as f:
        f.write("\n".join(lines[:5]) + "\n")
    with open(os.path.join(OUT, "types.json"), "w") as f:
        f.write(text.replace('"cpus":8', '"cpus":"8"'))
    with open(os.path.join(OUT, "empty.json"), "w") as f:
        pass
    fails(["none.json"], "asymu report: none.json: cannot open: No such file or directory\n",
          "missing", cwd=OUT)
    fails(["dir"], "asymu report: dir: cannot read: Is a directory\n", "directory", cwd=OUT)
    fails(["empty.json"], "asymu report: empty.json: empty file, not a trace\n", "empty", cwd=OUT)
    fails(["cut.json"], "asymu report: cut.json:6:0: ']' expected near end of file\n",
          "truncated", cwd=OUT)
    fails(["types.json"], "asymu report: types.json: otherData: no integer 'cpus'\n",
          "a field of the wrong type", cwd=OUT)
    with open(os.path.join(OUT, "notes.txt"), "w") as f:
        f.write("hello\n")
    fails(["notes.txt"], "asymu report: notes.txt:1: not a trace: no JSON object, trace.dat "
          "magic or ftrace \"# tracer:\" header\n", "not a trace", cwd=OUT)
    fails([], "usage: asymu report TRACE [--json] | asymu report merge ...\n", "no TRACE")
    fails([good, "--tables"], "asymu report: unknown option '--tables'\n", "unknown option")
    fails([good, good], f"asymu report: one TRACE only ('{good}')\n", "two traces")


MODES = {"pin": mode_pin, "pair": mode_pair, "compat": mode_compat, "capacity": mode_capacity,
         "affinity": mode_affinity, "sleep": mode_sleep, "table": mode_table,
         "determinism": mode_determinism, "errors": mode_errors,
         "28-4-reason": mode_reason, "28-4-formats": mode_formats,
         "28-4-formats-errors": mode_formats_errors}
MODES[MODE]()
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
