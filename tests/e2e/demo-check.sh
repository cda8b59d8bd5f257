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
# The installed demo writes its traces into a new $TMPDIR/asymu-demo.XXXXXX
# for its user to open: here a directory of the check's own, removed after.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
TMPDIR=$work sh "$demo" "$@" > "$work/demo-check.out" 2>&1
status=$?
sed -e "s|$programs/|PROGRAMS/|g" -e "s|$here/scenarios/|SCENARIOS/|g" -e "s|$out/|OUT/|g" \
    "$work/demo-check.out" | diff -u "$expected" -
differs=$?
[ "$status" -eq 0 ] && [ "$differs" -eq 0 ]
