#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""nofile.py ASYMU GUEST_DIR ISA CASE - the machine's host descriptors
(issue 24, item 8), under Debian's default soft limit of 1024:

  three    three guest processes open 1,000 files each and hold them: all
           succeed (asymu raises its soft RLIMIT_NOFILE to the hard limit;
           each process has its own 1024);
  control  with the hard limit at 1024 too, a guest opens files until the
           host has none left: ENFILE (the machine's table), for another
           process too, never EMFILE; a control client connecting meanwhile
           costs asymu no CPU (its listening socket is not polled while
           accept fails) and is answered once the guest has closed them."""
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time

from checks import check, exit_with_verdict

asymu, guest_dir, isa, case = sys.argv[1:5]
program = os.path.join(guest_dir, f"nofile-{isa}")


def limit(soft, hard=None):
    def apply():
        h = resource.getrlimit(resource.RLIMIT_NOFILE)[1] if hard is None else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, h))
    return apply


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def case_three():
    check("the host's hard limit leaves room", True,
          resource.getrlimit(resource.RLIMIT_NOFILE)[1] >= 4096)
    p = subprocess.run([asymu, "run", "--", program, "three", "1000"], capture_output=True,
                       timeout=300, preexec_fn=limit(1024))
    check("three processes with 1,000 files each", (0, b"process 0: opened 1000\n"
          b"process 1: opened 1000\nprocess 2: opened 1000\n", b""),
          (p.returncode, p.stdout, p.stderr))


def case_control():
    with tempfile.TemporaryDirectory() as tmp:
        sock = os.path.join(tmp, "ctl.sock")
        run = subprocess.Popen([asymu, "run", "--control", sock, "--", program, "exhaust"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, preexec_fn=limit(1024, 1024))
        lines = [run.stdout.readline() for _ in range(3)]
        check("out of host descriptors", [b"open failed: ENFILE\n",
                                          b"another process's open: ENFILE\n", b"holding\n"],
              lines)
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.settimeout(20)
        client.connect(sock)  # queued: asymu cannot accept it now
        client.sendall(b"ps\n")
        before = cpu_seconds(run.pid)
        time.sleep(1.0)
        spent = cpu_seconds(run.pid) - before
        # Polling the readable socket took the whole second (a full CPU).
        check("asymu's CPU time while accept fails, at most 0.25 s in 1 s", True, spent <= 0.25)
        run.stdin.write(b"\n")
        run.stdin.flush()
        check("the guest closed its files", b"closed\n", run.stdout.readline())
        answer = b""
        try:
            while not answer.endswith(b"\n"):
                chunk = client.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except socket.timeout:
            pass
        client.close()
        reply = json.loads(answer) if answer else {}
        check("the control client is answered", (1, "running", 1),
              (reply.get("version"), reply.get("machine"), len(reply.get("processes", [0]))))
        out, err = run.communicate(b"\n", timeout=60)
        check("asymu's end", (0, b""), (run.returncode, err))


{"three": case_three, "control": case_control}[case]()
exit_with_verdict()
