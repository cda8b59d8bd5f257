#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""e2e-sanitize-plan-pick: plan.py pick on made-up maps (tests/sanitize/README.md)
keeps the tests it must, picks the most new guards per second (a tie goes
to the smaller name) until every reached guard is reached, drops a picked
test the others made redundant, and lists the rest: exactly these lines."""
import json
import os
import subprocess
import sys
import tempfile

PLAN_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan.py")

# name: (passed, seconds, {map file: guards}); asymu has 5 guards.
TESTS = {
    "unit-a": (True, 0.1, {"test-a.10.map": None}),     # a unit test: kept
    "e2e-a": (True, 1.0, {"asymu.11.map": {0, 1}, "asymu.12.map": {2}}),  # 2 new/s
    "e2e-b": (True, 0.5, {"asymu.13.map": {0, 1}}),     # 2 new/s, after e2e-a
    "e2e-c": (True, 4.0, {"asymu.14.map": {2, 3}}),     # 0.5 new/s
    "e2e-d": (True, 1.0, {"asymu.15.map": {3}}),        # 1 new/s
    "e2e-e": (True, 0.2, {}),                           # no map: kept
    "e2e-f": (False, 0.3, {"asymu.16.map": {4}}),       # failed: kept
    "e2e-fuzzfound-x": (True, 0.2, {"asymu.17.map": {0}}),  # a regression: kept
    "e2e-g": (True, 0.5, {"asymu.18.map": {0, 1}}),     # as e2e-b
    "e2e-h": (True, 0.1, {"asymu.19.map": {1}}),        # 10 new/s, first; then e2e-a has it
}
EXPECTED = """\
# guards of asymu: 5; reached by the measured tests: 5 (100.0%), all of them by the kept tests
# tests measured: 10; kept: 6 (4 that are never skipped, 2 picked for their edges); skipped: 4
# time of the skipped tests in the coverage build: 5 s
e2e-b
e2e-c
e2e-g
e2e-h
"""

with tempfile.TemporaryDirectory() as data:
    os.makedirs(os.path.join(data, "runs"))
    for name, (passed, seconds, maps) in TESTS.items():
        with open(os.path.join(data, "runs", name + ".json"), "w") as f:
            json.dump({"name": name, "passed": passed, "seconds": seconds, "line": ""}, f)
        os.makedirs(os.path.join(data, "maps", name))
        for m, guards in maps.items():
            with open(os.path.join(data, "maps", name, m), "wb") as f:
                f.write(bytes(1 if guards is None or i in guards else 0 for i in range(5)))
    plan = os.path.join(data, "plan.txt")
    subprocess.run([sys.executable, PLAN_PY, "pick", data, plan, "--commit", "test"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(plan) as f:
        lines = f.read().splitlines()
    # the header's numbers and the names (not its prose, date, commit)
    got = "".join(l + "\n" for l in lines
                  if l.startswith(("# guards", "# tests measured", "# time")) or not l.startswith("#"))
    if got != EXPECTED:
        sys.exit(f"plan.py pick wrote:\n{got}expected:\n{EXPECTED}")
    if "# commit: test" not in lines:
        sys.exit("no commit line")
print("plan.py pick: as expected")
