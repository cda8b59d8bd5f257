#!/usr/bin/env python3
"""tracefs_check.py ASYMU GUEST_DIR ISA OUTDIR: a trace_marker write inside
the machine (tests/guest/tracefs.c record) is one event of the machine's
stream, so the host-side --trace shows it too: as a "print" instant event
with the text in the JSON, and as ftrace's print event, by
tracing_mark_write, in the trace.dat that Debian's trace-cmd reports."""
import json
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
if r.returncode != 0 or len(lines) != 1 or not lines[0].rstrip().endswith(
        f"tracing_mark_write: {msg}") or f"tracefs-{isa}-1 " not in lines[0]:
    sys.exit(f"FAIL: trace-cmd report's print lines: {lines}\n{r.stderr}")
print("ok")
