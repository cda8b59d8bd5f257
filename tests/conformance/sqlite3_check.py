#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's own sqlite3 command under asymu, on a database file in the
guest's private /tmp and on one under --rw, in rollback-journal and WAL
mode (WAL maps its -shm file MAP_SHARED and locks it with fcntl).

--rw lets the guest write to its sysroot, and the conformance roots are
shared by every test: the --rw run gets a small root of its own, the
sqlite3 program and the libraries it needs copied from the Debian root.

usage: sqlite3_check.py ASYMU ROOT SCRATCH
"""
import os
import shutil
import subprocess
import sys

SQL = ("create table t(a); insert into t values(1),(2); select sum(a) from t; "
       "pragma journal_mode=wal; insert into t values(3); select sum(a) from t;")
EXPECTED = "3\nwal\n6\n"
READ_BACK = "select count(*), sum(a) from t; pragma integrity_check;"
EXPECTED_READ_BACK = "3|6\nok\n"


def needed(path):
    """The DT_NEEDED names and the interpreter of an ELF file."""
    out = subprocess.run(["readelf", "-d", "-l", path], capture_output=True, text=True,
                         check=True).stdout
    names = [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines()
             if "(NEEDED)" in line]
    interp = [line.split(": ", 1)[1].rstrip("]") for line in out.splitlines()
              if "Requesting program interpreter" in line]
    return names, interp


def in_root(root, rel):
    """rel's file inside root, its symlinks followed inside root."""
    path = rel
    for _ in range(40):
        full = os.path.join(root, path)
        if not os.path.islink(full):
            return full
        target = os.readlink(full)
        path = target.lstrip("/") if target.startswith("/") else \
            os.path.normpath(os.path.join(os.path.dirname(path), target))
    sys.exit(f"sqlite3_check: too many links at {rel}")


def small_root(root, scratch, programs=("usr/bin/sqlite3",)):
    """A root holding programs (paths in root), their interpreter and
    libraries, each a plain file at the path the loader looks for."""
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    libdirs = [d for t in ("aarch64-linux-gnu", "arm-linux-gnueabihf")
               for d in ("lib/" + t, "usr/lib/" + t) if os.path.isdir(os.path.join(root, d))]
    todo, seen = list(programs), set()
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        src = in_root(root, rel)
        dst = os.path.join(scratch, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
        names, interp = needed(src)
        todo += [i.lstrip("/") for i in interp]
        for name in names:
            found = [os.path.join(d, name) for d in libdirs
                     if os.path.lexists(os.path.join(root, d, name))]
            if not found:
                sys.exit(f"sqlite3_check: {name} (needed by {rel}) not in {libdirs}")
            todo.append(found[0])


def sqlite(asymu, root, db, sql, rw=False):
    cmd = [asymu, "run", "--sysroot", root, "--seed", "1"] + (["--rw"] if rw else []) + \
          ["--", os.path.join(root, "usr/bin/sqlite3"), db, sql]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def check(what, got, want):
    status, out, err = got
    if status != 0 or out != want:
        print(f"FAIL {what}: status {status}, stdout {out!r} (want {want!r}), stderr {err!r}")
        return False
    print(f"ok {what}")
    return True


def main():
    asymu, root, scratch = sys.argv[1:4]
    ok = check("/tmp database", sqlite(asymu, root, "/tmp/t.db", SQL + " " + READ_BACK),
               EXPECTED + EXPECTED_READ_BACK)
    small_root(root, scratch)
    ok &= check("--rw database", sqlite(asymu, scratch, "/t.db", SQL, rw=True), EXPECTED)
    # The file is the host's: a second machine reads it back.
    ok &= check("--rw database read back", sqlite(asymu, scratch, "/t.db", READ_BACK, rw=True),
                EXPECTED_READ_BACK)
    ok &= check("--rw database file on the host",
                (0, str(os.path.getsize(os.path.join(scratch, "t.db")) > 0), ""), "True")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
