#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# host-rss.sh LIMIT_KB LINE COMMAND...: runs COMMAND under GNU time
# (scripts/bootstrap installs it), prints its output, and passes when it
# exits 0, prints a line that starts with LINE (when LINE is not empty) and its peak
# resident memory stays under LIMIT_KB kB.
limit=$1 line=$2
shift 2
out=$(/usr/bin/time -f 'maxrss %M' "$@" 2>&1)
status=$?
echo "$out"
[ "$status" -eq 0 ] || { echo "host-rss: exit status $status"; exit 1; }
if [ -n "$line" ] && ! printf '%s\n' "$out" | awk -v p="$line" 'index($0, p) == 1 { f = 1 } END { exit !f }'; then
    echo "host-rss: no line '$line'"
    exit 1
fi
kb=$(printf '%s\n' "$out" | sed -n 's/^maxrss //p')
[ -n "$kb" ] || { echo "host-rss: GNU time printed no peak"; exit 1; }
[ "$kb" -lt "$limit" ] || { echo "host-rss: peak $kb kB, limit $limit kB"; exit 1; }
