#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's own gdb inside the machine (guest ptrace, docs/ptrace.md): gdb
-batch breaks at main of a static program built with -g (tests/guest/
gdb-target.c), prints a variable, steps into a call, finishes it, steps a
line, prints the variable again and continues to the exit. Its output must
be exactly the expected lines (addresses and the pid written as ADDR and
PID), with no warning on stderr, and gdb must exit 0.

The program and its source are given to the guest through -L (an overlay
directory of the scratch dir: /opt/PROGRAM and /src/gdb-target.c), never
written into the shared root.

usage: gdb_check.py ASYMU ROOT SCRATCH PROGRAM SOURCE
"""
import os
import re
import shutil
import subprocess
import sys

COMMANDS = ["break main", "run", "print counter", "step", "bt", "finish", "next",
            "print counter", "continue"]
EXPECTED = """\
Breakpoint 1 at ADDR: file /src/gdb-target.c, line 17.

Breakpoint 1, main () at /src/gdb-target.c:17
17\t    counter = bump(counter);
$1 = 41
bump (v=41) at /src/gdb-target.c:12
12\t    return v + 1;
#0  bump (v=41) at /src/gdb-target.c:12
#1  ADDR in main () at /src/gdb-target.c:17
ADDR in main () at /src/gdb-target.c:17
17\t    counter = bump(counter);
Value returned is $2 = 42
18\t    printf("counter %d\\n", counter);
$3 = 42
counter 42
[Inferior 1 (process PID) exited with code 03]
"""


def normalize(text):
    text = re.sub(r"0x[0-9a-f]+", "ADDR", text)
    return re.sub(r"\(process \d+\)", "(process PID)", text)


def main():
    asymu, root, scratch, program, source = sys.argv[1:6]
    if not os.path.exists(os.path.join(root, "usr/bin/gdb")):
        print(f"skipped: no gdb in {root} (build the roots: docs/conformance.md)")
        sys.exit(77)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "opt"))
    os.makedirs(os.path.join(scratch, "src"))
    target = "/opt/" + os.path.basename(program)
    shutil.copy2(program, os.path.join(scratch, target.lstrip("/")))
    shutil.copy2(source, os.path.join(scratch, "src", os.path.basename(source)))
    cmd = [asymu, "run", "--sysroot", root, "-L", scratch, "--seed", "1", "--",
           os.path.join(root, "usr/bin/gdb"), "-batch", "-nx"]
    for c in COMMANDS:
        cmd += ["-ex", c]
    r = subprocess.run(cmd + [target], capture_output=True, text=True, timeout=240)
    ok = True
    if r.returncode != 0:
        print(f"FAIL gdb exited {r.returncode}")
        ok = False
    if normalize(r.stdout) != EXPECTED:
        print(f"FAIL stdout differs:\n--- expected\n{EXPECTED}--- got\n{normalize(r.stdout)}")
        ok = False
    warnings = [line for line in r.stderr.splitlines() if "warning" in line.lower()]
    if warnings:
        print("FAIL warnings on stderr:\n" + "\n".join(warnings))
        ok = False
    if not ok:
        print(f"stderr: {r.stderr[-3000:]}")
        sys.exit(1)
    print(f"ok: gdb -batch on {target}")


if __name__ == "__main__":
    main()
