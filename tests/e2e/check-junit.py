#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-junit.py FILE TESTS FAILURES - checks a JUnit XML file against the
structure CI tools read (the JUnit schema's required parts): a <testsuites>
root holding <testsuite> elements with name, tests, failures, errors; each
<testcase> with name and classname; each <failure> with message and type;
and the counts adding up to the expected ones."""
import sys
import xml.etree.ElementTree as ET

path, tests, failures = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
root = ET.parse(path).getroot()
assert root.tag == "testsuites", root.tag
assert root.get("tests") == str(tests) and root.get("failures") == str(failures), root.attrib
suites = root.findall("testsuite")
assert suites, "no testsuite"
seen_tests = seen_failures = 0
for suite in suites:
    for attr in ("name", "tests", "failures", "errors"):
        assert suite.get(attr) is not None, f"testsuite without {attr}"
    cases = suite.findall("testcase")
    assert int(suite.get("tests")) == len(cases), "testsuite tests count"
    failed = 0
    for case in cases:
        assert case.get("name") and case.get("classname"), case.attrib
        for child in case:
            assert child.tag in ("failure", "error", "skipped", "system-out", "system-err"), child.tag
        fails = case.findall("failure")
        assert len(fails) <= 1
        for f in fails:
            assert f.get("message") and f.get("type"), f.attrib
            assert f.text and f.get("message") in f.text
        failed += len(fails)
    assert int(suite.get("failures")) == failed, "testsuite failures count"
    seen_tests += len(cases)
    seen_failures += failed
assert (seen_tests, seen_failures) == (tests, failures), (seen_tests, seen_failures)
print("junit ok")
