# SPDX-License-Identifier: GPL-2.0-or-later
"""checks.py - the verdicts of the end-to-end test scripts (control.py,
gdbstub.py, record.py): each check prints an ok or FAIL line, and the
script's exit status is 1 when one failed."""
import sys

failures = 0


def check(what, expected, got):
    global failures
    if expected != got:
        failures += 1
        print(f"FAIL: {what}: expected {expected!r}, got {got!r}")
    else:
        print(f"ok: {what}")


def exit_with_verdict():
    """Ends the script: status 1 if a check failed, else 0."""
    sys.exit(1 if failures else 0)
