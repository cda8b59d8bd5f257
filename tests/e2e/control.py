#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""control.py ASYMU GUEST_DIR ISA - the control socket end to end
(docs/control.md): a workload whose first process has ISA and whose child
has the other one, both looping on sched_yield, steered with `asymu ctl`:
stop, ps, setaffinity, offline 3 (U6: the compat task loses cpu3 and falls
back to M), the protected cpu refusing to go offline, regs, mem, step,
holding one task, malformed requests and a client leaving mid-request,
then SIGUSR1 and cont until the run ends with its expected output; and
SIGINT to a stopped machine."""
import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import time

from checks import check, exit_with_verdict

asymu, guest_dir, isa = sys.argv[1:4]
other = "armhf" if isa == "aarch64" else "aarch64"


def ctl(*args):
    """asymu ctl SOCK ARGS: (exit status, the response as a dict or None)."""
    p = subprocess.run([asymu, "ctl", sock, *map(str, args)], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, (json.loads(p.stdout) if p.stdout else None)


def raw(data):
    """Sends data on a connection of its own; the response lines."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(sock)
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return [json.loads(line) for line in out.decode().splitlines()]


def task(resp, tid):
    return next(t for t in resp["tasks"] if t["tid"] == tid)


tmp = tempfile.mkdtemp()
sock = os.path.join(tmp, "control.sock")
bits = {"aarch64": "64-bit", "armhf": "32-bit"}
run = subprocess.Popen(
    [asymu, "run", "--control", sock, "--cpus", "8", "--aarch32", "0-3", "--check-invariants",
     "--", f"{guest_dir}/control-workload-{isa}", f"{guest_dir}/control-workload-{other}"],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    for _ in range(300):
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    check("the socket's mode", "0o140600", oct(os.stat(sock).st_mode))
    check("a socket", True, stat.S_ISSOCK(os.stat(sock).st_mode))

    # Wait for the child's exec, then stop the whole machine.
    child_isa = "aarch32" if other == "armhf" else "aarch64"
    for _ in range(300):
        rc, ps = ctl("ps")
        if len(ps["tasks"]) == 2 and task(ps, 2)["name"] == "wl-?-child":
            break
        time.sleep(0.1)
    rc, r = ctl("stop")
    check("stop", (0, "stopped"), (rc, r["machine"]))
    rc, ps = ctl("ps")
    check("ps: version", 1, ps["version"])
    check("ps: machine stopped", "stopped", ps["machine"])
    check("ps: the tasks", [(1, 1, "control-workloa", "aarch64" if isa == "aarch64" else "aarch32"),
                            (2, 2, "wl-?-child", child_isa)],
          [(t["pid"], t["tid"], t["name"], t["isa"]) for t in ps["tasks"]])
    compat = 1 if isa == "armhf" else 2
    native = 3 - compat
    # U1/U2: the 32-bit exec restricted A to M and saved the old mask.
    check("ps: compat task's affinity and saved mask", ("0-3", "0-7"),
          (task(ps, compat)["affinity"], task(ps, compat)["saved_mask"]))
    check("ps: 64-bit task's affinity", ("0-7", None),
          (task(ps, native)["affinity"], task(ps, native)["saved_mask"]))
    time.sleep(0.3)
    rc, ps2 = ctl("ps")
    check("stopped: virtual time stands still", ps["time_ns"], ps2["time_ns"])
    check("stopped: no task runs", [t["blocks"] for t in ps["tasks"]],
          [t["blocks"] for t in ps2["tasks"]])

    rc, cpus = ctl("cpus")
    check("cpus: online, 32-bit capable", [(c, True, c < 4) for c in range(8)],
          [(c["cpu"], c["online"], c["aarch32"]) for c in cpus["cpus"]])

    # offline 3 with the compat task pinned there: U6 moves it back to M.
    rc, r = ctl("setaffinity", compat, "3")
    check("setaffinity compat 3", (0, "3"), (rc, r.get("affinity")))
    rc, r = ctl("offline", 3)
    check("offline 3", (0, 3, False), (rc, r.get("cpu"), r.get("online")))
    rc, ps = ctl("ps")
    t = task(ps, compat)
    check("after offline 3: A reset to M, saved mask gone", ("0-3", None),
          (t["affinity"], t["saved_mask"]))
    check("after offline 3: not on cpu3", True, t["cpu"] in (0, 1, 2))
    rc, cpus = ctl("cpus")
    check("cpus: cpu3 offline", False, cpus["cpus"][3]["online"])
    rc, r = ctl("dmesg")
    lines = [line.split("] ", 1)[1] for line in r["dmesg"].splitlines()]
    check("dmesg: U6 line then the shutdown",
          [f"process {compat} ({'control-workloa' if compat == 1 else 'wl-?-child'}) no longer "
           "affine to cpu3",
           "psci: CPU3 killed (polled 0 ms)"], lines[-2:])
    rc, r = ctl("offline", 0)
    check("offline 0 (the protected cpu)", (1, "offline: EPERM (Operation not permitted)"),
          (rc, r["error"]))
    rc, r = ctl("online", 3)
    check("online 3", (0, True), (rc, r["online"]))
    rc, r = ctl("dmesg")
    check("dmesg: the boot of cpu3", True,
          r["dmesg"].splitlines()[-1].endswith("CPU3: Booted secondary processor 0x0000000003 "
                                               "[0x412fd470]"))

    # Registers and memory of a stopped task: the ELF header at the load address.
    rc, r = ctl("regs", compat)
    check("regs compat", (0, "aarch32", 17),
          (rc, r["isa"], len(r["regs"])))
    check("regs compat names", ["r0", "r12", "sp", "lr", "pc", "cpsr"],
          [n for n in r["regs"] if n in ("r0", "r12", "sp", "lr", "pc", "cpsr")])
    rc, r = ctl("regs", native)
    check("regs 64-bit", (0, "aarch64", 34), (rc, r["isa"], len(r["regs"])))
    base = {1: 0x400000 if isa == "aarch64" else 0x10000, 2: 0x10000 if isa == "aarch64" else 0x400000}
    rc, r = ctl("mem", 1, hex(base[1]), 4)
    check("mem: the ELF magic of pid 1", (0, "7f454c46"), (rc, r.get("hex")))
    rc, r = ctl("mem", 2, hex(base[2]), 5)
    check("mem: the ELF magic and class of pid 2", (0, "7f454c46" + ("01" if child_isa == "aarch32" else "02")),
          (rc, r.get("hex")))
    rc, r = ctl("mem", 1, 0, 4)
    check("mem at 0", (1, "mem: EFAULT (Bad address)"), (rc, r["error"]))

    # step N runs N slices and answers stopped, with time moved on.
    rc, r = ctl("step", 3)
    check("step 3", (0, "stopped"), (rc, r["machine"]))
    check("step 3: time moved", True, r["time_ns"] > ps2["time_ns"])

    # A long step ends with stop from another client, which it hears of.
    stepper = subprocess.Popen([asymu, "ctl", sock, "step", "1000000000"], stdout=subprocess.PIPE,
                               text=True)
    for _ in range(300):
        rc, r = ctl("ps")
        if r["machine"] == "running":
            break
        time.sleep(0.1)
    rc, r = ctl("step", 1)
    check("a second step meanwhile", (1, "another client's step is running"), (rc, r["error"]))
    rc, r = ctl("stop")
    out, _ = stepper.communicate(timeout=60)
    check("the long step, ended by stop", (0, "stopped"),
          (stepper.returncode, json.loads(out)["machine"]))

    # Hold the compat task, run the machine: the held one never runs.
    rc, r = ctl("stop", compat)
    check("stop compat", (0, "stopped"), (rc, r["state"]))
    rc, before = ctl("ps")
    rc, r = ctl("step", 20)
    rc, after = ctl("ps")
    check("held task: no blocks while 20 slices ran", task(before, compat)["blocks"],
          task(after, compat)["blocks"])
    check("held task: the other one ran", True,
          task(after, native)["blocks"] > task(before, native)["blocks"])
    check("held task: ps shows it", (True, "stopped"),
          (task(after, compat)["held"], task(after, compat)["state"]))

    # Malformed requests get errors, the connection and the machine live on.
    for req, err in [("bogus", "unknown command"), ("regs", "regs takes 1 to 1 arguments"),
                     ("regs abc", "'abc' is not a task id"), ("regs 99", "no task 99"),
                     ("mem 1 0 99999", "LEN 99999 is more than 4096 bytes"),
                     ("step 0", "usage: step N (1 to 1000000000 slices)"),
                     ("offline 8", "no cpu '8'"), ("signal 2 SIGNOPE", "no signal 'SIGNOPE'"),
                     ("setaffinity 2 9", "setaffinity: CPU 9 is out of range 0-7")]:
        rc, r = ctl(*req.split())
        check(f"'{req}' is an error", (1, True), (rc, r["error"].startswith(err)))
    got = raw(b"\n\x00\xff garbage\nps\n")
    check("raw: empty line, garbage, then ps",
          ["empty request", "request is not printable ASCII", None],
          [r.get("error") for r in got])
    got = raw(b"x" * 5000 + b"\nps\n")
    check("raw: a line too long, then ps", ["request longer than 4095 bytes", None],
          [r.get("error") for r in got])
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(sock)
        s.sendall(b"ps") # and gone before the newline
    rc, r = ctl("ps")
    check("after a client left mid-request", (0, 2), (rc, len(r["tasks"])))
    # A client that sends 2,000 requests of 8 KiB answers each (16 MiB in
    # all) before reading any: the machine holds its later requests back
    # (docs/control.md) and then answers every one.
    req = f"mem 1 {hex(base[1])} 4096\n".encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(60)
        s.connect(sock)
        s.sendall(req * 2000)
        time.sleep(0.5)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(1 << 20):
            out += chunk
    got = [json.loads(line) for line in out.decode().splitlines()]
    check("a client that reads late: every answer",
          (2000, {"7f454c46"}, {8192}),
          (len(got), {r["hex"][:8] for r in got}, {len(r["hex"]) for r in got}))
    p = subprocess.run([asymu, "ctl", tmp + "/nothing", "ps"], capture_output=True, text=True)
    check("ctl: no socket", 2, p.returncode)

    # SIGUSR1 ends the child once it runs again; then everything ends.
    rc, r = ctl("signal", 2, "SIGUSR1")
    check("signal", (0, 10), (rc, r["signal"]))
    rc, r = ctl("cont", compat)
    check("cont compat", (0, "runnable"), (rc, r["state"]))
    rc, r = ctl("cont")
    check("cont", (0, "running"), (rc, r["machine"]))
    out, err = run.communicate(timeout=300)
    check("exit status", 0, run.returncode)
    check("stdout", f"child: SIGUSR1 ({bits[other]})\nparent: child exited with 0 ({bits[isa]})\n",
          out)
    check("stderr", "", err)
    check("the socket is gone at the end", False, os.path.exists(sock))

    # SIGINT reaches a stopped machine: an orderly stop, the socket removed.
    run = subprocess.Popen([asymu, "run", "--control", sock, "--",
                            f"{guest_dir}/control-workload-{isa}",
                            f"{guest_dir}/control-workload-{other}"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(300):
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    rc, r = ctl("stop")
    run.send_signal(2)
    out, err = run.communicate(timeout=60)
    check("SIGINT while stopped", (130, "", "asymu: stopped by SIGINT\n"), (run.returncode, out, err))
    check("the socket is gone after SIGINT", False, os.path.exists(sock))
finally:
    if run.poll() is None:
        run.kill()
        run.wait()
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
exit_with_verdict()
