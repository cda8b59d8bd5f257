#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# madvise.sh ASYMU GUEST - MADV_DONTNEED releases host memory: the guest
# (madvise.c) maps 1 GiB, writes two pages and drops the whole mapping;
# asymu's peak host RSS stays far below 1 GiB (it reached 1 GiB when the
# call zeroed the range by hand), and the guest's output is exact.
set -u
asymu=$1 guest=$2
. "$(dirname "$0")/check.sh"
out=$(mktemp)
trap 'rm -f "$out" "$out.rss"' EXIT
/usr/bin/time -f %M -o "$out.rss" "$asymu" run -- "$guest" >"$out"
check "guest exit status" 0 $?
check "guest output" "before: 90 7
madvise 1 page: 0
after: 0 7
madvise 1 GiB: 0
after all: 0
unaligned: EINVAL" "$(cat "$out")"
rss=$(tail -n 1 "$out.rss")
check "peak host RSS under 256 MiB (was $rss KiB)" yes "$([ "$rss" -lt 262144 ] && echo yes || echo no)"
checks_done madvise
