# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks the programs table's runner on fixed transcripts, without running
any program (CTest: conformance-programs-report): every row has its steps
and an expected output for both ISAs, the steps parse into what qemu-user
is given, the replacements make a run's varying output the expected one,
and each way of failing gets its reason."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import programs  # noqa: E402

STRESS_RUN = """\
Working directory / is not read/writeable, some I/O tests may fail
setting to a 2 second run per stressor
dispatching hogs: 1 futex
successful run completed in 2.04s
"""

ASAN_RUN = """\
=================================================================
==47==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x0055058007c0 at pc 0x005500000e74 bp 0x005502821b50 sp 0x005502821b68
WRITE of size 1 at 0x0055058007c0 thread T0
    #0 0x5500000e70 in main /work/x/tests/guest/asan.c:31

0x0055058007c0 is located 0 bytes to the right of 16-byte region [0x0055058007b0,0x0055058007c0)
SUMMARY: AddressSanitizer: heap-buffer-overflow /work/x/tests/guest/asan.c:31 in main
"""


def verdict(name, stdout, stderr="", status=0, timed_out=False, runner="asymu"):
    return programs.verdict(name, "arm64", runner, stdout, stderr, status, timed_out, 1.0)


class Rows(unittest.TestCase):
    def test_every_row_has_steps_and_expected_output(self):
        for name in programs.ROWS:
            for isa in programs.ISAS:
                self.assertTrue(programs.parse_steps(programs.steps_file(name, isa)), (name, isa))
                self.assertTrue(programs.expected(name, isa), (name, isa))
        self.assertEqual(programs.steps_file("java-jvm-path", "armhf"),
                         os.path.join(programs.ROWS_DIR, "java-jvm-path", "steps.armhf"))
        self.assertEqual(programs.expected("java-jvm-path", "armhf"),
                         programs.expected("java", "armhf"))

    def test_steps_parse_into_qemu_arguments(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "steps")
            with open(path, "w") as f:
                f.write("# a comment\n\nA=1 B='x y' /usr/bin/git -C /tmp/r commit -m \"first one\"\n")
            self.assertEqual(programs.parse_steps(path),
                             [(["A=1", "B=x y"], ["/usr/bin/git", "-C", "/tmp/r", "commit", "-m",
                                                  "first one"])])
            base = os.path.join(tmp, "qemu-arm64-x")
            programs.ROWS[os.path.basename(tmp)] = {}
            old = programs.ROWS_DIR
            programs.ROWS_DIR = os.path.dirname(tmp)
            try:
                cmd = programs.command("qemu", "arm64", os.path.basename(tmp), "/b", "/r", base)
            finally:
                programs.ROWS_DIR = old
                del programs.ROWS[os.path.basename(tmp)]
            self.assertEqual(cmd[1:], ["--steps", base + ".steps", "/r", "qemu-aarch64"])
            with open(base + ".steps") as f:
                written = f.read()
            self.assertEqual(written,
                             "-E A=1 -E 'B=x y' /usr/bin/git -C /tmp/r commit -m 'first one'\n")

    def test_asymu_runs_the_steps_with_the_guests_shell(self):
        cmd = programs.command("asymu", "armhf", "pmqtest", "/b", "/r", "/l/x")
        self.assertEqual(cmd, ["/b/asymu", "run", "--sysroot", "/r", "--seed", "1", "--cpus", "4",
                               "--", "/r/bin/sh", "-e", "/opt/asymu-programs/pmqtest/steps"])


class Verdicts(unittest.TestCase):
    def test_stress_ng_summary_passes_whatever_its_length(self):
        self.assertEqual(verdict("stress-ng-futex", "", STRESS_RUN)["status"], "pass")

    def test_a_skipped_stressor_is_a_failure(self):
        run = STRESS_RUN.replace("successful", "futex stressor will be skipped, no futex\nsuccessful")
        r = verdict("stress-ng-futex", "", run)
        self.assertEqual(r["status"], "fail")
        self.assertEqual(r["reason"], "output line 2: 'futex stressor will be skipped, no futex', "
                                      "expected 'successful run completed in Ns'")

    def test_asan_report_with_its_status(self):
        self.assertEqual(verdict("asan", "before the overflow\n", ASAN_RUN, status=1)["status"],
                         "pass")
        r = verdict("asan", "before the overflow\n", ASAN_RUN, status=0)
        self.assertEqual((r["status"], r["reason"]),
                         ("fail", "exit 0 (expected 1): ==47==ERROR: AddressSanitizer: "
                                  "heap-buffer-overflow on address 0x0055058007c0 at pc "
                                  "0x005500000e74 bp 0x005502821b50 sp 0x005502821b68"))

    def test_latencies_are_replaced(self):
        out = "# /dev/cpu_dma_latency set to 0us\n" \
              "T: 0 (   49) P:80 I:1000 C:    200 Min:     23 Act:   38 Avg:  122 Max:    6155\n"
        self.assertEqual(verdict("cyclictest", out)["status"], "pass")
        r = verdict("cyclictest", out.replace("C:    200", "C:    199"))
        self.assertEqual(r["reason"], "output line 1: 'T: 0 (TID) P:80 I:1000 C:    199 Min: N "
                                      "Act: N Avg: N Max: N', expected 'T: 0 (TID) P:80 I:1000 "
                                      "C:    200 Min: N Act: N Avg: N Max: N'")

    def test_the_unsupported_syscall_is_the_reason(self):
        err = "initializing mutex: Operation not supported\n" \
              "asymu: [pid 1] unsupported aarch64 syscall futex_waitv (449): returning ENOSYS\n"
        r = verdict("pi_stress", "", err, status=1)
        self.assertEqual(r["reason"], "exit 1: asymu: [pid 1] unsupported aarch64 syscall "
                                      "futex_waitv (449): returning ENOSYS")
        self.assertEqual(r["missing_syscalls"], ["futex_waitv"])
        r = verdict("pi_stress", "", err.splitlines()[0], status=1, runner="qemu")
        self.assertEqual(r["reason"], "exit 1: initializing mutex: Operation not supported")

    def test_a_pass_names_what_asymu_lacked(self):
        err = STRESS_RUN + "asymu: [pid 4] unsupported aarch64 syscall futex_waitv (449): " \
                           "returning ENOSYS\n"
        r = verdict("stress-ng-futex", "", err)
        self.assertEqual((r["status"], r["reason"]),
                         ("pass", "asymu reported unsupported: futex_waitv"))

    def test_a_failure_names_what_asymu_lacked(self):
        err = STRESS_RUN.replace("successful", "race-sched: capget on pid 4 failed: errno=38\n"
                                 "asymu: [pid 4] unsupported aarch64 syscall capget (90): "
                                 "returning ENOSYS\nsuccessful")
        r = verdict("stress-ng-futex", "", err)
        self.assertEqual(r["reason"], "output line 2: 'race-sched: capget on pid 4 failed: "
                                      "errno=38', expected 'successful run completed in Ns'; "
                                      "asymu reported unsupported: capget")

    def test_timeout_and_crash(self):
        r = verdict("stress-ng-futex", "", STRESS_RUN.replace("successful run completed in 2.04s\n", ""), status=-9, timed_out=True)
        self.assertEqual((r["status"], r["reason"]),
                         ("timeout", "timeout after 1 s; last line: dispatching hogs: 1 futex"))
        self.assertEqual(verdict("perl", "", "", status=-11)["status"], "crash (SIGSEGV)")

    def test_table_rows_in_row_order(self):
        data = {"programs": {"lua": {"arm64": {"asymu": {"status": "pass", "reason": "",
                                                         "seconds": 1.2}}},
                             "perl": {"arm64": {"qemu": {"status": "fail", "reason": "a|b",
                                                         "seconds": 3}}}},
                "programs_meta": {"date": "2026-12-06"}}
        lines = programs.table(data).splitlines()
        self.assertEqual(lines[4], "| perl | arm64 |  |  |  | fail | a\\|b | 3 |")
        self.assertEqual(lines[5], "| lua | arm64 | pass |  | 1 |  |  |  |")
        self.assertEqual(lines[7], "Last run: date 2026-12-06.")


if __name__ == "__main__":
    unittest.main()
