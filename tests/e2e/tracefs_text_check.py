#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tracefs_text_check.py ASYMU GUEST_DIR ISA OUTDIR: what the guest reads
from /sys/kernel/tracing/trace (tests/guest/tracefs-text.c raw: a fork, an
exit, a new task and markers) is the lines the host-side --trace-format
ftrace file of the same run has for those events, byte for byte and in
the same order, and both texts pass ftrace_check.py (Perfetto's systrace
rules and 5.15's formats)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftrace_check  # noqa: E402

asymu, guest_dir, isa, outdir = sys.argv[1:5]
os.makedirs(outdir, exist_ok=True)
prog = os.path.join(guest_dir, f"tracefs-text-{isa}")
host = os.path.join(outdir, f"text-{isa}.txt")
guest = os.path.join(outdir, f"text-{isa}.guest.txt")
r = subprocess.run([asymu, "run", "--cpus", "4", "--trace", host, "--trace-format", "ftrace",
                    "--", prog, "raw"], capture_output=True, text=True, timeout=120)
if r.returncode != 0:
    sys.exit(f"FAIL: the guest run exited {r.returncode}:\n{r.stdout}{r.stderr}")
with open(guest, "w") as f:
    f.write(r.stdout)
inside = [l for l in r.stdout.splitlines() if not l.startswith("#")]
kinds = ("sched_process_fork:", "sched_process_exit:", "task_newtask:", "tracing_mark_write:")
if [sum(k in l for l in inside) for k in kinds] != [1, 1, 1, 3] or len(inside) != 6:
    sys.exit("FAIL: the guest's trace lines are not a fork, an exit, a new task and 3 markers:\n"
             + r.stdout)
with open(host) as f:
    outside = [l for l in f.read().splitlines()
               if not l.startswith("#") and any(k in l for k in kinds)]
# the host's text has every event of the run; while the guest's set_event
# held them, the same ones (the exit of the child is the last)
first = outside.index(inside[0]) if inside[0] in outside else -1
if outside[first:first + len(inside)] != inside:
    sys.exit("FAIL: the guest's lines differ from the host's:\n--- guest\n" + "\n".join(inside)
             + "\n--- host\n" + "\n".join(outside))
failures = ftrace_check.check_file(host, nr_cpus=4) + ftrace_check.check_file(guest, nr_cpus=4)
if failures:
    sys.exit("FAIL: ftrace_check:\n" + "\n".join(str(f) for f in failures))
print("ok")
