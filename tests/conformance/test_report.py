# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks the conformance report's reading of regrtest output and its "why"
column against a fixed regrtest transcript (CTest: conformance-report)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regrtest_output as ro  # noqa: E402
import report  # noqa: E402

TRANSCRIPT = """\
test_flock (test.test_fcntl.TestFcntl.test_flock) ... ERROR
test_pipe (test.test_fcntl.TestFcntl.test_pipe) ... FAIL
test_ok (test.test_fcntl.TestFcntl.test_ok) ... ok

======================================================================
ERROR: test_flock (test.test_fcntl.TestFcntl.test_flock)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/usr/lib/python3.11/test/test_fcntl.py", line 148, in test_flock
    fcntl.flock(fileno, fcntl.LOCK_SH)
OSError: [Errno 38] Function not implemented

======================================================================
FAIL: test_pipe (test.test_fcntl.TestFcntl.test_pipe)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/usr/lib/python3.11/test/test_fcntl.py", line 206, in test_pipe
AssertionError: 65536 != 32768

----------------------------------------------------------------------
Ran 3 tests in 0.033s

FAILED (failures=1, errors=1)
"""


def run(tests, messages=None, status="failure"):
    return {"tests": tests, "messages": messages or {}, "status": status, "ok": 1,
            "missing_syscalls": ["flock"], "asymu_messages": [], "module_skipped": None}


class ReportTest(unittest.TestCase):
    def test_failure_messages_are_the_last_traceback_lines(self):
        self.assertEqual(ro.failure_messages(TRANSCRIPT), {
            "test_fcntl.TestFcntl.test_flock": "OSError: [Errno 38] Function not implemented",
            "test_fcntl.TestFcntl.test_pipe": "AssertionError: 65536 != 32768"})

    def test_why_names_known_reasons_and_counts_the_rest(self):
        known = [(None, "test_fcntl.TestFcntl.test_flock", "flock (issue 11: locks)")]
        tests = ro.test_results(TRANSCRIPT)
        asymu = run(tests)
        qemu = run({t: "ok" for t in tests}, status="success")
        qemu["ok"] = 3
        self.assertEqual(report.why("test_fcntl", "arm64", asymu, qemu, known),
                         "flock (issue 11: locks) (1); ENOSYS: flock; "
                         "1 tests fail only under asymu, unexplained")
        self.assertEqual(report.unexplained("arm64", asymu, qemu, known),
                         ["test_fcntl.TestFcntl.test_pipe"])

    def test_an_isa_line_applies_to_that_isa_only(self):
        known = [("armhf", "test_x.*", "reason")]
        self.assertEqual(report.known_reason(known, "armhf", "test_x.A.b"), "reason")
        self.assertIsNone(report.known_reason(known, "arm64", "test_x.A.b"))

    def test_a_malformed_line_names_its_file_and_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".gaps", delete=False) as f:
            f.write("# comment\ntest_x.A.b reason-without-two-spaces\n")
        try:
            with self.assertRaisesRegex(ValueError, r"\.gaps:2: expected `PATTERN  REASON`"):
                report.load_known_gaps(f.name)
        finally:
            os.unlink(f.name)

    def test_the_projects_known_gaps_file_parses(self):
        entries = report.load_known_gaps()
        self.assertTrue(all(reason for _, _, reason in entries))
        self.assertTrue(all("issue" in reason for _, _, reason in entries))


if __name__ == "__main__":
    unittest.main()
