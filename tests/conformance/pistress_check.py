#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance-pi-stress-ISA: rt-tests' pi_stress in the guest root, one
group of three SCHED_FIFO threads (low, medium, high) on one CPU (-u)
doing 500 priority inversions through a PTHREAD_PRIO_INHERIT mutex
(emu/kernel/futex_pi.c: FUTEX_LOCK_PI, FUTEX_UNLOCK_PI and the owner's
boost). Without the boost the medium thread starves the low one and
pi_stress's watchdog reports the group deadlocked. It must exit 0 having
done every inversion, with no watchdog line. pi_stress counts one more
than it was asked for: "Total inversion performed: 501", as under
qemu-user on the host kernel (both roots' pi_stress).

Exit 77 (skipped) when the root has no pi_stress.

usage: pistress_check.py ASYMU ROOT
"""
import os
import re
import subprocess
import sys

asymu, root = sys.argv[1:3]
if not os.path.exists(os.path.join(root, "usr/bin/pi_stress")):
    print(f"skipped: {root} has no usr/bin/pi_stress")
    sys.exit(77)

r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--cpus", "2", "--",
                    os.path.join(root, "bin/sh"), "-c",
                    "pi_stress --groups=1 --inversions=500 --uniprocessor --quiet; echo status=$?"],
                   capture_output=True, text=True, timeout=280)
out = r.stdout + r.stderr
lines = r.stdout.splitlines()
ok = (r.returncode == 0 and "status=0" in lines and "WATCHDOG" not in out
      and re.search(r"^Total inversion performed: 501$", r.stdout, re.M))
if not ok:
    sys.exit(f"FAIL: pi_stress did not do its 500 inversions\nstatus {r.returncode}\n"
             f"stdout:\n{r.stdout[-4000:]}\nstderr:\n{r.stderr[-2000:]}")
print("ok: pi_stress did 500 inversions")
