#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's trace-cmd and rt-app inside the machine, on the machine's own
tracefs (docs/tracing.md, "Tracing inside the machine"; issue 28 item 3).

record: `trace-cmd record --nosplice -e sched` of a shell
that writes "hi" to trace_marker and sleeps 10 ms, then `trace-cmd report` of what it wrote,
both inside the machine: the report has the 4 vCPUs, the shell's exec,
its print event (by tracing_mark_write, named through /proc/kallsyms) and
its exit, and sched_switch lines.

splice: `trace-cmd record -e sched` without --nosplice, so its readers
splice() trace_pipe_raw's full pages into a pipe and from it into their
files, of a shell writing 300 markers (some pages' worth): the report has
all 300 in order, the shell's exec and exit, sched_switch lines.

rtapp: rt-app 1.0 with "ftrace": true (its markers go through
/sys/kernel/debug/tracing/trace_marker) under trace-cmd record: rt-app
exits 0 and the report has its markers in order, "[0] starts", "[0]
begins loop 0 phase 0 step 0", "[0] exiting", "main ends".

instance: `trace-cmd record -B foo -e sched_switch` (a tracefs instance,
issue 28 item 3) of a shell writing "there" to the instance's trace_marker
and sleeping 10 ms: trace-cmd makes instances/foo, records it and removes
it (the directory is empty after); the report has sched_switch lines, all
of buffer foo, and the print in foo.

cyclicdeadline: rt-tests' cyclicdeadline (SCHED_DEADLINE) finds debugfs in
/proc/mounts, reads /sys/kernel/debug/sched/features and turns HRTICK_DL
on there, runs its deadline thread for a second and exits 0 with its
"T: 0" line.

The root is read-only; everything is written in the private /tmp. Exit 77
(skipped) when the root lacks the programs of the mode.

usage: tracecmd_check.py ASYMU ROOT MODE
"""
import base64
import json
import os
import subprocess
import sys

asymu, root, mode = sys.argv[1:4]
needs = {"record": ["trace-cmd"], "splice": ["trace-cmd"], "instance": ["trace-cmd"], "rtapp": ["trace-cmd", "rt-app"],
         "cyclicdeadline": ["cyclicdeadline"]}[mode]
for prog in ["usr/bin/" + n for n in needs]:
    if not os.path.exists(os.path.join(root, prog)):
        print(f"skipped: {root} has no {prog}")
        sys.exit(77)

RECORD = "trace-cmd record --nosplice"
if mode == "record":
    # The shell waits for a 10 ms sleep after its marker: switches happen
    # well inside the recording (asymu reports a run's sched_switch when the
    # run ends, so those of the shell's last moments may come after
    # trace-cmd has stopped tracing: docs/tracing.md).
    script = (f"cd /tmp && {RECORD} -e sched -- /bin/sh -c 'echo hi > "
              "/sys/kernel/tracing/trace_marker; sleep 0.01' >/dev/null 2>&1; echo record=$?; "
              "trace-cmd report -i /tmp/trace.dat")
elif mode == "splice":
    script = ("cd /tmp && trace-cmd record -e sched -- /bin/sh -c 'i=0; while [ $i -lt 300 ]; "
              "do i=$((i+1)); echo marker$i > /sys/kernel/tracing/trace_marker; done' "
              ">/dev/null 2>&1; echo record=$?; trace-cmd report -i /tmp/trace.dat")
elif mode == "instance":
    script = (f"cd /tmp && {RECORD} -B foo -e sched_switch -- /bin/sh -c 'echo there > "
              "/sys/kernel/tracing/instances/foo/trace_marker; sleep 0.01' >/dev/null 2>&1; "
              "echo record=$?; ls /sys/kernel/tracing/instances; echo ls-done; "
              "trace-cmd report -i /tmp/trace.dat")
elif mode == "cyclicdeadline":
    script = ("cyclicdeadline -q -t 1 -D 1; echo status=$?; "
              "cat /sys/kernel/debug/sched/features")
else:
    config = {"tasks": {"thread0": {"loop": 3, "run": 1000, "sleep": 2000}},
              "global": {"duration": 1, "default_policy": "SCHED_OTHER", "ftrace": True,
                         "calibration": 100, "logdir": "/tmp", "log_basename": "rt-app"}}
    b64 = base64.b64encode(json.dumps(config).encode()).decode()
    script = (f"cd /tmp && echo {b64} | base64 -d > rt.json && {RECORD} -e sched_switch "
              "rt-app rt.json >/dev/null 2>&1; echo record=$?; trace-cmd report -i /tmp/trace.dat")

r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--cpus", "4", "--",
                    os.path.join(root, "bin/sh"), "-c", script],
                   capture_output=True, text=True, timeout=280)
out = r.stdout
lines = out.splitlines()


def fail(why):
    sys.exit(f"FAIL: {why}\nstatus {r.returncode}\nstdout:\n{out[-4000:]}\nstderr:\n{r.stderr[-2000:]}")


if mode == "cyclicdeadline":
    feats = lines[-1].split() if lines else []
    if r.returncode != 0 or "status=0" not in lines or \
            not any(l.startswith("T: 0 (") and " C:" in l for l in lines):
        fail("cyclicdeadline did not run")
    if "HRTICK_DL" not in feats or "NO_HRTICK" not in feats:
        fail(f"sched/features after it: {feats}")
    print("ok: cyclicdeadline ran, HRTICK_DL on")
    sys.exit(0)
if r.returncode != 0 or "record=0" not in lines or "cpus=4" not in lines:
    fail("trace-cmd record or report failed")
prints = [l.split("tracing_mark_write: ", 1)[1] for l in lines
          if " print: " in l and "tracing_mark_write: " in l]
switches = [l for l in lines if " sched_switch: " in l]
if not switches:
    fail("no sched_switch in the report")
if mode == "instance":
    if lines[lines.index("record=0") + 1] != "ls-done":
        fail("trace-cmd left its instance in /sys/kernel/tracing/instances")
    if not all(l.startswith("foo: ") for l in switches):
        fail("a sched_switch not of buffer foo")
    if prints != ["there"] or not any(l.startswith("foo: ") and " print: " in l for l in lines):
        fail(f"print events {prints}, wanted ['there'] in foo")
elif mode == "splice":
    if prints != [f"marker{i}" for i in range(1, 301)]:
        fail(f"print events {prints[:3]} ... {prints[-3:]} ({len(prints)}), wanted marker1 to marker300")
    if not any("sched_process_exec:" in l and "filename=/bin/sh" in l for l in lines) or \
            not any("sched_process_exit:" in l and "comm=sh " in l for l in lines):
        fail("the shell's exec or exit is missing")
elif mode == "record":
    if prints != ["hi"]:
        fail(f"print events {prints}, wanted ['hi']")
    pline = next(l for l in lines if " print: " in l)
    if not pline.strip().startswith("sh-"):
        fail(f"the print is not the shell's: {pline}")
    if not any("sched_process_exec:" in l and "filename=/bin/sh" in l for l in lines) or \
            not any("sched_process_exit:" in l and "comm=sh " in l for l in lines):
        fail("the shell's exec or exit is missing")
else:
    wanted = ["[0] starts", "[0] begins loop 0 phase 0 step 0", "[0] exiting", "main ends"]
    at = [prints.index(w) if w in prints else -1 for w in wanted]
    if -1 in at or at != sorted(at):
        fail(f"rt-app's markers {wanted} not all there in order: {prints[:8]} ... {prints[-4:]}")
print(f"ok: {len(switches)} sched_switch, {len(prints)} print events")
