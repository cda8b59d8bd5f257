#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""control_cpuset.py ASYMU GUEST_DIR ISA - the control socket's setaffinity
of a task in a cpuset (docs/control.md): cut to the cpuset as the task's own
sched_setaffinity is (CG3, cgroup_cut_affinity()), EINVAL when nothing is
left. The guest (cgroup-ops) joins a 4-7 cpuset and waits on stdin while
the test steers it from outside, then prints its affinity."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from checks import check, exit_with_verdict

asymu, guest_dir, isa = sys.argv[1:4]
CG = "/sys/fs/cgroup"
tmp = tempfile.mkdtemp()
sock = os.path.join(tmp, "control.sock")


def ctl(*args):
    p = subprocess.run([asymu, "ctl", sock, *map(str, args)], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, (json.loads(p.stdout) if p.stdout else None)


steps = [f"write:{CG}/cgroup.subtree_control:+cpuset", f"mkdir:{CG}/big",
         f"write:{CG}/big/cpuset.cpus:4-7", f"join:{CG}/big", "aff", "wait", "aff"]
run = subprocess.Popen([asymu, "run", "--control", sock, "--cpus", "8", "--aarch32", "0-3",
                        "--check-invariants", "--", f"{guest_dir}/cgroup-ops-{isa}", *steps],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
try:
    before = [run.stdout.readline() for _ in range(5)]
    check("in the 4-7 cpuset", f"join {CG}/big: 0\naff 4-7\n", "".join(before[3:]))
    rc, r = ctl("setaffinity", 1, "0-1")
    check("setaffinity 0-1: nothing of the cpuset", (1, "setaffinity: EINVAL (Invalid argument)"),
          (rc, r and r.get("error")))
    rc, r = ctl("setaffinity", 1, "2-5")
    check("setaffinity 2-5: cut to 4-5", (0, "4-5"), (rc, r and r.get("affinity")))
    out, err = run.communicate("go\n", timeout=120)
    check("the guest's own view", "wait: go\naff 4-5\n", out)
    check("asymu's exit status", 0, run.returncode)
    check("asymu's stderr", "", err)
finally:
    if run.poll() is None:
        run.kill()
        run.wait()
    shutil.rmtree(tmp, ignore_errors=True)
exit_with_verdict()
