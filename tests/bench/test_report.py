#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""test_report.py ROOT - bench/report.py's table names why a row missed its
target: a missed ratio, fork under its rate although its ratio is met, and
nothing for met rows or rows without a target. Exits 1, saying what
differs, if not."""
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import report  # noqa: E402


def row(workload, isa, runner, median, ratio=None, target=None, met=None, **extra):
    r = {"workload": workload, "isa": isa, "runner": runner, "median": median,
         "ratio": ratio, "ratio_to": "qemu-user" if runner == "asymu" else None,
         "target": target, "target_source": "issue 14" if target else None, "met": met}
    r.update(extra)
    return r


ROWS = [
    row("store", "aarch64", "asymu", 2.0, 2.0, 1.5, False),
    row("store", "aarch64", "qemu-user", 1.0),
    row("store", "armhf", "asymu", 2.0, 2.0, 1.5, False),
    row("store", "armhf", "qemu-user", 1.0),
    row("getpid", "aarch64", "asymu", 0.1, 0.1, 0.4, True),
    row("getpid", "aarch64", "qemu-user", 1.0),
    row("fork", "aarch64", "asymu", 2.0, 0.1, 0.5, True, per_second=1000,
        target_per_second=2000),
    row("fork", "aarch64", "qemu-user", 20.0),
    row("churn", "aarch64", "asymu", 0.1, 0.1),
    row("churn", "aarch64", "qemu-user", 1.0),
]

EXPECTED = [
    'not met, and why (profiles: bench/README.md, "Why rows miss their targets"):',
    f"  store: {report.MISSED_BECAUSE['store']}",
    f"  fork: {report.MISSED_BECAUSE['engine']}",
]


def main():
    lines = report.table("cpu", ROWS).splitlines()
    got = lines[lines.index(EXPECTED[0]):] if EXPECTED[0] in lines else []
    if got != EXPECTED:
        print("FAIL: the table's last lines:\n" + "\n".join(lines[-4:]) +
              "\nexpected:\n" + "\n".join(EXPECTED))
        sys.exit(1)
    if "not met" in report.table("cpu", [r for r in ROWS if r["workload"] == "getpid"]):
        print("FAIL: a table whose rows all met their targets says 'not met'")
        sys.exit(1)
    print("report: the missed rows' causes, as expected")


main()
