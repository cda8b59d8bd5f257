#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# demo-check.sh EXPECTED DEMO [BUILD]: runs the demo (examples/demo.sh, of a
# build tree or an installed one) and compares what it prints, with its
# paths written as PROGRAMS/, SCENARIOS/ and OUT/, with EXPECTED.
set -u
expected=$1 demo=$2
shift 2
here=$(cd "$(dirname "$demo")" && pwd)
if [ $# -gt 0 ]; then
    programs=$1/examples out=$1/demo
else
    programs=$(cd "$here/../../../libexec/asymu" && pwd) out='[^ ]*/asymu-demo\.[A-Za-z0-9]*'
fi
sh "$demo" "$@" > "${TMPDIR:-/tmp}/demo-check.$$" 2>&1
status=$?
sed -e "s|$programs/|PROGRAMS/|g" -e "s|$here/scenarios/|SCENARIOS/|g" -e "s|$out/|OUT/|g" \
    "${TMPDIR:-/tmp}/demo-check.$$" | diff -u "$expected" -
differs=$?
rm -f "${TMPDIR:-/tmp}/demo-check.$$"
[ "$status" -eq 0 ] && [ "$differs" -eq 0 ]
