#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check_results.py DIR - checks the one run bench/run.sh wrote into DIR in
smoke mode (BENCH_SMOKE=1): its JSON parses, follows the schema of
bench/README.md and has an asymu row for every workload on both ISAs, each
with one sample; its SVG is well-formed XML with a label for every
workload. Exits 1, saying what is wrong, if not."""
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET

WORKLOADS = ["store", "store-raw", "store-hot", "getpid", "pingpong", "yield", "fork", "spawn",
             "hello-static", "hello-dynamic", "churn", "idle", "hogs", "gzip", "xz", "bzip2", "sqlite",
             "py-start-S", "py-start", "py-loop"]
ISAS = ["aarch64", "armhf"]
ROW_KEYS = {"workload", "isa", "runner", "samples", "median", "ratio"}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def main():
    d = sys.argv[1]
    runs = sorted(glob.glob(os.path.join(d, "*.json")))
    if len(runs) != 1:
        fail(f"{d} holds {len(runs)} JSON files, not one")
    with open(runs[0]) as f:
        data = json.load(f)
    for key in ("schema", "date", "commit", "runs", "metric", "rows"):
        if key not in data:
            fail(f"{runs[0]}: no '{key}'")
    if data["schema"] != 1 or data["runs"] != 1 or data["smoke"] is not True:
        fail(f"{runs[0]}: schema {data['schema']}, runs {data['runs']}, smoke {data['smoke']}")
    rows = {}
    for r in data["rows"]:
        if not ROW_KEYS <= r.keys():
            fail(f"a row lacks {sorted(ROW_KEYS - r.keys())}: {r}")
        if r["runner"] != "asymu":
            fail(f"a smoke run ran {r['runner']}: {r}")
        if len(r["samples"]) != 1 or not isinstance(r["median"], (int, float)) or r["median"] < 0:
            fail(f"not one sample and its median: {r}")
        rows[(r["workload"], r["isa"])] = r
    want = [(w, i) for w in WORKLOADS for i in ISAS]
    missing = [f"{w} {i}" for w, i in want if (w, i) not in rows]
    extra = [f"{w} {i}" for w, i in rows if (w, i) not in want]
    if missing or extra:
        fail(f"rows missing: {missing}; rows not expected: {extra}")
    svg = runs[0][:-len(".json")] + ".svg"
    try:
        root = ET.parse(svg).getroot()
    except (OSError, ET.ParseError) as e:
        fail(f"{svg}: {e}")
    ns = "{http://www.w3.org/2000/svg}"
    if root.tag != ns + "svg":
        fail(f"{svg}: the root element is {root.tag}")
    labels = [t.text for t in root.iter(ns + "text") if t.get("class") == "row"]
    if labels != WORKLOADS:
        fail(f"{svg}: row labels {labels}, not {WORKLOADS}")
    print(f"ok: {len(rows)} rows in {runs[0]}, {svg} well-formed")


if __name__ == "__main__":
    main()
