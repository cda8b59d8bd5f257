#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance-pmqtest-ISA: rt-tests' pmqtest in the guest root, a sender
and a receiver thread (SCHED_FIFO 80) passing 100 messages to each other
through two POSIX message queues (emu/ipc/mqueue.c: mq_open, mq_send,
mq_receive, mq_unlink): it must exit 0 with its thread line saying
"Cycles 100" and no timeout, and its latency line.

(pmqtest's -T, mq_timedreceive with a timeout, is left out: its sender
then receives each sync message twice, so its receiver times out after
the second cycle on Linux as here.)

Exit 77 (skipped) when the root has no pmqtest.

usage: pmqtest_check.py ASYMU ROOT
"""
import os
import re
import subprocess
import sys

asymu, root = sys.argv[1:3]
if not os.path.exists(os.path.join(root, "usr/bin/pmqtest")):
    print(f"skipped: {root} has no usr/bin/pmqtest")
    sys.exit(77)

r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--cpus", "4", "--",
                    os.path.join(root, "bin/sh"), "-c",
                    "pmqtest -q -p 80 -l 100 -t 1; echo status=$?"],
                   capture_output=True, text=True, timeout=280)
lines = r.stdout.splitlines()
ok = (r.returncode == 0 and "status=0" in lines
      and any(re.match(r"#0: ID\d+, P80, CPU\d+, I1000; #1: ID\d+, P80, CPU\d+, TO 0, Cycles 100\b", l)
              for l in lines)
      and any(re.match(r"#1 -> #0, Min +\d+, Cur +\d+, Avg +\d+, Max +\d+$", l) for l in lines))
if not ok:
    sys.exit(f"FAIL: pmqtest did not run its 100 loops\nstatus {r.returncode}\n"
             f"stdout:\n{r.stdout[-4000:]}\nstderr:\n{r.stderr[-2000:]}")
print("ok: pmqtest ran 100 loops")
