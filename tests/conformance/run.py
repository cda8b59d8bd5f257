#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs CPython's regression tests module by module under asymu and under
qemu-user on the same Debian 12 guest roots, and writes the table.

    run.py [--modules M,...] [--isas arm64,armhf] [--runners asymu,qemu]
           [--jobs N] [--timeout S] [--json FILE] [--md FILE]
           [--expect MODULE=TESTS,...] [--no-roots]

Each run is `python3.11 -m test -v MODULE` with a clean environment, logged
to BUILD/conformance/logs/RUNNER-ISA-MODULE.{out,err}. --json and --md are
updated in place: rows of runs not repeated this time stay as they were.
--expect (the smoke test) checks that each MODULE passes under asymu with
exactly TESTS tests run, and exits 1 otherwise; MODULE=TESTS/VERSION counts
only where the root's libpython3.11-testsuite is of that version. --no-roots: the guest roots
are built already (the conformance-roots fixture of the CTest tests).
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import signal
import subprocess
import sys
import time

import regrtest_output as ro
import report

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))

MODULES = """test_os test_posix test_signal test_subprocess test_threading test_select
test_selectors test_fcntl test_time test_random test_json test_re test_sched test_math
test_socket test_socketserver test_epoll test_asyncio.test_events test_asyncio.test_subprocess
test_asyncio.test_unix_events test_multiprocessing_fork[shared] test_mmap
test_tempfile test_shutil test_io test_pty test_eintr test_pipes test_popen test_thread
test_queue test_hashlib test_zlib test_ctypes""".split()
ISAS = ["arm64", "armhf"]
# The package of CPython's test suite in the roots: how many tests a module
# has depends on its version (--expect MODULE=N/VERSION).
TESTSUITE = "libpython3.11-testsuite"
QEMU = {"arm64": "qemu-aarch64", "armhf": "qemu-arm"}
GUEST_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
             "PYTHONHASHSEED": "0"}
# A sanitized asymu (make test's second suite) needs its options, e.g. the
# LeakSanitizer suppressions; the guest's /usr/bin/env drops them again.
SANITIZER_ENV = ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]


# Named subsets, MODULE[NAME]: the module's tests that match the patterns
# (regrtest's -m). test_multiprocessing_fork whole runs past the timeout
# under both runners (its Pool and Process tests start hundreds of
# interpreters); [shared] is what shares memory between processes: locks,
# semaphores, conditions, events, barriers, values, arrays and queues in
# shared memory, and multiprocessing.shared_memory.
SUBSETS = {
    "test_multiprocessing_fork[shared]": [
        "WithProcessesTest" + c for c in ("Lock", "Semaphore", "Condition", "Event", "Barrier",
                                          "Value", "Array", "SharedCTypes", "SharedMemory",
                                          "Queue")],
}


def command(runner, isa, module, build, root):
    test = ["-m", "test", "-v", module.split("[")[0]]
    for pattern in SUBSETS.get(module, []):
        test += ["-m", pattern]
    if runner == "asymu":
        # PROGRAM is a host path; /usr/bin/env then starts python3.11 from
        # the guest's own /usr/bin, so sys.executable is a guest path that
        # subprocess tests can run again.
        return [os.path.join(build, "asymu"), "run", "--sysroot", root, "--seed", "1", "--",
                os.path.join(root, "usr/bin/env")] + \
            [a for v in SANITIZER_ENV for a in ("-u", v)] + ["python3.11"] + test
    return [os.path.join(HERE, "qemu-sandbox.sh"), root, QEMU[isa],
            "/usr/bin/python3.11"] + test


def host_env(runner):
    """The environment of the runner's process: the guest's, and for asymu
    the sanitizer options it was started with."""
    env = dict(GUEST_ENV)
    if runner == "asymu":
        env.update({v: os.environ[v] for v in SANITIZER_ENV if v in os.environ})
    return env


def run_one(runner, isa, module, args):
    root = os.path.join(args.build, "conformance", f"root-{isa}")
    logs = os.path.join(args.build, "conformance", "logs")
    os.makedirs(logs, exist_ok=True)
    base = os.path.join(logs, f"{runner}-{isa}-{module}")
    cmd = command(runner, isa, module, args.build, root)
    start = time.monotonic()
    timed_out = False
    with open(base + ".out", "w") as out, open(base + ".err", "w") as err:
        # cwd is the root, so that asymu's guest starts in its /.
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             env=host_env(runner), cwd=root, start_new_session=True)
        try:
            status = p.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(p.pid, signal.SIGKILL)
            status = p.wait()
    seconds = round(time.monotonic() - start, 1)
    stdout = open(base + ".out", errors="replace").read()
    stderr = open(base + ".err", errors="replace").read()
    return summarize(runner, stdout, stderr, status, timed_out, seconds)


def summarize(runner, stdout, stderr, status, timed_out, seconds):
    text = stdout + "\n" + stderr
    tests = ro.test_results(text)
    count, ran = ro.counts(text, tests)
    result = ro.final_result(text)
    skipped_because = ro.module_skipped(text)
    missing, messages = ro.asymu_messages(stderr) if runner == "asymu" else ([], [])
    if timed_out:
        state = "timeout"
    elif status < 0:
        # The emulator itself died (the guest's death is 128+N instead).
        state = f"crash ({signal.Signals(-status).name})"
    elif runner == "asymu" and status == 70 and messages:
        state = "asymu error (70)"
    elif result is None:
        state = f"no result ({status})"
    elif skipped_because and result == "SUCCESS":
        state = "module skipped"
    else:
        state = result.lower()
    return {"status": state, "exit": status, "result": result, "ran": ran, **count,
            "seconds": seconds, "module_skipped": skipped_because, "missing_syscalls": missing, "asymu_messages": messages[:5],
            "tests": tests, "messages": ro.failure_messages(text)}


def versions(isas):
    v = {"date": datetime.date.today().isoformat()}
    try:
        v["asymu"] = subprocess.run(["git", "-C", SOURCE, "describe", "--always", "--dirty"],
                                    capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    for tool in ("qemu-aarch64",):
        r = subprocess.run([tool, "--version"], capture_output=True, text=True)
        v["qemu-user"] = r.stdout.splitlines()[0] if r.returncode == 0 else "missing"
    return v


def package_version(build, isa, package="python3.11"):
    """The version of PACKAGE in the ISA's root (build-root.py's list), or "?"."""
    stamp = os.path.join(build, "conformance", f"root-{isa}", ".asymu-conformance-packages")
    for line in open(stamp):
        name, version, _ = line.split()
        if name == package:
            return version
    return "?"


def expected_count(expect, module, suite):
    """The tests MODULE has in the test suite package of version SUITE:
    its MODULE=N/SUITE entry, else its MODULE=N entry, else None."""
    counts = expect.get(module, {})
    return counts.get(suite, counts.get(""))


def check_expectations(results, expect, logs, build):
    bad = 0
    for (runner, isa, module), r in sorted(results.items()):
        if runner != "asymu" or module not in expect:
            continue
        suite = package_version(build, isa, TESTSUITE)
        want = expected_count(expect, module, suite)
        if want is None:
            print(f"FAIL asymu {isa} {module}: no expected count for {TESTSUITE} {suite} "
                  f"(--expect {module}=N/{suite})")
            bad += 1
            continue
        ok = r["exit"] == 0 and r["status"] == "success" and r["ran"] == want
        print(f"{'ok  ' if ok else 'FAIL'} asymu {isa} {module}: {r['status']}, exit {r['exit']}, "
              f"{r['ran']} tests run (expected success with {want}), {r['seconds']} s")
        if not ok:
            bad += 1
            print(f"     see {os.path.join(logs, f'asymu-{isa}-{module}')}.{{out,err}}")
    return bad


def parse_args():
    env = os.environ
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(SOURCE, "build"))
    p.add_argument("--modules", default=env.get("MODULES") or ",".join(MODULES))
    p.add_argument("--isas", default=env.get("ISAS") or ",".join(ISAS))
    p.add_argument("--runners", default="asymu,qemu")
    p.add_argument("--jobs", type=int, default=int(env.get("CONFORMANCE_JOBS", "2")))
    p.add_argument("--timeout", type=float, default=float(env.get("CONFORMANCE_TIMEOUT", "600")))
    p.add_argument("--json")
    p.add_argument("--md")
    p.add_argument("--expect", default="")
    p.add_argument("--no-roots", action="store_true")
    a = p.parse_args()
    a.build = os.path.abspath(a.build)
    a.modules = a.modules.replace(",", " ").split()
    a.isas = a.isas.replace(",", " ").split()
    a.runners = a.runners.replace(",", " ").split()
    # MODULE=N, or MODULE=N/VERSION: N tests where the root's test suite
    # package is of that VERSION (a module may be named once per version).
    entries, a.expect = a.expect.split(","), {}
    for e in (e for e in entries if e):
        module, _, count = e.partition("=")
        n, _, suite = count.partition("/")
        a.expect.setdefault(module, {})[suite] = int(n)
    for isa in a.isas:
        if isa not in ISAS:
            p.error(f"unknown ISA {isa} (use {' '.join(ISAS)})")
    return a


def main():
    args = parse_args()
    for isa in [] if args.no_roots else args.isas:
        r = subprocess.run([sys.executable, os.path.join(HERE, "build-root.py"), isa,
                            os.path.join(args.build, "conformance")])
        if r.returncode != 0:
            sys.exit(f"conformance: the {isa} guest root could not be built (see above); "
                     "it needs the Debian mirror in the machine's apt sources")
    runs = [(runner, isa, m) for m in args.modules for isa in args.isas for runner in args.runners]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        futures = {pool.submit(run_one, *run, args): run for run in runs}
        for f in concurrent.futures.as_completed(futures):
            run = futures[f]
            results[run] = r = f.result()
            print(f"{run[0]:5} {run[1]:5} {run[2]:28} {r['status']:16} ok {r['ok']} fail {r['fail']} "
                  f"error {r['error']} skip {r['skip']}  {r['seconds']} s", flush=True)
    if args.json:
        meta = versions(args.isas)
        for isa in args.isas:
            meta[f"python3.11 ({isa})"] = package_version(args.build, isa)
        report.update(args.json, args.md, results, meta)
    if args.expect:
        logs = os.path.join(args.build, "conformance", "logs")
        sys.exit(1 if check_expectations(results, args.expect, logs, args.build) else 0)


if __name__ == "__main__":
    main()
