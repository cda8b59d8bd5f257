# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads the output of `python3.11 -m test -v MODULE`: per-test results, the
unittest summary and regrtest's final result, and asymu's own stderr lines."""
import re

# "test_x (test.test_mod.Class.test_x) ... ok", possibly with a docstring line
# or the test's own output between the name and the result.
TEST_START = re.compile(r"^(\w+) \((test\.[\w.]+)\)")
RESULT = re.compile(r"(?:^|\.\.\. )(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$")
RAN = re.compile(r"^Ran (\d+) tests? in ")
SUMMARY = re.compile(r"^(OK|FAILED)(?: \((.*)\))?$")
FINAL = re.compile(r"^Tests result: (.+)$")
MODULE_SKIP = re.compile(r"^[\w.]+ skipped -- (.*)$", re.M)
# unittest's report of one failure: a rule of '=', "ERROR: name (test.id)",
# a rule of '-', the traceback, whose last line is the exception.
FAILURE_HEAD = re.compile(r"^(?:ERROR|FAIL): \w+ \((test\.[\w.]+)\)")
UNSUPPORTED = re.compile(r"^asymu: \[pid \d+\] unsupported \w+ syscall (\w+) \((\d+)\)")
ASYMU_LINE = re.compile(r"^asymu: ")

STATUS_OF = {"ok": "ok", "FAIL": "fail", "ERROR": "error", "expected failure": "ok",
             "unexpected success": "fail"}


def test_results(text):
    """{test id: ok|fail|error|skip} from the verbose lines, in order."""
    results = {}
    current = None
    for line in text.splitlines():
        start = TEST_START.match(line)
        if start:
            current = start.group(2).removeprefix("test.")
        m = RESULT.search(line)
        if m and current is not None:
            word = m.group(1)
            results[current] = "skip" if word.startswith("skipped") else STATUS_OF[word]
            current = None
    return results


def failure_messages(text):
    """{test id: the last line of its traceback} for each failed test."""
    messages = {}
    current, last = None, None
    for line in text.splitlines():
        head = FAILURE_HEAD.match(line)
        if head:
            current, last = head.group(1).removeprefix("test."), None
        elif current is not None and (line.startswith("=" * 20) or RAN.match(line)):
            if last is not None:
                messages[current] = last
            current = None
        elif current is not None and line.strip() and not line.startswith("-" * 20):
            last = line.strip()
    if current is not None and last is not None:
        messages[current] = last
    return messages


def counts(text, results):
    """ok/fail/error/skip: from unittest's summary when it printed one (it
    counts failed subtests too), else from the per-test lines."""
    ran = None
    summary = None
    for line in text.splitlines():
        m = RAN.match(line)
        if m:
            ran = int(m.group(1))
        m = SUMMARY.match(line)
        if m and ran is not None:
            summary = m
    if ran is None or summary is None:
        c = {"ok": 0, "fail": 0, "error": 0, "skip": 0}
        for status in results.values():
            c[status] += 1
        return c, None
    fields = {}
    for part in (summary.group(2) or "").split(", "):
        if "=" in part:
            k, v = part.split("=")
            fields[k] = int(v)
    fail = fields.get("failures", 0) + fields.get("unexpected successes", 0)
    error = fields.get("errors", 0)
    skip = fields.get("skipped", 0)
    return {"ok": max(ran - fail - error - skip, 0), "fail": fail, "error": error,
            "skip": skip}, ran


def module_skipped(text):
    """The reason regrtest gives when the whole module skipped itself
    (`test_x skipped -- reason`), else None."""
    m = MODULE_SKIP.search(text)
    return m.group(1).strip() if m else None


def final_result(text):
    found = None
    for line in text.splitlines():
        m = FINAL.match(line)
        if m:
            found = m.group(1).strip()
    return found


def asymu_messages(stderr):
    """(names of the syscalls asymu reported unsupported, its other lines)."""
    missing, other = [], []
    for line in stderr.splitlines():
        m = UNSUPPORTED.match(line)
        if m:
            if m.group(1) not in missing:
                missing.append(m.group(1))
        elif ASYMU_LINE.match(line) and line not in other:
            other.append(line)
    return missing, other
