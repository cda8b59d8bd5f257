# SPDX-License-Identifier: GPL-2.0-or-later
# loops.sh - while, until, for, case, arithmetic and read in busybox sh.
# shellcheck shell=sh
i=0
total=0
while [ "$i" -lt 10 ]; do
    i=$((i + 1))
    total=$((total + i))
done
echo "while: i $i total $total"
for w in alpha beta gamma; do
    printf '%s-' "$w"
done
echo
n=3
until [ "$n" -eq 0 ]; do
    printf '%d ' "$n"
    n=$((n - 1))
done
echo liftoff
for f in a.c b.h c.txt; do
    case $f in
    *.c) echo "$f: source" ;;
    *.h) echo "$f: header" ;;
    *) echo "$f: other" ;;
    esac
done
seq 3 | while read -r x; do
    echo "read line $x"
done
echo "nested: $(for a in 1 2; do for b in x y; do printf '%s%s ' "$a" "$b"; done; done)"
