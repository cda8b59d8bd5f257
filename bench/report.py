#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""report.py - the main table of a bench/run.sh run, with issue 14's targets,
and the run's JSON and SVG chart (Python standard library only).

Usage: report.py --samples SAMPLES --results DIR --asymu ASYMU --runs N
                 --commit COMMIT [--smoke] [--pinned CPU] [--count NAME=N...]

SAMPLES has one line per run: "workload isa runner round wall_ns cpu_ns"
(cpu_ns "-" without GNU time). The table and the ratios use CPU seconds
(user + system of the whole process tree) when every sample has them: the
machine is shared, and CPU time moves less than wall time when others run.
Writes DIR/DATE-COMMIT.json and DIR/DATE-COMMIT.svg (schema: bench/README.md)
and prints the table."""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys
from xml.sax.saxutils import escape

# Runner names in the samples file -> names in the JSON and the table.
RUNNERS = {"asymu": "asymu", "qemu": "qemu-user", "raw": "unicorn", "raw-b": "unicorn+hook"}

# workload -> (target ratio, compared with, source). "issue 14" targets are
# the issue's own; "derived" ones carry an issue target over to rows it does
# not name: guest-code-bound programs take the store loop's and the
# compressors' 1.5x, start-up rows the hello rows' 1.0x.
TARGETS = {
    "store": (1.5, "qemu", "issue 14"),
    "store-raw": (1.5, "qemu", "derived"),
    "store-hot": (1.05, "raw", "issue 14"),
    "getpid": (0.4, "qemu", "issue 14"),
    "pingpong": (0.4, "qemu", "issue 14"),
    "yield": (0.4, "qemu", "issue 14"),
    "fork": (0.5, "qemu", "issue 14"),
    "spawn": (0.4, "qemu", "issue 14"),
    "hello-static": (1.0, "qemu", "issue 14"),
    "hello-dynamic": (1.0, "qemu", "issue 14"),
    "churn": (None, "qemu", None),
    "idle": (None, "qemu", None),
    "hogs": (None, "qemu", None),
    "gzip": (1.5, "qemu", "issue 14"),
    "xz": (1.5, "qemu", "issue 14"),
    "bzip2": (1.5, "qemu", "derived"),
    "sqlite": (1.5, "qemu", "derived"),
    "py-start-S": (1.0, "qemu", "derived"),
    "py-start": (1.0, "qemu", "derived"),
    "py-loop": (1.5, "qemu", "derived"),
}
# Why a row misses its target, printed under the table for the rows this
# run missed: what the profiles showed (bench/README.md, "Why rows miss
# their targets"), and what was tried.
MISSED_BECAUSE = {
    "store": "every guest load and store checks Unicorn's soft TLB inline; the slice "
             "counter is a UC_HOOK_BLOCK call per block (a patched Unicorn: blocked here)",
    "hook": "the slice counter, a UC_HOOK_BLOCK call per block (an inline counter needs a "
            "patched Unicorn: blocked here)",
    "guest": "Unicorn's lookup for every branch to another page (qemu-user chains them) and "
             "the slice counter, a UC_HOOK_BLOCK call per block (a patched Unicorn: blocked "
             "here)",
    "start": "Unicorn walks its whole soft TLB for every new translation "
             "(tlb_reset_dirty_by_vaddr, 10-27%; one-slot walk measured 0.79x: a patched "
             "Unicorn, blocked here)",
    "engine": "a Unicorn engine opened and closed per process (tcg_exec_init, the CPU's "
              "init, AArch32's coprocessor register table alone 12%, uc_close), each region "
              "mapped into it rebuilding Unicorn's memory map (phys_page_compact 5-8%), its "
              "code translated again",
    "switch": "qemu-user's time is the host kernel's syscall and thread switch cost, so the "
              "ratio moves with the host; asymu's thread switch copies Unicorn's whole CPU "
              "state (12.6 KB, a third of yield)",
}
WHY_MISSED = {
    "store": "store", "store-raw": "store", "store-hot": "hook",
    "getpid": "switch", "pingpong": "switch", "yield": "switch",
    "fork": "engine", "spawn": "engine",
    "hello-static": "start", "hello-dynamic": "start", "py-start-S": "start", "py-start": "start",
    "gzip": "guest", "xz": "guest", "bzip2": "guest", "sqlite": "guest", "py-loop": "guest",
}
# fork's target is also a rate: fork+_exit+wait per second of asymu.
FORK_RATE = {"aarch64": 2000, "armhf": 1500}


def median(values):
    v = sorted(values)
    return v[(len(v) - 1) // 2]


def read_samples(path):
    """{(workload, isa, runner): [(wall_s, cpu_s or None), ...]} in file order."""
    cells = {}
    with open(path) as f:
        for line in f:
            w, isa, runner, _round, wall, cpu = line.split()
            cells.setdefault((w, isa, runner), []).append(
                (int(wall) / 1e9, None if cpu == "-" else int(cpu) / 1e9))
    return cells


def command_line(*cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return r.stdout.splitlines()[0] if r.returncode == 0 and r.stdout else None
    except OSError:
        return None


def build_rows(cells, counts):
    metric = "cpu" if all(c is not None for s in cells.values() for _, c in s) else "wall"
    med = {}
    for key, samples in cells.items():
        med[key] = median([c if metric == "cpu" else w for w, c in samples])
    rows = []
    for (w, isa, runner), samples in cells.items():
        target, against, source = TARGETS.get(w, (None, "qemu", None))
        ratio = met = None
        # A smoke run's tiny cells can take 0 CPU ticks: no ratio then.
        if runner == "asymu" and med.get((w, isa, against)):
            ratio = med[(w, isa, "asymu")] / med[(w, isa, against)]
            if target is not None:
                met = ratio <= target
        row = {
            "workload": w, "isa": isa, "runner": RUNNERS[runner],
            "samples": [round(c if metric == "cpu" else wall, 4) for wall, c in samples],
            "wall_samples": [round(wall, 4) for wall, _ in samples],
            "median": round(med[(w, isa, runner)], 4),
            "ratio": None if ratio is None else round(ratio, 3),
            "ratio_to": RUNNERS[against] if runner == "asymu" else None,
            "target": target if runner == "asymu" else None,
            "target_source": source if runner == "asymu" else None,
            "met": met,
        }
        if w == "fork" and runner == "asymu":
            row["per_second"] = round(counts["fork"] / med[(w, isa, runner)])
            row["target_per_second"] = FORK_RATE[isa]
        rows.append(row)
    return metric, rows


def table(metric, rows):
    by = {(r["workload"], r["isa"], r["runner"]): r for r in rows}
    seen = []
    for r in rows:
        if (r["workload"], r["isa"]) not in seen:
            seen.append((r["workload"], r["isa"]))
    unit = "CPU s" if metric == "cpu" else "wall s"
    out = [f"{'workload':<14}{'isa':<9}{'asymu':>9}{'qemu':>9}{'raw':>9}  {'ratio':<12}"
           f"{'target':<14}{'result':<9}note",
           f"{'':<14}{'':<9}{unit:>9}{unit:>9}{unit:>9}"]
    for w, isa in seen:
        def m(runner):
            r = by.get((w, isa, runner))
            return f"{r['median']:.3f}" if r else "-"
        a = by.get((w, isa, "asymu"), {})
        ratio = "-" if a.get("ratio") is None else f"{a['ratio']:.2f}x"
        if a.get("ratio_to") == "unicorn":
            ratio += " raw"
        target = "-"
        if a.get("target") is not None:
            target = f"<= {a['target']:.2f}x" + ("*" if a["target_source"] == "derived" else "")
        result = "-" if a.get("met") is None else ("met" if a["met"] else "NOT MET")
        note = ""
        if "per_second" in a:
            note = f"{a['per_second']}/s (target {a['target_per_second']}/s)"
        out.append(f"{w:<14}{isa:<9}{m('asymu'):>9}{m('qemu-user'):>9}{m('unicorn'):>9}  "
                   f"{ratio:<12}{target:<14}{result:<9}{note}".rstrip())
    missed = {}
    for w, isa in seen:
        a = by.get((w, isa, "asymu"), {})
        slow = a.get("per_second", 0) < a.get("target_per_second", 0)
        if (a.get("met") is False or slow) and w in WHY_MISSED:
            rows_of = missed.setdefault(WHY_MISSED[w], [])
            if w not in rows_of:
                rows_of.append(w)
    if missed:
        out.append('not met, and why (profiles: bench/README.md, "Why rows miss their targets"):')
        for cause, names in missed.items():
            out.append(f"  {', '.join(names)}: {MISSED_BECAUSE[cause]}")
    return "\n".join(out)


def svg(meta, rows):
    """asymu / qemu-user per workload on a log scale: a bar per ISA from 1.0
    to the ratio, a line at 1.0, and the row's target as a red tick."""
    isas = ["aarch64", "armhf"]
    colour = {"aarch64": "#3b6fb6", "armhf": "#e08a2c"}
    workloads = []
    for r in rows:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    ratio = {(r["workload"], r["isa"]): r for r in rows if r["runner"] == "asymu"}
    lo, hi = 1 / 8, 8.0
    left, width, top, band, bar = 170, 560, 60, 34, 13
    height = top + band * len(workloads) + 50

    def x(v):
        v = min(max(v, lo), hi)
        return left + width * (math.log2(v) - math.log2(lo)) / (math.log2(hi) - math.log2(lo))

    e = []
    e.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 150}" '
             f'height="{height}" font-family="sans-serif" font-size="12">')
    e.append(f'<title>asymu / qemu-user, {escape(meta["date"])}, {escape(meta["commit"])}</title>')
    e.append('<rect width="100%" height="100%" fill="white"/>')
    e.append(f'<text x="{left}" y="20" font-size="14">asymu time / qemu-user time '
             f'({"CPU" if meta["metric"] == "cpu" else "wall"}, median of {meta["runs"]}), '
             f'log scale; store-hot: / raw Unicorn</text>')
    e.append(f'<text x="{left}" y="38" fill="#555">{escape(meta["date"])}, commit '
             f'{escape(meta["commit"])}; red tick: the target</text>')
    for v in (0.125, 0.25, 0.5, 1, 2, 4, 8):
        e.append(f'<line x1="{x(v):.1f}" y1="{top - 6}" x2="{x(v):.1f}" '
                 f'y2="{height - 40}" stroke="{"#000" if v == 1 else "#ddd"}"/>')
        e.append(f'<text x="{x(v):.1f}" y="{height - 24}" text-anchor="middle">{v:g}x</text>')
    for n, w in enumerate(workloads):
        y = top + band * n
        e.append(f'<text class="row" x="{left - 8}" y="{y + band / 2 + 4:.1f}" '
                 f'text-anchor="end">{escape(w)}</text>')
        for k, isa in enumerate(isas):
            r = ratio.get((w, isa))
            if not r or r["ratio"] is None:
                continue
            yb = y + 3 + k * (bar + 1)
            x0, x1 = sorted((x(1.0), x(r["ratio"])))
            e.append(f'<rect class="bar" x="{x0:.1f}" y="{yb}" width="{max(x1 - x0, 1):.1f}" '
                     f'height="{bar}" fill="{colour[isa]}"><title>{escape(w)} {isa}: '
                     f'{r["ratio"]:.2f}x</title></rect>')
            e.append(f'<text x="{x(max(r["ratio"], 1.0)) + 4:.1f}" y="{yb + bar - 2}" '
                     f'font-size="10">{r["ratio"]:.2f}</text>')
        target = TARGETS.get(w, (None,))[0]
        if target is not None:
            e.append(f'<line class="target" x1="{x(target):.1f}" y1="{y + 1}" x2="{x(target):.1f}" '
                     f'y2="{y + band - 5}" stroke="#d00" stroke-width="3"/>')
    for k, isa in enumerate(isas):
        e.append(f'<rect x="{left + width + 20}" y="{top + 20 * k}" width="12" height="12" '
                 f'fill="{colour[isa]}"/>')
        e.append(f'<text x="{left + width + 38}" y="{top + 20 * k + 11}">{isa}</text>')
    e.append("</svg>")
    return "\n".join(e) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--asymu", required=True)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--pinned", default="none")
    p.add_argument("--commit", required=True, help="the commit measured (git describe)")
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--count", action="append", default=[], metavar="NAME=N",
                   help="a workload's iteration count, recorded in the JSON")
    a = p.parse_args()
    counts = {k: int(v) for k, v in (c.split("=", 1) for c in a.count)}
    cells = read_samples(a.samples)
    if not cells:
        sys.exit("report.py: no samples")
    metric, rows = build_rows(cells, counts)
    now = datetime.datetime.now(datetime.timezone.utc)
    cpu = ""
    with open("/proc/cpuinfo") as f:
        cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "")
    meta = {
        "date": now.strftime("%Y-%m-%d %H:%M UTC"),
        "commit": a.commit,
        "host": {"cpus": os.cpu_count(), "model": cpu, "pinned_cpu": a.pinned},
        "versions": {"asymu": command_line(a.asymu, "--version"),
                     "qemu-user": command_line("qemu-aarch64", "--version")},
        "runs": a.runs, "metric": metric, "smoke": a.smoke, "counts": counts,
    }
    os.makedirs(a.results, exist_ok=True)
    base = os.path.join(a.results, f"{now.strftime('%Y-%m-%dT%H%M')}-{meta['commit']}")
    with open(base + ".json", "w") as f:
        json.dump({"schema": 1, **meta, "rows": rows}, f, indent=1)
        f.write("\n")
    with open(base + ".svg", "w") as f:
        f.write(svg(meta, rows))
    print(table(metric, rows))
    print("(* a derived target: the issue names none for this row; see bench/README.md)")
    print(f"results: {base}.json, chart: {base}.svg")


if __name__ == "__main__":
    main()
