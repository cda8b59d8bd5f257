#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# e2e-coverage-map (a coverage-map build only, tests/sanitize/README.md):
# with ASYMU_COVERAGE_DIR, a run of asymu leaves one map, asymu.<its pid>.map,
# of one byte per guard, each 0 or 1, the same size for every run, and more
# guards reached by a run that does more; without it, no file.
set -eu
asymu=$1
guest=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$dir/none" "$dir/version" "$dir/run"
(cd "$dir/none" && env -u ASYMU_COVERAGE_DIR "$asymu" --version > /dev/null)
ASYMU_COVERAGE_DIR="$dir/version" "$asymu" --version > /dev/null &
pid=$!
wait $pid
[ -f "$dir/version/asymu.$pid.map" ] || fail "no asymu.$pid.map: $(ls "$dir/version")"
[ "$(ls "$dir/version" | wc -l)" = 1 ] || fail "more than one map: $(ls "$dir/version")"
ASYMU_COVERAGE_DIR="$dir/run" "$asymu" run -- "$guest" 0 > /dev/null
[ "$(ls "$dir/none" | wc -l)" = 0 ] || fail "a map without ASYMU_COVERAGE_DIR"
# one byte per guard, 0 or 1; the counts of 1
python3 - "$dir/version"/asymu.*.map "$dir/run"/asymu.*.map <<'PY' || fail "maps"
import sys
maps = [open(p, "rb").read() for p in sys.argv[1:]]
sizes = {len(m) for m in maps}
assert len(sizes) == 1 and sizes.pop() > 1000, [len(m) for m in maps]
assert all(set(m) <= {0, 1} for m in maps), "a byte other than 0 and 1"
version = maps[0].count(1)
run = max(m.count(1) for m in maps[1:])
assert 0 < version < run, (version, run)
PY
echo "coverage maps as expected"
