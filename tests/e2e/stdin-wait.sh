#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# stdin-wait.sh ASYMU GUEST - input that arrives a second late: the guest's
# child runs (and finishes) while its parent waits for the console.
set -u
out=$( (sleep 1; echo hi) | "$1" run --check-invariants -- "$2")
expected="child done
parent read: hi
child exited 0"
if [ "$out" = "$expected" ]; then
    echo "stdin-wait: 1 passed, 0 failed"
    exit 0
fi
printf 'FAIL: expected\n%s\ngot\n%s\n' "$expected" "$out"
exit 1
