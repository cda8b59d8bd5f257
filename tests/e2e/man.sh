#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# man.sh ASYMU SOURCE: the manual pages (issue 25 part 2) as man renders
# them: asymu(1), generated from the option table, renders without a
# warning and lists every option of `asymu run` and every subcommand;
# asymu-scenario(5) renders without a warning and its EXAMPLE is a scenario
# that passes under upstream and kill.
set -u
asymu=$1 src=$2
tmp=$(mktemp -d /tmp/asymu-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "man: $*"; exit 1; }
"$asymu" options-doc --man > "$tmp/asymu.1" || fail "options-doc --man"
for page in "$tmp/asymu.1" "$src/man/asymu-scenario.5"; do
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || fail "$page: $warnings"
done
MANWIDTH=200 man -l "$tmp/asymu.1" 2>/dev/null > "$tmp/asymu.txt"
options=$("$asymu" options-doc | sed -n 's/^| `\(-[-a-zA-Z0-9]*\).*/\1/p')
[ -n "$options" ] || fail "no options in options-doc"
n=0
for o in $options; do
    grep -q -- "^       $o" "$tmp/asymu.txt" || fail "asymu(1) lacks $o"
    n=$((n + 1))
done
for cmd in run replay compare ctl top binfmt options-doc; do
    grep -qx "   $cmd" "$tmp/asymu.txt" || fail "asymu(1) lacks the command $cmd"
done
echo "asymu(1): $n options, 7 commands"
MANWIDTH=80 man -l "$src/man/asymu-scenario.5" 2>/dev/null |
    sed -n '/^EXAMPLE/,/^SEE ALSO/p' | sed '1d;$d;s/^       //' > "$tmp/example.yaml"
for policy in upstream kill; do
    "$asymu" replay --policy $policy "$tmp/example.yaml" || fail "the example under $policy"
done
