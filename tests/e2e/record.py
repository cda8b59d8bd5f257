#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""record.py ASYMU GUEST_DIR DATA_DIR ISA CASE - record and replay of host
input (docs/recording.md), one CASE per test:

  stdin        "a", then (once recorded) "b" into a guest that polls and
               reads stdin and prints what it got and when (virtual clock):
               the recording holds the two lines and the end of input, and
               two replays give the recording run's stdout and --trace bytes;
  sigint       SIGINT to asymu at a wall-clock moment while the guest spins:
               recorded, and both replays stop at the same virtual time with
               the same output, status 130 and trace;
  control      a control session (stop, trace off, step 3, trace on,
               offline 3, signal, cont) recorded and replayed twice to the
               identical trace; `trace off` left the stepped slices out; a
               replay refuses a client's offline; `asymu replay --control`
               serves a scenario's machine (a signal ends its workload);
  broken       broken recordings exit 2 with FILE:LINE and the reason;
  crafted      crafted control lines (issue 24, item 10) in place of a
               spinning run's SIGINT: `step 1000000000` stops the replay past
               the end line's point, `stop 1` and `stop` where the machine
               waits (exit 2 with the end line, within a minute); a request
               no recording holds is refused at load;
  determinism  a recording kept in DATA_DIR replays to the exact stdout kept
               there, twice (the run does not depend on the build's path or
               the environment: the guest runs from its directory as sysroot).

Every run is under `env -i`, so the recording run and its replays see the
same environment; a sanitizer build's own variables pass (asymu keeps them
from the guest)."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from checks import check, exit_with_verdict

asymu, guest_dir, data_dir, isa, case = sys.argv[1:6]
other = "armhf" if isa == "aarch64" else "aarch64"
tmp = tempfile.mkdtemp()
# env -i, but for the sanitizer runtime's options and the coverage map's
# directory (tests/sanitize/; a sanitizer or coverage-map build's asymu does
# not hand them to the guest).
ENV_I = ["env", "-i"] + [f"{k}={os.environ[k]}" for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS",
                                                            "LSAN_OPTIONS", "ASYMU_COVERAGE_DIR")
                         if k in os.environ]


def asymu_run(options, program, stdin=subprocess.DEVNULL, cwd=None):
    """asymu run under env -i: (status, stdout, stderr) as bytes."""
    p = subprocess.run([*ENV_I, asymu, "run", "--seed", "1", *options, "--", *program],
                       stdin=stdin, capture_output=True, timeout=300, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def read(path):
    with open(path, "rb") as f:
        return f.read()


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def replays_match(what, recording, program, status, stdout, stderr, trace):
    """Two replays of recording give the recording run's bytes."""
    for n in (1, 2):
        t = os.path.join(tmp, f"replay{n}.json")
        got = asymu_run(["--input", recording, "--trace", t], program)
        check(f"{what}: replay {n}'s status, stdout and stderr", (status, stdout, stderr), got)
        check(f"{what}: replay {n}'s trace is the recording run's", True, read(t) == trace)


def case_stdin():
    rec, trace = os.path.join(tmp, "stdin.rec"), os.path.join(tmp, "stdin.json")
    program = [f"{guest_dir}/record-reader-{isa}", "read"]
    # "b" is written once the recording holds "a": two inputs however slow
    # asymu is (a sanitized asymu may not read before both have arrived).
    read_end, write_end = os.pipe()
    run = threading.Thread(target=lambda: got.append(
        asymu_run(["--record", rec, "--trace", trace], program, stdin=read_end)))
    got = []
    run.start()
    os.write(write_end, b"a\n")
    for _ in range(3000):
        if os.path.exists(rec) and '"stdin"' in open(rec).read():
            break
        time.sleep(0.01)
    os.write(write_end, b"b\n")
    os.close(write_end)
    run.join()
    os.close(read_end)
    got = got[0]
    status, out, err = got
    reads = [line.split(": ", 1)[1] for line in out.decode().splitlines()]
    check("what the guest read", ['read 2 bytes "a\\n"', 'read 2 bytes "b\\n"', "end of input (0)"],
          reads)
    check("status and stderr", (0, b""), (status, err))
    recorded = lines(rec)
    check("the header", (1, [asymu, "run"], [f"record-reader-{isa}", "read"]),
          (recorded[0]["asymu_recording"], recorded[0]["command"][:2],
           recorded[0]["program"]))
    check("the header's machine", {"cpus": 8, "aarch32": "0-3", "cmdline":
                                   "allow_mismatched_32bit_el0", "policy": "upstream",
                                   "seed": 1, "slice": 10000}, recorded[0]["machine"])
    inputs = [{k: v for k, v in r.items() if k not in ("point", "ns", "in_syscall")}
              for r in recorded[1:]]
    check("the inputs", [{"stdin": "a\n"}, {"stdin": "b\n"}, {"stdin_eof": True}, {"end": 0}],
          inputs)
    times = [r["ns"] for r in recorded[1:]]
    check("their times never go back", sorted(times), times)
    replays_match("stdin", rec, program, 0, out, err, read(trace))


def case_sigint():
    rec, trace = os.path.join(tmp, "sigint.rec"), os.path.join(tmp, "sigint.json")
    program = [f"{guest_dir}/record-reader-{isa}", "spin"]
    run = subprocess.Popen([*ENV_I, asymu, "run", "--seed", "1", "--record", rec, "--trace",
                            trace, "--", *program], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=300)
    check("the recording run stopped by SIGINT", (130, b"asymu: stopped by SIGINT\n"),
          (run.returncode, err))
    recorded = lines(rec)
    check("the inputs", [{"signal": "SIGINT"}, {"end": 130}],
          [{k: v for k, v in r.items() if k not in ("point", "ns")} for r in recorded[1:]])
    check("the guest printed its clock before the stop", True, out.startswith(b"clock "))
    replays_match("sigint", rec, program, 130, out, err, read(trace))


def ctl(sock, *args):
    p = subprocess.run([asymu, "ctl", sock, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, json.loads(p.stdout) if p.stdout else None


def wait_for(path):
    for _ in range(300):
        if os.path.exists(path):
            return
        time.sleep(0.1)


def wait_for_child(sock):
    """The workload behind sock has forked and its child has exec'd."""
    wait_for(sock)
    for _ in range(300):
        rc, ps = ctl(sock, "ps")
        if len(ps["tasks"]) == 2 and ps["tasks"][1]["name"] == "wl-?-child":
            return
        time.sleep(0.1)


def slices_between(trace, start_ns, end_ns):
    """The trace's slices (complete events) that start in [start_ns, end_ns)."""
    events = json.loads(read(trace))["traceEvents"]
    return [e for e in events if e.get("ph") == "X" and start_ns <= e["ts"] * 1000 < end_ns]


def case_control():
    rec, trace = os.path.join(tmp, "control.rec"), os.path.join(tmp, "control.json")
    sock = os.path.join(tmp, "control.sock")
    program = [f"{guest_dir}/control-workload-{isa}", f"{guest_dir}/control-workload-{other}"]
    run = subprocess.Popen([*ENV_I, asymu, "run", "--seed", "1", "--record", rec, "--trace",
                            trace, "--control", sock, "--", *program], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_child(sock)
    _, stopped = ctl(sock, "stop")
    check("trace off", (0, False), (lambda r: (r[0], r[1]["trace"]))(ctl(sock, "trace", "off")))
    _, stepped = ctl(sock, "step", "3")
    check("trace on", (0, True), (lambda r: (r[0], r[1]["trace"]))(ctl(sock, "trace", "on")))
    check("a look is not recorded", 0, ctl(sock, "ps")[0])
    check("offline 3", (0, False), (lambda r: (r[0], r[1]["online"]))(ctl(sock, "offline", "3")))
    check("signal", 0, ctl(sock, "signal", "2", "USR1")[0])
    check("cont", 0, ctl(sock, "cont")[0])
    out, err = run.communicate(timeout=300)
    bits = {"aarch64": "64-bit", "armhf": "32-bit"}
    check("the recording run's end", (0, f"child: SIGUSR1 ({bits[other]})\nparent: child exited "
                                         f"with 0 ({bits[isa]})\n".encode(), b""),
          (run.returncode, out, err))
    recorded = lines(rec)
    check("the requests recorded", ["stop", "trace off", "step 3", "trace on", "offline 3",
                                    "signal 2 USR1", "cont"],
          [r["control"] for r in recorded[1:] if "control" in r])
    check("trace off: no slice of the 3 steps in the trace", [],
          slices_between(trace, stopped["time_ns"], stepped["time_ns"]))
    replays_match("control", rec, program, 0, out, err, read(trace))

    # A replay with a control socket serves looks and refuses changes: the
    # replay of a second of spinning stopped by SIGINT, so that the machine
    # is still there when the request comes. An attempt whose machine ended
    # first (ctl's status 2) is tried again, on a new socket (a socket file
    # stays behind when its machine ends).
    spin = [f"{guest_dir}/record-reader-{isa}", "spin"]
    spin_rec = os.path.join(tmp, "spin.rec")
    run = subprocess.Popen([*ENV_I, asymu, "run", "--seed", "1", "--record", spin_rec, "--",
                            *spin], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    time.sleep(1.0)
    run.send_signal(signal.SIGINT)
    spin_out, _ = run.communicate(timeout=300)
    for attempt in range(5):
        sock = os.path.join(tmp, f"replay-{attempt}.sock")
        run = subprocess.Popen([*ENV_I, asymu, "run", "--seed", "1", "--input", spin_rec,
                                "--control", sock, "--", *spin], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wait_for(sock)
        rc, r = ctl(sock, "offline", "2")
        out2, err2 = run.communicate(timeout=300)
        if rc != 2:
            break
    check("a replay refuses offline", (1, "offline: the machine replays a recording; only ps, "
          "cpus, dmesg, regs, mem, stop, cont and step are served"),
          (rc, r and r.get("error")))
    check("... and replays as recorded", (130, spin_out, b"asymu: stopped by SIGINT\n"),
          (run.returncode, out2, err2))

    # asymu replay --control: a scenario's machine steered from the socket.
    scenario = os.path.join(tmp, "workload.yaml")
    with open(scenario, "w") as f:
        f.write(f"tasks:\n  - name: wl\n    path: {program[0]}\n    args: [{program[1]}]\n"
                "expect:\n  - task: wl\n    exit: 0\n")
    sock = os.path.join(tmp, "scenario.sock")
    run = subprocess.Popen([asymu, "replay", "--control", sock, scenario], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    wait_for_child(sock)
    check("replay --control: signal", (0, 10), (lambda r: (r[0], r[1]["signal"]))(
        ctl(sock, "signal", "2", "USR1")))
    out3, err3 = run.communicate(timeout=300)
    check("replay --control: the scenario passes", (0, f"PASS {scenario} (upstream)\n1 passed, "
                                                      "0 failed\n".encode(), b""),
          (run.returncode, out3, err3))


def case_broken():
    program = [f"{guest_dir}/record-reader-{isa}", "read"]
    rec = os.path.join(tmp, "good.rec")
    feed = subprocess.Popen(["sh", "-c", "echo a"], stdout=subprocess.PIPE)
    asymu_run(["--record", rec], program, stdin=feed.stdout)
    feed.wait()
    good = read(rec).decode().splitlines(keepends=True)
    n = len(good)
    broken = {
        "garbled": (good[:2] + ['{"point": 2\n'] + good[2:],
                    "garbled.rec:3: not a JSON object: '}' expected near end of file"),
        "truncated": (good[:-1], f"truncated.rec:{n - 1}: the recording has no end line (it is "
                                 "truncated: the recording run did not end)"),
        "unended": (good[:-1] + [good[-1].rstrip("\n")],
                    f"unended.rec:{n}: the line does not end (a truncated recording?)"),
        "unknown-key": (good[:1] + [good[1].replace('"stdin"', '"stdn"')] + good[2:],
                        "unknown-key.rec:2: unknown key 'stdn' (expected point, ns, in_syscall "
                        "and one of stdin, stdin_hex, stdin_eof, signal, control, write, end)"),
        "past": (good[:2] + [good[2].replace(f'"point":{json.loads(good[2])["point"]}',
                                             '"point":0', 1)] + good[3:],
                 "past.rec:3: point 0 at"),
        "not-recording": (['{"hello": 1}\n'], "not-recording.rec:1: not an asymu recording"),
        "version": ([good[0].replace('"asymu_recording":1', '"asymu_recording":9')] + good[1:],
                    "version.rec:1: recording format version 9, this asymu reads 1"),
        "time": (good[:1] + [good[1].replace(f'"ns":{json.loads(good[1])["ns"]}',
                                             f'"ns":{json.loads(good[1])["ns"] + 1}')] + good[2:],
                 "time.rec:2: the recording does not match the run: its input at point"),
    }
    for name, (text, message) in broken.items():
        path = os.path.join(tmp, f"{name}.rec")
        with open(path, "w") as f:
            f.writelines(text)
        status, _, err = asymu_run(["--input", path], program, cwd=tmp)
        err = err.decode().replace(tmp + "/", "")
        check(f"{name}: status 2 and the message", (2, True, message),
              (status, err.startswith(f"asymu: {message}"), err.split("\n")[0][7:7 + len(message)]))
    status, _, err = asymu_run(["--input", rec], [f"{guest_dir}/record-reader-{other}", "read"])
    check("another program", (2, f"asymu: {rec}:1: the recording is of another program: "
                                 f'["record-reader-{isa}","read"], this run\'s is '
                                 f'["record-reader-{other}","read"]\n'), (status, err.decode()))
    status, _, err = asymu_run(["--input", rec, "--policy", "kill"], program)
    check("another machine", (2, f"asymu: {rec}:1: the recording is of another machine: its "
                                 'policy is "upstream", this run\'s is "kill"\n'),
          (status, err.decode()))
    status, _, err = asymu_run(["--input", rec, "--record", rec], program)
    check("--record with --input", (2, b"asymu run: --record and --input: a replay is not "
                                       b"recorded again\n"), (status, err))


def case_crafted():
    rec = os.path.join(tmp, "spin.rec")
    program = [f"{guest_dir}/record-reader-{isa}", "spin"]
    run = subprocess.Popen([*ENV_I, asymu, "run", "--seed", "1", "--record", rec, "--",
                            *program], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    time.sleep(0.5)
    run.send_signal(signal.SIGINT)
    run.communicate(timeout=300)
    good = read(rec).decode().splitlines(keepends=True)
    check("the recording: header, SIGINT, end", 3, len(good))
    end = json.loads(good[2])["point"]
    for request in ("stop 1", "step 1000000000", "stop"):
        path = os.path.join(tmp, "crafted.rec")
        with open(path, "w") as f:
            f.writelines([good[0], json.dumps({"point": 1, "ns": 0, "control": request}) + "\n",
                          good[2]])
        t0 = time.time()
        status, _, err = asymu_run(["--input", path], program, cwd=tmp)
        message = (f"asymu: crafted.rec:3: the recording does not match the run: the run goes on "
                   f"at point {end + 1} (")
        if request != "step 1000000000":  # the machine, or its only task, held for good
            message = ("asymu: crafted.rec:3: the recording does not match the run: the machine "
                       "waits at point 1 (0 ns) and the recording has no input left for it")
        check(f"{request}: status 2 and the end line", (2, True, True),
              (status, err.decode().replace(tmp + "/", "").startswith(message),
               time.time() - t0 < 60))
    for request, why in (("halt", "not one a recording holds (stop, cont, step, offline, online, "
                                  "setaffinity, signal, trace)"),
                         ("step 0", "step takes 1 to 1000000000 slices"),
                         ("step 1000000001", "step takes 1 to 1000000000 slices"),
                         ("step -1", "step takes 1 to 1000000000 slices"),
                         ("signal 1", "signal takes 2 to 2 arguments")):
        path = os.path.join(tmp, "refused.rec")
        with open(path, "w") as f:
            f.writelines([good[0], json.dumps({"point": 1, "ns": 0, "control": request}) + "\n",
                          good[2]])
        status, _, err = asymu_run(["--input", path], program, cwd=tmp)
        check(f"{request}: refused at load", (2, f"asymu: refused.rec:2: control request "
                                                 f"'{request}': {why}\n"),
              (status, err.decode().replace(tmp + "/", "")))


def case_scenario():
    """asymu replay --record / --input and the scenario's input: key."""
    program = [f"{guest_dir}/control-workload-{isa}", f"{guest_dir}/control-workload-{other}"]
    scenario = os.path.join(tmp, "workload.yaml")
    text = (f"tasks:\n  - name: wl\n    path: {program[0]}\n    args: [{program[1]}]\n"
            "expect:\n  - task: wl\n    exit: 0\n")
    with open(scenario, "w") as f:
        f.write(text)
    rec, sock = os.path.join(tmp, "scenario.rec"), os.path.join(tmp, "scenario.sock")
    passed = f"PASS {scenario} (upstream)\n1 passed, 0 failed\n".encode()
    run = subprocess.Popen([asymu, "replay", "--control", sock, "--record", rec, scenario],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_child(sock)
    for req in ("stop", "offline 3", "signal 2 USR1", "cont"):
        check(f"scenario: {req}", 0, ctl(sock, *req.split())[0])
    out, err = run.communicate(timeout=300)
    check("scenario: the recorded run passes", (0, passed, b""), (run.returncode, out, err))
    check("scenario: the requests recorded", ["stop", "offline 3", "signal 2 USR1", "cont"],
          [r["control"] for r in lines(rec)[1:] if "control" in r])

    def replay(*args):
        trace, report = os.path.join(tmp, "replay.json"), os.path.join(tmp, "report.json")
        p = subprocess.run([asymu, "replay", "--trace", trace, "--report", report, *args],
                           capture_output=True, timeout=300)
        # The report without "set", the digest of the scenario's bytes:
        # appending input: below changes the file, not the run.
        rep = json.loads(read(report))
        rep.pop("set", None)
        return p.returncode, p.stdout, p.stderr, read(trace), rep

    first = replay("--input", rec, scenario)
    check("scenario: replay --input passes", (0, passed, b""), first[:3])
    check("scenario: the replay took cpu3 offline", True, b'"cpu offline"' in first[3])
    check("scenario: a second replay, the same trace and report", first, replay("--input", rec,
                                                                                scenario))
    with open(scenario, "a") as f:
        f.write(f"input: {os.path.basename(rec)}\n")
    check("scenario: the input: key, the same trace and report", first, replay(scenario))

    # A recording the run leaves (its last input one ns late): status 2, the line.
    good = read(rec).decode().splitlines(keepends=True)
    i = next(i for i, line in enumerate(good) if '"cont"' in line)
    ns = json.loads(good[i])["ns"]
    good[i] = good[i].replace(f'"ns":{ns}', f'"ns":{ns + 1}', 1)
    with open(rec, "w") as f:
        f.writelines(good)
    status, _, err, _, _ = replay(scenario)
    check("scenario: a recording the run leaves", (2, True), (status, err.decode().startswith(
        f"asymu: {rec}:{i + 1}: the recording does not match the run: the machine waits at point")))
    with open(scenario, "w") as f:
        f.write(text + "input: nothing.rec\n")
    p = subprocess.run([asymu, "replay", scenario], capture_output=True, timeout=300)
    check("scenario: input: of no file", (2, f"{scenario}:8:8: expected a readable recording, "
                                             "found 'nothing.rec': No such file or directory\n"),
          (p.returncode, p.stderr.decode()))


def case_determinism():
    # From the guest directory as sysroot: argv[0], the executable's guest
    # path and the cwd are the same wherever the build is.
    program = [f"./record-reader-{isa}", "read"]
    rec = os.path.join(data_dir, f"record-reader-{isa}.rec")
    expected = read(os.path.join(data_dir, f"record-reader-{isa}.out"))
    for n in (1, 2):
        got = asymu_run(["--sysroot", ".", "--input", rec], program, cwd=guest_dir)
        check(f"replay {n}", (0, expected, b""), got)


{"stdin": case_stdin, "sigint": case_sigint, "control": case_control, "broken": case_broken,
 "crafted": case_crafted, "scenario": case_scenario, "determinism": case_determinism}[case]()
shutil.rmtree(tmp, ignore_errors=True)
exit_with_verdict()
