# SPDX-License-Identifier: GPL-2.0-or-later
# subshells.sh - subshells, command substitution, grouping, functions,
# background jobs and exit statuses in busybox sh.
# Subshell scoping and nested substitutions are the point here:
# shellcheck shell=sh disable=SC2030,SC2031,SC2116
x=outer
(x=inner; echo "in subshell: $x")
echo "after subshell: $x"
echo "command substitution: $(echo nested "$(echo deeper)")"
(exit 3)
echo "subshell status $?"
(cd / && pwd)
{ echo grouped; echo output; } | wc -l
(sleep 1; echo late) &
echo early
wait
echo "background status $?"
sh -c 'exit 5'
echo "child shell status $?"
f() {
    echo "function got $# args: $*"
    return 4
}
f one two
echo "function status $?"
false || echo "or after false"
true && echo "and after true"
! true
echo "negated status $?"
