#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""host-dirs.py ASYMU BUSYBOX CASE - the host side of the guest's private
/tmp and /dev/shm (issue 24, items 6 and 7), seen from the host while asymu
runs. The guest is busybox sh waiting on a line of stdin.

mode: the host folders are 0700 (no other host user reaches them) while the
  guest's stat shows 01777, and a guest chmod of /tmp changes only what the
  guest sees.
janitor: asymu inherits 1,100 descriptors, so the janitor's pipe lands past
  1024; the janitor must still close asymu's write end and end with asymu:
  after an orderly end, after SIGKILL (it removes the folders), and on its
  own SIGTERM (it cleans up and ends)."""
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

asymu, busybox, case = sys.argv[1:4]
failures = 0


def check(what, expected, actual):
    global failures
    if expected != actual:
        print(f"FAIL: {what}: expected {expected!r}, got {actual!r}")
        failures += 1


def wait_for(cond, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def start(base, script, **kw):
    env = dict(os.environ, TMPDIR=base)
    return subprocess.Popen([asymu, "run", "--", busybox, "sh", "-c", script], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


def janitors(base):
    """The pids of the janitors of runs with TMPDIR=base."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip() != "asymu-janitor":
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"TMPDIR={base}".encode() in f.read().split(b"\0"):
                    found.append(int(pid))
        except OSError:
            pass
    return found


def case_mode():
    with tempfile.TemporaryDirectory() as base:
        run = start(base, 'stat -c "%a %n" /tmp /dev/shm; read x; chmod 755 /tmp; '
                          'stat -c "%a %n" /tmp; read x')
        first = run.stdout.readline() + run.stdout.readline()
        check("the guest sees", b"1777 /tmp\n1777 /dev/shm\n", first)
        dirs = sorted(os.listdir(base))
        check("the host folders", 2, len(dirs))
        for d in dirs:
            check(f"host mode of {d[:9]}", "0o700",
                  oct(os.stat(os.path.join(base, d)).st_mode & 0o7777))
        run.stdin.write(b"\n")
        run.stdin.flush()
        check("after the guest's chmod", b"755 /tmp\n", run.stdout.readline())
        for d in dirs:
            check(f"host mode of {d[:9]} after the guest's chmod", "0o700",
                  oct(os.stat(os.path.join(base, d)).st_mode & 0o7777))
        out, err = run.communicate(b"\n", timeout=60)
        check("status", (0, b""), (run.returncode, err))


def inherited_descriptors(n):
    """n descriptors on /dev/null that asymu inherits, past 1024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(n)]
    for fd in fds:
        os.set_inheritable(fd, True)
    return fds


def case_janitor():
    fds = inherited_descriptors(1100)
    check("descriptors held past 1024", True, fds[-1] > 1024)
    for how in ("orderly", "SIGKILL", "janitor SIGTERM"):
        with tempfile.TemporaryDirectory() as base:
            run = start(base, "echo ready; read x", close_fds=False)
            check(f"{how}: the guest runs", b"ready\n", run.stdout.readline())
            check(f"{how}: one janitor", 1, len(janitors(base)))
            if how == "orderly":
                run.communicate(b"\n", timeout=60)
                check(f"{how}: status", 0, run.returncode)
            elif how == "SIGKILL":
                run.kill()
                run.communicate(timeout=60)
                check(f"{how}: status", -signal.SIGKILL, run.returncode)
            else:
                os.kill(janitors(base)[0], signal.SIGTERM)
                check(f"{how}: the janitor ends", True, wait_for(lambda: not janitors(base)))
                check(f"{how}: it removed the private folders", [], os.listdir(base))
                run.communicate(b"\n", timeout=60)
            check(f"{how}: the janitor ends", True, wait_for(lambda: not janitors(base)))
            check(f"{how}: the private folders are gone", True,
                  wait_for(lambda: not os.listdir(base)))
    for fd in fds:
        os.close(fd)


{"mode": case_mode, "janitor": case_janitor}[case]()
print(f"host-dirs {case}: {'passed' if not failures else f'{failures} failed'}")
sys.exit(1 if failures else 0)
