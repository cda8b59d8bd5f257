#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's stress-ng: `stress-ng --fork 1 -t 1 --metrics-brief` ends, exit
0, with the fork rate the cost table gives (issue 27, "Tests"; docs/timing.md,
"The cost table").

Each bogo op of the fork stressor is a fork, a child that makes a few
syscalls (setsid, vhangup, setpgid, sched_yield, prctl) and exits, and the
parent's wait for it: one after the other, so an op takes at least
fork + exit of the table and at most that plus EXTRA_NS for the dozen
syscalls (0.25 µs each), the context switches to and from the child (2 µs
each) and stress-ng's own loop. The rate over its 1 s of virtual time is
then at most 1e9 / (fork + exit), and at least 95% of 1e9 / (fork + exit +
EXTRA_NS) (below).

The run uses --costs with a fork of 10 ms and an exit of 2 ms: with the
built-in table (100 µs + 40 µs) a second would hold about 6,000 forks, and
each costs the emulator about 20 ms of host time (a new address space and
its engine), two minutes in all; with these costs it holds 83, a few
seconds.
The bound is computed from the table given, so the test checks the model,
not a number.

usage: stressng_check.py ASYMU ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

asymu, root = sys.argv[1:3]
if not os.path.exists(os.path.join(root, "usr/bin/stress-ng")):
    print(f"skipped: {root} has no usr/bin/stress-ng")
    sys.exit(77)

FORK_NS, EXIT_NS = 10_000_000, 2_000_000
EXTRA_NS = 100_000

with tempfile.TemporaryDirectory() as tmp:
    costs = os.path.join(tmp, "costs.txt")
    with open(costs, "w") as f:
        f.write(f"# stress-ng's fork stressor in few forks\nfork {FORK_NS}\nexit {EXIT_NS}\n")
    r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--cwd", "/tmp",
                        "--costs", costs, "--", os.path.join(root, "usr/bin/stress-ng"),
                        "--fork", "1", "-t", "1", "--metrics-brief"],
                       capture_output=True, text=True, timeout=120)
out = r.stdout + r.stderr


def fail(why):
    sys.exit(f"FAIL: {why}\nstatus {r.returncode}\noutput:\n{out[-4000:]}")


if r.returncode != 0 or "successful run completed" not in out:
    fail("stress-ng did not end with success")
# stress-ng: metrc: [1] fork  OPS  REAL  USR  SYS  RATE_REAL  RATE_USR_SYS
m = re.search(r"metrc: \[\d+\] fork\s+(\d+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+[\d.]+", out)
if not m:
    fail("no metrics line for the fork stressor")
ops, secs, rate = int(m.group(1)), float(m.group(2)), float(m.group(3))
# Each op takes at least fork + exit, so the rate is at most 1e9 / that;
# the run's time also holds stress-ng's start and the op that ends past the
# second (one op: 1.2%), so the rate is at least 95% of 1e9 / (fork + exit
# + EXTRA_NS). The count: over the stressor's own time (REAL: it starts
# after stress-ng's set-up, so under a second), at least low x REAL and,
# the last op starting before its time is over, at most 1 + high x REAL.
high = 1e9 / (FORK_NS + EXIT_NS)
low = 0.95 * 1e9 / (FORK_NS + EXIT_NS + EXTRA_NS)
if not low <= rate <= high:
    fail(f"fork rate {rate}/s, wanted {low:.2f} to {high:.2f} (fork + exit of the table)")
if not 0.5 <= secs <= 1.1 or not low * secs <= ops <= 1 + high * secs:
    fail(f"{ops} forks in {secs} s, wanted {low * secs:.2f} to {1 + high * secs:.2f}")
print(f"ok: {ops} forks in {secs} s, {rate}/s within {low:.2f} to {high:.2f}")
