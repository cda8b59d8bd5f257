#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""scenario_trace_check.py - `asymu replay --trace/--timeline` over two
example scenarios (one file each, the scenario's name inserted), then one
with --trace-format ftrace: parses every file, checks exact events, and that
a second run writes the same bytes.

  scenario_trace_check.py ASYMU SRC OUTDIR
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftrace_check  # noqa: E402  Perfetto's systrace rules and 5.15's formats

ASYMU, SRC, OUT = sys.argv[1:4]
SVG = "{http://www.w3.org/2000/svg}"
SCENARIOS = ["article-execve", "saved-mask-chain"]
failures = []
os.makedirs(OUT, exist_ok=True)


def expect(got, want, what):
    if got != want:
        failures.append(f"{what}: expected {want!r}, got {got!r}")


def replay(*args):
    cmd = [ASYMU, "replay", *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=SRC)
    expect(r.returncode, 0, f"status of {' '.join(cmd)} ({r.stderr})")
    return r.stdout


def run_both(tag):
    base = os.path.join(OUT, tag)
    out = replay("--trace", base + ".json", "--timeline", base + ".svg",
                 *[f"examples/scenarios/{s}.yaml" for s in SCENARIOS])
    expect(out, "".join(f"PASS examples/scenarios/{s}.yaml (upstream)\n" for s in SCENARIOS)
           + "2 passed, 0 failed\n", "replay output")
    return {s: (f"{base}.{s}.json", f"{base}.{s}.svg") for s in SCENARIOS}


def affinity_changes(path):
    with open(path) as f:
        doc = json.load(f)
    expect(doc["otherData"], {"generator": "asymu", "policy": "upstream", "seed": 1, "cpus": 8,
                              "aarch32": "0-3", "capacity": [1024] * 8}, f"{path}: otherData")
    ev = doc["traceEvents"]
    for e in ev:
        if e["ph"] == "X" and e["args"]["isa"] == "aarch32" and e["tid"] > 3:
            failures.append(f"{path}: 32-bit run on cpu{e['tid']}: {e}")
    execs = [(e["args"]["comm"], e["args"]["isa"]) for e in ev if e.get("name") == "exec"]
    return execs, [(e["args"]["old"], e["args"]["new"], e["args"]["rule"]) for e in ev
                   if e.get("name") == "affinity"]


def check_svg(path):
    root = ET.parse(path).getroot()
    expect(root.tag, SVG + "svg", f"{path}: root")
    rows = [g for g in root.iter(SVG + "g") if "row" in g.get("class", "").split()]
    expect([g.get("data-cpu") for g in rows], [str(c) for c in range(8)], f"{path}: rows")
    expect([g.get("data-cpu") for g in rows if "aarch32" in g.get("class", "").split()],
           ["0", "1", "2", "3"], f"{path}: 32-bit rows")


first = run_both("a")
expect(affinity_changes(first["article-execve"][0]),
       ([("pol-launch-aarc", "aarch64"), ("pol-show-armhf", "aarch32")],
        [("0-7", "4-7", "U8"), ("4-7", "0-3", "U1")]), "article-execve trace")
expect(affinity_changes(first["saved-mask-chain"][0]),
       ([("pol-launch-aarc", "aarch64"), ("pol-show-armhf", "aarch32"),
         ("pol-show-aarch6", "aarch64")],
        [("0-7", "2-5", "U8"), ("2-5", "2-3", "U1"), ("2-3", "2-5", "U3")]),
       "saved-mask-chain trace")
for s in SCENARIOS:
    check_svg(first[s][1])
second = run_both("b")
for s in SCENARIOS:
    for a, b in zip(first[s], second[s]):
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read():
                failures.append(f"{a} and {b} differ")

# One scenario: the file as named; ftrace's exec lines.
ftrace = os.path.join(OUT, "one.txt")
replay("--trace", ftrace, "--trace-format", "ftrace", "examples/scenarios/article-execve.yaml")
failures.extend(ftrace_check.check_file(ftrace, nr_cpus=8))
with open(ftrace) as f:
    lines = f.read().splitlines()
expect(lines[0], "# tracer: nop", "ftrace first line")
execs = [re.search(r"filename=\S*/(\S+) pid=(\d+)", l).groups() for l in lines
         if "sched_process_exec:" in l]
expect(execs, [("pol-launch-aarch64", "1"), ("pol-show-armhf", "1")], "ftrace exec lines")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
