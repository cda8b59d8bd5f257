#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's rt-app 1.0 on an asymmetric machine: its own logs show the
capacities of docs/timing.md ("The speed factor") and the scheduler's
periods (issue 27, "Tests": rt-app workloads).

The machine: 8 vCPUs, 0-3 capacity 512, 4-7 capacity 1024, vCPUs 0-5
AArch32-capable (so that a 32-bit rt-app has a big CPU too). One rt-app
run, with its JSON written here, has four threads:

- little (pinned to vCPU 1) and big (vCPU 5): 4 periods of a 2 ms "run"
  (a number of loops, so its time scales with capacity) and a 10 ms
  absolute "timer";
- migr: 3 periods on vCPU 2, 3 on a big vCPU (6; 4 for the 32-bit one,
  inside the AArch32 vCPUs), 3 on vCPU 2 again ("cpus" per phase);
- dl: SCHED_DEADLINE (3 ms every 10 ms), 4 periods of a 1 ms "run", started
  100 ms late ("delay") so that it has the machine to itself.

"calibration" is fixed: the ns per loop rt-app measures with "CPU5" (a big
vCPU) on each ISA, so "run" on a big vCPU is about its configured time.
"log_size" is 1 (MB of buffer per thread, written at the end: rt-app 1.0's
"file" string turns the log off, its strcmp test is inverted).

Checked from the per-thread logs (columns perf run period ... c_duration
c_period wu_lat, in µs):
- perf (loops) is the same in every row: c_duration * 1000 / calibration;
- big's run is c_duration +-10%; little's run is 2.0x big's +-10%; migr's
  run is little's on vCPU 2 and big's on the big vCPU (+-10%), so it
  changes with each move; dl's run is c_duration scaled by 1024 / the
  capacity of the vCPU the trace shows it on, +-10%, within its budget;
- periods are kept: every row after a thread's first has
  c_period - previous wu_lat - 5 µs <= period <= c_period + wu_lat. The
  timer is absolute (rt-app adds the period to its last expiry), and a
  period runs from just after the last wake-up to just after this one, so
  it is c_period plus this wake-up's lateness less the last one's, less
  what rt-app does between two loops (its log entry in memory,
  sched_setaffinity, clock_gettime: a few syscalls of 0.25 µs and some
  hundred instructions of 2 ns at capacity 1024, twice that at 512,
  docs/timing.md): under 5 µs, plus, where migr moves to its next CPU set,
  the context switch on the new vCPU (2 µs * 1024 / its capacity). The
  first row starts after the threads' start barrier, so it is shorter, by
  at most 1 ms;
- wake-up latency: an idle vCPU wakes at the timer's time, then pays a
  context switch (2 µs) and the clock_gettime syscall (0.25 µs) scaled by
  1024 / capacity, rounded down to µs: wu_lat <= 2.25 µs * 1024 / C + 1.
From asymu's --trace (ftrace text): each pinned thread runs only on its
vCPUs once it has pinned itself, migr on both of its sets; under the
armhf root every task (all 32-bit) runs on vCPUs 0-5 only (and
--check-invariants stops the run if one does not).
The armhf root also checks that a 32-bit thread cannot become
SCHED_DEADLINE while admission control is on (its affinity, narrowed to
the AArch32 vCPUs, does not span the root domain: sched_setattr EPERM,
docs/policies.md U9); the run above turns it off first
(sched_rt_runtime_us = -1).
The run is done twice with the same --seed: logs and traces byte-identical.

usage: rtapp_check.py ASYMU ROOT ISA (ISA: arm64 or armhf)
"""
import base64
import json
import os
import re
import subprocess
import sys
import tempfile

asymu, root, isa = sys.argv[1:4]
if not os.path.exists(os.path.join(root, "usr/bin/rt-app")):
    print(f"skipped: {root} has no usr/bin/rt-app")
    sys.exit(77)

CAPACITY = {c: 512 if c < 4 else 1024 for c in range(8)}
AARCH32 = set(range(6))
CALIBRATION = {"arm64": 423, "armhf": 492}[isa]
BIG_MIGR = 6 if isa == "arm64" else 4
PERIOD, RUN, DL_RUN = 10000, 2000, 1000


def phase(loops, run, ref, cpus=None):
    p = {"loop": loops, "run": run, "timer": {"ref": ref, "period": PERIOD}}
    if cpus is not None:
        p["cpus"] = cpus
    return p


config = {
    "global": {"duration": -1, "default_policy": "SCHED_OTHER", "calibration": CALIBRATION,
               "logdir": "/tmp", "log_basename": "rt", "log_size": 1},
    "tasks": {
        "little": {"loop": 1, "phases": {"p": phase(4, RUN, "tl", [1])}},
        "big": {"loop": 1, "phases": {"p": phase(4, RUN, "tb", [5])}},
        "migr": {"loop": 1, "phases": {"a": phase(3, RUN, "tm", [2]),
                                       "b": phase(3, RUN, "tm", [BIG_MIGR]),
                                       "c": phase(3, RUN, "tm", [2])}},
        "dl": {"loop": 1, "policy": "SCHED_DEADLINE", "dl-runtime": 3000,
               "dl-period": PERIOD, "dl-deadline": PERIOD, "delay": 100000,
               "phases": {"p": phase(4, DL_RUN, "td")}},
    },
}
# Only a deadline thread, under admission control: EPERM for a 32-bit one.
dl_only = {"global": {"duration": -1, "calibration": CALIBRATION, "log_size": 0},
           "tasks": {"dl": {"loop": 1, "policy": "SCHED_DEADLINE", "dl-runtime": 3000,
                            "dl-period": PERIOD, "dl-deadline": PERIOD,
                            "phases": {"p": phase(1, 100, "t")}}}}


def b64(obj):
    return base64.b64encode(json.dumps(obj).encode()).decode()


script = "cd /tmp && "
if isa == "armhf":
    script += (f"echo {b64(dl_only)} | base64 -d > dl.json && rt-app dl.json 2>&1; "
               "echo dl-only=$?; echo -1 > /proc/sys/kernel/sched_rt_runtime_us && ")
script += (f"echo {b64(config)} | base64 -d > rt.json && rt-app rt.json 2>/dev/null; "
           "echo status=$?; for t in little big migr dl; do echo \"== $t\"; cat /tmp/rt-$t-*.log; done")


def run(tmp, n):
    trace = os.path.join(tmp, f"trace{n}.txt")
    r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--cpus", "8",
                        "--aarch32", "0-5", "--capacity", "0-3=512,4-7=1024",
                        "--check-invariants", "--trace", trace, "--trace-format", "ftrace",
                        "--", os.path.join(root, "bin/sh"), "-c", script],
                       capture_output=True, text=True, timeout=120)
    return r, open(trace).read() if os.path.exists(trace) else ""


with tempfile.TemporaryDirectory() as tmp:
    r, trace = run(tmp, 1)
    r2, trace2 = run(tmp, 2)
out = r.stdout


def fail(why):
    sys.exit(f"FAIL: {why}\nstatus {r.returncode}\nstdout:\n{out[-6000:]}\n"
             f"stderr:\n{r.stderr[-2000:]}")


if r.returncode != 0 or "status=0" not in out.splitlines():
    fail("rt-app did not exit 0")
if isa == "armhf":
    if "dl-only=1" not in out.splitlines() or \
            "sched_setattr: Operation not permitted" not in out:
        fail("a 32-bit SCHED_DEADLINE thread under admission control: wanted EPERM")
if (r2.returncode, r2.stdout, trace2) != (r.returncode, out, trace):
    fail("a second run with the same --seed differs (logs or trace)")

# The logs: "== NAME" then rt-app's header lines (#) and one row a period.
logs, name = {}, None
for line in out.splitlines():
    if line.startswith("== "):
        name = line[3:]
        logs[name] = []
    elif name and line and not line.startswith("#"):
        f = line.split()
        if len(f) != 11:
            fail(f"{name}: unexpected log line {line!r}")
        logs[name].append(dict(zip(["idx", "perf", "run", "period", "start", "end", "rel_st",
                                    "slack", "c_duration", "c_period", "wu_lat"],
                                   map(int, f))))
want_rows = {"little": 4, "big": 4, "migr": 9, "dl": 4}
for t, n in want_rows.items():
    if len(logs.get(t, [])) != n:
        fail(f"{t}: {len(logs.get(t, []))} log rows, wanted {n}")

# Where each thread ran, from asymu's trace: CPUs it was switched in on,
# for the pinned threads from their first sched_setaffinity on.
SWITCH = re.compile(r"\[(\d{3})\].*sched_switch: .*==> next_comm=(\S+) next_pid=(\d+)")
AFFINITY = re.compile(r"asymu_affinity: comm=\S+ pid=(\d+) .*cause=sched_setaffinity")
pid_of = {m.group(2): m.group(3) for m in
          (SWITCH.search(l) for l in trace.splitlines()) if m and m.group(2) in want_rows}
pinned, ran_on, all_cpus = set(), {}, set()
for line in trace.splitlines():
    m = AFFINITY.search(line)
    if m:
        pinned.add(m.group(1))
    m = SWITCH.search(line)
    if m and not m.group(2).startswith("swapper"):
        cpu, pid = int(m.group(1)), m.group(3)
        all_cpus.add(cpu)
        if pid in pinned or m.group(2) == "dl":
            ran_on.setdefault(pid, set()).add(cpu)
for t, cpus in {"little": {1}, "big": {5}, "migr": {2, BIG_MIGR}}.items():
    if t not in pid_of or ran_on.get(pid_of[t]) != cpus:
        fail(f"{t} ran on {sorted(ran_on.get(pid_of.get(t), []))} once pinned, wanted {sorted(cpus)}")
if isa == "armhf" and not all_cpus <= AARCH32:
    fail(f"a 32-bit task ran on vCPUs {sorted(all_cpus - AARCH32)}, outside 0-5")
dl_cpus = ran_on.get(pid_of.get("dl"), set())
if not dl_cpus or len({CAPACITY[c] for c in dl_cpus}) != 1:
    fail(f"dl ran on {sorted(dl_cpus)}: wanted vCPUs of one capacity")
dl_cap = CAPACITY[min(dl_cpus)]


def near(value, want, what):
    if abs(value - want) > want / 10:
        fail(f"{what}: {value} µs, wanted {want:.0f} +-10%")


big_run = logs["big"][0]["run"]
for t, rows in logs.items():
    for i, row in enumerate(rows):
        where = f"{t} row {i}"
        if row["perf"] != row["c_duration"] * 1000 // CALIBRATION:
            fail(f"{where}: perf {row['perf']} loops, wanted c_duration*1000/{CALIBRATION}")
        if t == "migr":
            cap = CAPACITY[BIG_MIGR] if 3 <= i < 6 else CAPACITY[2]
        else:
            cap = {"little": CAPACITY[1], "big": CAPACITY[5], "dl": dl_cap}[t]
        near(row["run"], row["c_duration"] * 1024 / cap, f"{where}: run on capacity {cap}")
        near(row["run"], big_run * row["c_duration"] / RUN * 1024 / cap,
             f"{where}: run against big's ({big_run} µs) scaled by 1024/{cap}")
        if row["wu_lat"] > 2.25 * 1024 / cap + 1:
            fail(f"{where}: wake-up latency {row['wu_lat']} µs on capacity {cap}")
        if i == 0:
            low = row["c_period"] - 1000
        else:
            moved = t == "migr" and i in (3, 6)
            low = row["c_period"] - rows[i - 1]["wu_lat"] - 5 - (2 * 1024 / cap if moved else 0)
        if not low <= row["period"] <= row["c_period"] + row["wu_lat"]:
            fail(f"{where}: period {row['period']} µs, c_period {row['c_period']}")
        if t == "dl" and row["run"] > 3000:
            fail(f"{where}: run {row['run']} µs past the 3 ms budget")
ratio = logs["little"][1]["run"] / logs["big"][1]["run"]
if abs(ratio - 2.0) > 0.2:
    fail(f"little/big run ratio {ratio:.3f}, wanted 2.0 +-10%")
migr = [row["run"] for row in logs["migr"]]
if not (migr[2] > migr[3] and migr[5] < migr[6]):
    fail(f"migr's run did not change with its CPU set: {migr}")
print(f"ok: little/big run {ratio:.3f}, migr runs {migr}, dl on vCPU(s) "
      f"{sorted(dl_cpus)} run {logs['dl'][1]['run']} µs, periods kept, 2 runs identical")
