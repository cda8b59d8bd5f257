#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance-pi-stress-ISA: rt-tests' pi_stress in the guest root, one
group of three SCHED_FIFO threads (low, medium, high) on one CPU (-u)
doing 500 priority inversions through a PTHREAD_PRIO_INHERIT mutex
(emu/kernel/futex_pi.c: glibc's FUTEX_LOCK_PI and FUTEX_UNLOCK_PI, the
hand-over to the waiter, the owner's boost), ending every round at its
barriers. It must exit 0 having done every inversion, with no watchdog
line ("WATCHDOG triggered: group 0 is deadlocked!") and no error. (This
pi_stress's medium thread waits at a barrier instead of spinning, so it
would also finish without the boost: the boost's own test is
e2e-futex-pi-issue26-boost-*, whose order of events changes without it.)
Before FUTEX_LOCK_PI was offered (ENOSYS) it could not run. pi_stress counts one more
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
