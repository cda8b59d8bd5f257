#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance-oslat-ISA: rt-tests' oslat in the guest root starts and
ends. It links libnuma, whose start (numa_available(): get_mempolicy;
/sys/devices/system/node) failed before asymu had the NUMA calls of a
one-node machine (emu/mm/mempolicy.c): "ERROR: Could not initialize
libnuma". On arm64 it measures one second on CPU 1 and prints its
histogram; Debian's armhf oslat has no frc() for 32-bit Arm and says so,
then exits 0, as it does on Linux.

Exit 77 (skipped) when the root has no oslat.

usage: oslat_check.py ASYMU ROOT ISA
"""
import os
import subprocess
import sys

asymu, root, isa = sys.argv[1:4]
if not os.path.exists(os.path.join(root, "usr/bin/oslat")):
    print(f"skipped: {root} has no usr/bin/oslat")
    sys.exit(77)

r = subprocess.run([asymu, "run", "--sysroot", root, "--seed", "1", "--cpus", "4", "--",
                    os.path.join(root, "bin/sh"), "-c",
                    "oslat --duration 1 --cpu-list 1; echo status=$?"],
                   capture_output=True, text=True, timeout=280)
out = r.stdout
lines = out.splitlines()
if isa == "arm64":
    ok = ("Test completed." in lines and any(l.strip() == "Core:\t 1" for l in lines)
          and any(l.strip().startswith("Maximum:") for l in lines))
else:
    ok = "This architecture is not yet supported. Please implement frc() function first for oslat." in lines
ok = ok and r.returncode == 0 and "status=0" in lines and "libnuma" not in out
if not ok:
    sys.exit(f"FAIL: oslat did not run to its end\nstatus {r.returncode}\n"
             f"stdout:\n{out[-4000:]}\nstderr:\n{r.stderr[-2000:]}")
print(f"ok: oslat ran to its end on {isa}")
