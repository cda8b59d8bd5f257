#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The sanitized suite's plan (tests/sanitize/README.md).

  plan.py measure BUILD DATA [--exclude REGEX] [-j N]
      runs each test of BUILD (a coverage-map build, CMake's
      ASYMU_COVERAGE_MAP) alone, with ASYMU_COVERAGE_DIR=DATA/maps/<test>,
      and notes its result and time in DATA/runs/<test>.json (a test
      measured already with the same asymu binary is not run again).
      The fixtures' setups (busybox-fetch) run first, not measured.
  plan.py pick DATA PLAN [--commit C]
      from those maps: the edges ("guards") of the asymu binary each test
      reaches; keeps every test that may not be skipped, then, greedily,
      the test with the most not yet reached guards per second of its time,
      until the kept tests reach every guard any test reached, then drops
      the picked tests the others made redundant; writes the others to
      PLAN. Same data, same plan (ties go to the name).
  plan.py select BUILD PLAN [--exclude REGEX]
      for a ctest run in BUILD: writes BUILD/sanitize-plan.ctest (ctest's
      -I list: the tests -E REGEX leaves, minus the plan's), says on stderr
      how many tests it leaves out and why, prints `-I FILE` on stdout.
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import heapq
import json
import os
import re
import shutil
import subprocess
import sys

# Never skipped, whatever their coverage: the unit tests (their own
# executables, which call asymu's code directly) and the regressions the
# fuzzers found (each guards one input, not one edge).
ALWAYS_KEEP = re.compile(r"^unit-|fuzz")
BINARY = "asymu"


def ctest_list(build, exclude=None):
    """The tests ctest would run in build (with -E exclude), in its order:
    the i-th is ctest's test number i+1 for that same filter."""
    cmd = ["ctest", "--show-only=json-v1"] + (["-E", exclude] if exclude else [])
    out = subprocess.run(cmd, cwd=build, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["tests"]


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def measure_one(build, data, number, name):
    maps = os.path.join(data, "maps", name)
    os.makedirs(maps, exist_ok=True)
    for f in os.listdir(maps):  # an interrupted run's
        os.unlink(os.path.join(maps, f))
    env = dict(os.environ, ASYMU_COVERAGE_DIR=os.path.abspath(maps))
    r = subprocess.run(["ctest", "-I", f"{number},{number}", "-FA", ".*"], cwd=build, env=env,
                       capture_output=True, text=True)
    line = next((l for l in r.stdout.splitlines() if f" {name} " in l and " sec" in l), "")
    m = re.search(r"([0-9.]+) sec", line)
    result = {"name": name, "passed": r.returncode == 0 and "Passed" in line,
              "seconds": float(m.group(1)) if m else None, "line": line.strip()}
    with open(os.path.join(data, "runs", name + ".json"), "w") as f:
        json.dump(result, f)
    return result


def measure(args):
    # Runs of another asymu binary do not count: start over.
    with open(os.path.join(args.build, BINARY), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(args.data, BINARY + ".sha256")
    if os.path.exists(args.data) and (not os.path.exists(stamp) or open(stamp).read() != digest):
        shutil.rmtree(args.data)
    os.makedirs(os.path.join(args.data, "runs"), exist_ok=True)
    with open(stamp, "w") as f:
        f.write(digest)
    todo = []
    for number, t in enumerate(ctest_list(args.build), 1):
        name = t["name"]
        if args.exclude and re.search(args.exclude, name):
            continue
        if "FIXTURES_SETUP" in properties(t):
            # not measured, but what the tests need (busybox): ran once.
            print(f"fixture {name}: ", end="", flush=True)
            r = subprocess.run(["ctest", "-I", f"{number},{number}"], cwd=args.build,
                               capture_output=True, text=True)
            print("passed" if r.returncode == 0 else "failed (the tests that need it will fail: kept)")
        elif not os.path.exists(os.path.join(args.data, "runs", name + ".json")):
            todo.append((number, name))
    print(f"measuring {len(todo)} tests, {args.jobs} at a time", flush=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(measure_one, args.build, args.data, n, name) for n, name in todo]
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            r = fut.result()
            print(f"[{i}/{len(todo)}] {r['line'] or r['name'] + ': no result'}", flush=True)


def load(data):
    """Each measured test: its run, the binaries its maps name, and its
    guards of BINARY as a bit set (an int); and BINARY's guard total."""
    tests, total = {}, None
    for f in sorted(os.listdir(os.path.join(data, "runs"))):
        with open(os.path.join(data, "runs", f)) as fp:
            run = json.load(fp)
        maps = os.path.join(data, "maps", run["name"])
        binaries, guards = set(), 0
        for m in sorted(os.listdir(maps)):
            binary = m.rsplit(".", 2)[0]
            binaries.add(binary)
            if binary != BINARY:
                continue
            with open(os.path.join(maps, m), "rb") as fp:
                raw = fp.read()
            if total is None:
                total = len(raw)
            elif total != len(raw):
                sys.exit(f"{maps}/{m}: {len(raw)} guards, other maps {total}: one build only")
            # byte i is 0 or 1: the bytes read as a little-endian number
            # hold guard i at bit 8*i.
            guards |= int.from_bytes(raw, "little")
        tests[run["name"]] = dict(run, binaries=sorted(binaries), guards=guards)
    return tests, total or 0


def count(bits):
    return bits.bit_count()


def pick(args):
    tests, total = load(args.data)
    keep, candidates = [], []
    for name, t in tests.items():
        skippable = (t["passed"] and t["binaries"] == [BINARY] and not ALWAYS_KEEP.search(name)
                     and t["seconds"] is not None)
        (candidates if skippable else keep).append(name)
    reached = 0
    for t in tests.values():
        reached |= t["guards"]
    covered = 0
    for name in keep:
        covered |= tests[name]["guards"]
    # Greedy: the most new guards per second (a test of 0.00 s counts as
    # 0.01 s), the smaller name on a tie. A test's gain only falls as
    # guards are covered, so a key in the heap is a bound: the top is
    # recomputed and taken if it stays at the top (the same choice as
    # recomputing every key, in a fraction of the time).
    def key(n):
        return (-(tests[n]["guards"] & ~covered).bit_count() / max(tests[n]["seconds"], 0.01), n)

    chosen = []
    heap = [key(n) for n in candidates]
    heapq.heapify(heap)
    while covered != reached:
        k = key(heapq.heappop(heap)[1])
        if heap and k > heap[0]:
            heapq.heappush(heap, k)
            continue
        chosen.append(k[1])
        covered |= tests[k[1]]["guards"]
    # Then a picked test whose every guard another kept test reaches is
    # dropped after all, the longest first (the greedy order picked it
    # before the tests that made it redundant).
    for n in sorted(chosen, key=lambda n: (-tests[n]["seconds"], n)):
        others = 0
        for m in keep + chosen:
            if m != n:
                others |= tests[m]["guards"]
        if others == reached:
            chosen.remove(n)
            heap.append((0, n))
    skip = sorted(n for _, n in heap)
    seconds = sum(tests[n]["seconds"] or 0 for n in skip)
    header = [
        "# tests/sanitize/plan.txt: the tests the sanitized suite (make test-sanitized)",
        "# leaves out, because the tests it runs reach every edge of asymu these reach.",
        "# Made by `make sanitize-plan` (tests/sanitize/README.md); one test name a line.",
        f"# date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"# commit: {args.commit or 'unknown'}",
        f"# guards of asymu: {total}; reached by the measured tests: {count(reached)}"
        f" ({100 * count(reached) / max(total, 1):.1f}%), all of them by the kept tests",
        f"# tests measured: {len(tests)}; kept: {len(keep) + len(chosen)} ({len(keep)} that are never"
        f" skipped, {len(chosen)} picked for their edges); skipped: {len(skip)}",
        f"# time of the skipped tests in the coverage build: {seconds:.0f} s",
    ]
    with open(args.plan, "w") as f:
        f.write("\n".join(header + skip) + "\n")
    print("\n".join(header[3:]))


def read_plan(plan):
    if not os.path.exists(plan):
        return set()
    with open(plan) as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


def select(args):
    skip = read_plan(args.plan)
    tests = ctest_list(args.build, args.exclude)
    run = [i for i, t in enumerate(tests, 1) if t["name"] not in skip]
    left_out = len(tests) - len(run)
    path = os.path.abspath(os.path.join(args.build, "sanitize-plan.ctest"))
    with open(path, "w") as f:
        f.write("0,0,0," + ",".join(map(str, run)) + "\n")
    # ctest numbers the tests -E leaves: check that -I picks those meant.
    cmd = ["ctest", "--show-only=json-v1", "-I", path] + (["-E", args.exclude] if args.exclude else [])
    out = subprocess.run(cmd, cwd=args.build, check=True, capture_output=True, text=True).stdout
    got = [t["name"] for t in json.loads(out)["tests"]]
    if got != [tests[i - 1]["name"] for i in run]:
        sys.exit("plan.py select: ctest's -I did not pick the planned tests")
    print(f"sanitized suite: {len(run)} tests; {left_out} left out, which the others cover"
          f" edge for edge ({args.plan}; SAN_ALL=1 runs them)", file=sys.stderr)
    print(f"-I {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure")
    m.add_argument("build")
    m.add_argument("data")
    m.add_argument("--exclude")
    m.add_argument("-j", "--jobs", type=int, default=2)
    p = sub.add_parser("pick")
    p.add_argument("data")
    p.add_argument("plan")
    p.add_argument("--commit")
    s = sub.add_parser("select")
    s.add_argument("build")
    s.add_argument("plan")
    s.add_argument("--exclude")
    args = ap.parse_args()
    {"measure": measure, "pick": pick, "select": select}[args.cmd](args)


if __name__ == "__main__":
    main()
