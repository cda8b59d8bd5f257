#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tracefs_check.py ASYMU GUEST_DIR ISA OUTDIR: a trace_marker write inside
the machine (tests/guest/tracefs.c record) is one event of the machine's
stream, so the host-side --trace shows it too: as a "print" instant event
with the text in the JSON, and as ftrace's print event, by
tracing_mark_write, in the trace.dat that Debian's trace-cmd reports, and
as "tracing_mark_write: TEXT" in the ftrace text."""
import json
import re
import os
import subprocess
import sys

asymu, guest_dir, isa, outdir = sys.argv[1:5]
os.makedirs(outdir, exist_ok=True)
prog = os.path.join(guest_dir, f"tracefs-{isa}")
msg = "hello from the guest"


def run(fmt, path):
    args = [asymu, "run", "--cpus", "4", "--trace", path]
    if fmt:
        args += ["--trace-format", fmt]
    r = subprocess.run(args + ["--", prog, "record"], capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or f'text: "{msg}\\n"' not in r.stdout:
        sys.exit(f"FAIL: the guest run ({fmt or 'json'}) exited {r.returncode}:\n{r.stdout}{r.stderr}")


js = os.path.join(outdir, f"marker-{isa}.json")
run(None, js)
with open(js) as f:
    doc = json.load(f)
events = doc["traceEvents"] if isinstance(doc, dict) else doc
prints = [e for e in events if e.get("name") == "print"]
if len(prints) != 1 or prints[0]["args"].get("msg") != msg or prints[0]["args"].get("tid") != 1 \
        or prints[0].get("ph") != "i":
    sys.exit(f"FAIL: JSON print events: {prints}")

dat = os.path.join(outdir, f"marker-{isa}.dat")
run("dat", dat)
r = subprocess.run(["trace-cmd", "report", dat], capture_output=True, text=True, timeout=60)
lines = [l for l in r.stdout.splitlines() if " print: " in l]
# The task is pid 1; trace-cmd's sched_switch plugin names it by the comm its
# sched_wakeup_new showed before the exec ("init"), as for all of pid 1's
# records in the report, so only the pid is checked.
if r.returncode != 0 or len(lines) != 1 or not lines[0].rstrip().endswith(
        f"tracing_mark_write: {msg}") or not re.match(r"\s*\S+-1 +\[000\]", lines[0]):
    sys.exit(f"FAIL: trace-cmd report's print lines: {lines}\n{r.stderr}")
# The ftrace text shows it as the kernel's trace file does: print's
# "%ps: %s", by the writer (pid 1, named by its comm after the exec).
txt = os.path.join(outdir, f"marker-{isa}.txt")
run("ftrace", txt)
with open(txt) as f:
    lines = [l for l in f.read().splitlines() if "tracing_mark_write" in l]
if len(lines) != 1 or not re.match(rf"\s*tracefs-{isa}-1 +\[000\] \.{{5}} +[0-9.]+: "
                                   rf"tracing_mark_write: {msg}$", lines[0]):
    sys.exit(f"FAIL: the ftrace text's print lines: {lines}")
print("ok")
