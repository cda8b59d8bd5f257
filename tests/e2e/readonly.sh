#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# readonly.sh ASYMU GUEST EXPECTED_DIR - no guest call changes a host file on
# a read-only place (docs/security.md): descriptor and path calls on a file
# of a --sysroot without --rw, and on a host /tmp file the guest sees through
# its private /tmp, fail with Linux's errno (GUEST prints them, compared with
# EXPECTED_DIR/readonly-*.out) and the host file keeps its mode, mtime, size
# and directory; with --rw the same descriptor calls change it.
set -u
asymu=$1 guest=$2 expected=$3
. "$(dirname "$0")/check.sh"
work=$(mktemp -d)
hosttmp=$(mktemp -d /tmp/asymu-readonly-XXXXXX)
trap 'rm -rf "$work" "$hosttmp"' EXIT
export TMPDIR="$work"
# A file with a known mode, mtime and size.
make_file() {
    printf hello > "$1"
    chmod 0644 "$1"
    touch -d @1000000000 "$1"
}
facts() { stat -c '%a %Y %s' "$1"; }
run() { # expected-file asymu-options...
    exp=$1
    shift
    "$asymu" run --check-invariants "$@" >"$work/out" 2>"$work/err"
    check "$* exits 0" 0 $?
    if ! cmp -s "$expected/$exp" "$work/out"; then
        echo "FAIL: $*: stdout differs from $exp:"
        diff "$expected/$exp" "$work/out"
        fail=$((fail + 1))
    fi
}

mkdir -p "$work/root/data"
make_file "$work/root/data/file"
run readonly-fd.out --sysroot "$work/root" -- "$guest" fd /data/file
check "sysroot file unchanged by descriptor calls" "644 1000000000 5" "$(facts "$work/root/data/file")"
run readonly-dir.out --sysroot "$work/root" -- "$guest" dir /data
check "sysroot file unchanged by path calls" "644 1000000000 5" "$(facts "$work/root/data/file")"
check "sysroot directory unchanged" "file" "$(ls -A "$work/root/data")"

make_file "$hosttmp/file"
run readonly-fd.out -- "$guest" fd "$hosttmp/file"
check "host /tmp file (the private /tmp's fallback) unchanged" "644 1000000000 5" \
    "$(facts "$hosttmp/file")"

run readonly-rw.out --rw --sysroot "$work/root" -- "$guest" rw /data/file
check "with --rw the descriptor calls change the file" "640 2000 100" \
    "$(facts "$work/root/data/file")"
checks_done readonly
