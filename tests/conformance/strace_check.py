#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's own strace inside the machine (guest ptrace, docs/ptrace.md):
`strace -f` on a shell pipeline that execs a static guest program ("hello"
mode: writes hello, exits 3; a 32-bit one under the arm64 root's 64-bit
strace, as a 32-bit tracer cannot follow a 64-bit tracee on Linux) must print
the syscalls asymu's own --strace sees for the same command: per process,
the same main calls in the same order, and the same output and status.

The program of the other ISA has to be inside the root: the run gets a
small root of its own (strace, sh, cat and their libraries copied from the
Debian root, as sqlite3_check.py does), never writing into the shared one.

usage: strace_check.py ASYMU ROOT SCRATCH HELLO_PROGRAM
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sqlite3_check import small_root  # noqa: E402

MAIN_CALLS = ["execve", "pipe", "pipe2", "clone", "clone3", "vfork", "dup2", "dup3", "wait4",
              "write", "exit_group"]
SCRIPT = "/usr/local/bin/other hello | cat; /usr/local/bin/other hello"
EXPECTED_STDOUT = "hello\nhello\n"
EXPECTED_STATUS = 3

# strace -f -o FILE: "PID   name(...", or "PID   <... name resumed>" (skipped:
# the call was counted where it started).
STRACE_LINE = re.compile(r"^(\d+)\s+([a-z_0-9]+)\(")
# asymu --strace: "[pid N] name(..."
ASYMU_LINE = re.compile(r"^\[pid (\d+)\] ([a-z_0-9]+)\(")


def per_process(text, pattern):
    """The main calls of each process, in order, processes by first call."""
    calls = {}
    for line in text.splitlines():
        m = pattern.match(line)
        if m and m.group(2) in MAIN_CALLS:
            calls.setdefault(m.group(1), []).append(m.group(2))
    return list(calls.values())


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    return r.returncode, r.stdout, r.stderr


def main():
    asymu, root, scratch, other = sys.argv[1:5]
    if not os.path.exists(os.path.join(root, "usr/bin/strace")):
        print(f"skipped: no strace in {root} (build the roots: docs/conformance.md)")
        sys.exit(77)
    small_root(root, scratch, ["usr/bin/strace", "bin/sh", "bin/cat"])
    os.makedirs(os.path.join(scratch, "usr/local/bin"), exist_ok=True)
    shutil.copy2(other, os.path.join(scratch, "usr/local/bin/other"))
    machine = [asymu, "run", "--sysroot", scratch, "--seed", "1"]
    traced = run(machine + ["--", os.path.join(scratch, "usr/bin/strace"), "-f", "-qq",
                            "-o", "/dev/stderr", "-e", "trace=" + ",".join(MAIN_CALLS),
                            "/bin/sh", "-c", SCRIPT])
    plain = run(machine + ["--strace", "--", os.path.join(scratch, "bin/sh"), "-c", SCRIPT])
    ok = True
    for what, (status, out, err) in (("strace -f", traced), ("asymu --strace", plain)):
        if status != EXPECTED_STATUS or out != EXPECTED_STDOUT:
            print(f"FAIL {what}: status {status}, stdout {out!r}, stderr {err[-2000:]!r}")
            ok = False
    seen = per_process(traced[2], STRACE_LINE)
    # strace's own child execs the command: asymu started it as pid 1.
    if seen and seen[0][:1] == ["execve"]:
        seen[0] = seen[0][1:]
    want = per_process(plain[2], ASYMU_LINE)
    if sorted(seen) != sorted(want):
        print(f"FAIL calls differ:\n strace -f:      {seen}\n asymu --strace: {want}")
        ok = False
    elif len(want) != 4:
        print(f"FAIL expected 4 processes (sh, other, cat, other), got {want}")
        ok = False
    if ok:
        print(f"ok: {len(want)} processes, calls per process {want}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
