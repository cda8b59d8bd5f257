# SPDX-License-Identifier: GPL-2.0-or-later
"""The timeline's side panel (issue 28 item 4) shows what `asymu report`
prints of the same run, to the digit.

Usage: timeline_panel_check.py ASYMU GUEST_DIR ISA OUT_DIR

Runs svg-hogs (two processes computing on one vCPU, one named with the
characters XML must escape) with --trace and --timeline together, reads
the SVG's panel text by text, and compares every number with `asymu report
--json` of the JSON trace, formatted as the report's tables format them
(microseconds with three decimals, percent rounded half up).
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ASYMU, GUESTS, ISA, OUT = sys.argv[1:5]
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<h&\"o'g>"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def expect(got, want, what):
    if got != want:
        fail(f"{what}: got {got!r}, want {want!r}")


def us(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


def pct(part, whole):
    h = (part * 10000 + whole // 2) // whole if whole else 0
    return f"{h // 100}.{h % 100:02d}"


os.makedirs(OUT, exist_ok=True)
trace = os.path.join(OUT, f"panel-{ISA}.json")
svg = os.path.join(OUT, f"panel-{ISA}.svg")
r = subprocess.run([ASYMU, "run", "--cpus", "1", "--aarch32", "0", "--seed", "1", "--trace", trace,
                    "--timeline", svg, "--", os.path.join(GUESTS, f"svg-hogs-{ISA}")],
                   capture_output=True, text=True, timeout=120)
expect((r.returncode, r.stdout), (0, "hogs: 0 0\n"), "asymu run")
r = subprocess.run([ASYMU, "report", trace, "--json"], capture_output=True, text=True, timeout=60)
expect(r.returncode, 0, "asymu report status")
report = json.loads(r.stdout)

# The hostile comm must not break the XML: ElementTree refuses a bad file.
root = ET.parse(svg).getroot()
panel = [g for g in root.iter(SVG + "g") if g.get("class") == "stats"]
expect(len(panel), 1, "panels")
panel = panel[0]


def texts(g):
    return {t.get("class"): t.text for t in g.iter(SVG + "text") if t.get("class")}


window = [t.text for t in panel.iter(SVG + "text") if t.get("class") == "stat-window"]
w = report["window"]
expect(window, ["window %s-%s \u00b5s; %d migrations, %d wake-ups, %d affinity changes"
                % (us(w["start_ns"]), us(w["end_ns"]), report["totals"]["migrations"],
                   report["totals"]["wakeups"], report["totals"]["affinity_changes"])], "window")

got, want = [], []
for g in panel.iter(SVG + "g"):
    if g.get("class") == "stat-task":
        t = texts(g)
        got.append((g.get("data-pid"), g.get("data-tid"), t["stat-comm"], t["stat-running"],
                    t["stat-on32"], t["stat-on64"], t["stat-migr"], t["stat-p50"], t["stat-max"]))
for t in report["tasks"]:
    lat = t["wakeup_latency"]
    want.append((str(t["pid"]), str(t["tid"]), f"{t['comm']} {t['pid']}/{t['tid']}",
                 us(t["running_ns"]), pct(t["running_aarch32_cpus_ns"], t["running_ns"]),
                 pct(t["running_aarch64_only_cpus_ns"], t["running_ns"]), str(t["migrations"]),
                 us(lat["p50_ns"]) if lat else "-", us(lat["max_ns"]) if lat else "-"))
expect(got, want, "the panel's tasks against asymu report's")

got = [(g.get("data-cpu"), texts(g)["stat-busy"], texts(g)["stat-util"])
       for g in panel.iter(SVG + "g") if g.get("class") == "stat-cpu"]
want = [(str(c["cpu"]), us(c["busy_ns"]), pct(c["busy_ns"], w["length_ns"]))
        for c in report["cpus"]]
expect(got, want, "the panel's vCPUs against asymu report's")

# What the run is: the two hogs share the one vCPU, about half of the
# window each, all of it on a 32-bit-capable vCPU, never migrated.
hogs = {t["comm"]: t for t in report["tasks"] if t["comm"] in (HOSTILE, "hog-b")}
expect(sorted(hogs), sorted([HOSTILE, "hog-b"]), "the hogs' comms (the hostile one unchanged)")
for name, t in hogs.items():
    share = t["running_ns"] * 100 // w["length_ns"]
    if not 45 <= share <= 55:
        fail(f"{name} ran {share}% of the window, not about half")
    expect((t["running_aarch32_cpus_ns"], t["migrations"]), (t["running_ns"], 0), name)
# The escaped name as the file has it in the panel: its tooltip and its row.
with open(svg, encoding="utf-8") as f:
    text = f.read()
expect(text[text.index('<g class="stats">'):].count("&lt;h&amp;&quot;o'g&gt;"), 2,
       "the hostile comm escaped in the panel")

# The largest machine: its panel too (a vCPU row each), and the run is not
# refused for it (the capacities of 1024 vCPUs are longer than the
# asymu_machine record's list).
big = os.path.join(OUT, f"panel-1024-{ISA}.svg")
r = subprocess.run([ASYMU, "run", "--cpus", "1024", "--seed", "1", "--timeline", big, "--",
                    os.path.join(GUESTS, f"svg-hogs-{ISA}")], capture_output=True, text=True,
                   timeout=120)
expect((r.returncode, r.stdout), (0, "hogs: 0 0\n"), "asymu run --cpus 1024")
cpus = [g.get("data-cpu") for g in ET.parse(big).getroot().iter(SVG + "g")
        if g.get("class") == "stat-cpu"]
expect(cpus, [str(c) for c in range(1024)], "the 1024 vCPUs' rows")
print("ok")
