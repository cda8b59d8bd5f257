# SPDX-License-Identifier: GPL-2.0-or-later
# text.sh FILE - filters on FILE in busybox sh: sort -u, uniq -c, tr, grep,
# cut, head and tail in pipelines.
# shellcheck shell=sh
f=$1
echo "-- sort -r -u | head -3"
sort -r -u "$f" | head -3
echo "-- sort | uniq -c"
sort "$f" | uniq -c
echo "-- tr | head -2"
tr "[:lower:]" "[:upper:]" <"$f" | head -2
echo "-- grep -c an"
grep -c an "$f"
echo "-- cut -c1-3 | tail -2"
cut -c1-3 "$f" | tail -2
echo "-- line and word counts in a pipeline"
# shellcheck disable=SC2002 # the pipe is the point
cat "$f" | wc -l -w
