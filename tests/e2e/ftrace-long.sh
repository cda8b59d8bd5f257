#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ftrace-long.sh ASYMU GUEST - an --trace-format ftrace trace long enough
# that asymu's qsort of its lines (trace/trace_ftrace.c) takes glibc's
# slow branch (1 KiB or more: about 40 lines), which asks the host for
# sysinfo(2) once the emulator is confined (issue 24, item 3: the sandbox
# refused it, asymu exited 70 and left the trace file empty). The threads
# guest's producer and consumer switch thousands of times.
set -u
asymu=$1 guest=$2
. "$(dirname "$0")/check.sh"
trace=$(mktemp)
trap 'rm -f "$trace" "$trace.err"' EXIT
"$asymu" run --cpus 4 --trace "$trace" --trace-format ftrace -- "$guest" prodcons >/dev/null 2>"$trace.err"
check "status" "0" "$?"
check "stderr" "" "$(cat "$trace.err")"
check "first line" "# tracer: nop" "$(head -1 "$trace")"
lines=$(wc -l <"$trace")
# Perfetto's systrace importer rules and 5.15's formats (ftrace_check.py),
# the time order among them
check "ftrace_check" "ftrace_check: 1 file(s), ok" "$(/usr/bin/python3 "$(dirname "$0")/ftrace_check.py" "$trace" | tail -1)"
check "more than 1000 lines" "yes" "$([ "$lines" -gt 1000 ] && echo yes || echo "no: $lines")"
# sorted by time: the timestamp column never goes back
check "in time order" "yes" "$(grep -v '^#' "$trace" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; if (t < last) bad = 1; last = t; break } } END { print bad ? "no" : "yes" }')"
checks_done ftrace-long
