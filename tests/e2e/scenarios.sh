#!/bin/sh
# scenarios.sh ASYMU SRC MODE ARGS... - end-to-end tests of `asymu replay`
# and `asymu compare` (tests/e2e/scenarios.cmake). Runs from SRC so the
# scenario paths printed are the repository's (examples/scenarios/X.yaml).
#   pass FILE POLICY         replay under POLICY: exit 0, exact PASS output
#   fail FILE POLICY EXPECT  replay --all-expectations under POLICY: exit 1,
#                            stdout equal to the file EXPECT
#   broken FILE              replay: exit 2, nothing on stdout, stderr equal
#                            to the file's first line after "# error: "
#   determinism              every example twice (--jobs 2, --report, and
#                            compare): byte-identical
#   counts                   --jobs 2 and --shard 1/2, 2/2 summaries
#   junit                    the JUnit file of a run with failures
set -u
asymu=$1
junit_check=$(cd "$(dirname "$0")" && pwd)/check-junit.py
cd "$2" || exit 1
mode=$3
unset ASYMU_PROGRAMS
shift 3
tmp=$(mktemp -d)
# The scenarios' programs are run from a copy in a directory whose path has
# the same length on every machine and in every build: a task sees its
# program's path (argv[0], AT_EXECFN), and that length moves virtual time
# (docs/scenarios.md, "Determinism"). The broken kinds keep asymu's search.
progs=$(mktemp -d /tmp/asymu-programs.XXXXXX)
trap 'rm -rf "$tmp" "$progs"' EXIT
build=$(dirname "$asymu")
for name in $(grep -ho 'path: [a-z0-9-]*\|{{[a-z0-9-]*}}' examples/scenarios/*.yaml \
                  tests/e2e/scenarios/*.yaml | sed 's/path: //; s/[{}]//g' | sort -u); do
    for dir in "$build/tests/guest" "$build/examples"; do
        [ -f "$dir/$name" ] && cp "$dir/$name" "$progs/"
    done
done
[ "$mode" = broken ] || export ASYMU_PROGRAMS="$progs"
fail() { echo "FAIL: $*"; exit 1; }

case $mode in
pass)
    "$asymu" replay --policy "$2" "$1" > "$tmp/out"
    status=$?
    printf 'PASS %s (%s)\n1 passed, 0 failed\n' "$1" "$2" > "$tmp/want"
    diff -u "$tmp/want" "$tmp/out" || fail "output differs"
    [ $status -eq 0 ] || fail "exit status $status, expected 0"
    ;;
fail)
    "$asymu" replay --all-expectations --policy "$2" "$1" > "$tmp/out"
    status=$?
    diff -u "$3" "$tmp/out" || fail "output differs"
    [ $status -eq 1 ] || fail "exit status $status, expected 1"
    ;;
broken)
    "$asymu" replay "$1" > "$tmp/out" 2> "$tmp/err"
    status=$?
    sed -n '1s/^# error: //p' "$1" > "$tmp/want"
    diff -u "$tmp/want" "$tmp/err" || fail "message differs"
    [ ! -s "$tmp/out" ] || fail "stdout not empty"
    [ $status -eq 2 ] || fail "exit status $status, expected 2"
    ;;
determinism)
    for i in 1 2; do
        "$asymu" replay --jobs 2 --report "$tmp/report$i.json" examples/scenarios/*.yaml \
            > "$tmp/replay$i" || fail "replay run $i"
        for f in examples/scenarios/*.yaml; do
            "$asymu" compare "$f" >> "$tmp/compare$i" || fail "compare $f run $i"
        done
    done
    cmp "$tmp/report1.json" "$tmp/report2.json" || fail "reports differ"
    cmp "$tmp/replay1" "$tmp/replay2" || fail "replay outputs differ"
    cmp "$tmp/compare1" "$tmp/compare2" || fail "compare outputs differ"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r) == 8, len(r); \
assert all(set(t) >= {"pid","name","isa","exit" if "exit" in t else "signal","affinity","kills"} \
for x in r for t in x["tasks"]), r' "$tmp/report1.json" || fail "report fields"
    ;;
counts)
    n=$(ls examples/scenarios/*.yaml | wc -l)
    [ "$("$asymu" replay --jobs 2 examples/scenarios/*.yaml | tail -1)" = "$n passed, 0 failed" ] ||
        fail "--jobs 2"
    [ "$("$asymu" replay --shard 1/2 examples/scenarios/*.yaml | tail -1)" = "4 passed, 0 failed" ] ||
        fail "--shard 1/2"
    [ "$("$asymu" replay --shard 2/2 examples/scenarios/*.yaml | tail -1)" = "4 passed, 0 failed" ] ||
        fail "--shard 2/2"
    "$asymu" replay --jobs 2 examples/scenarios/*.yaml tests/e2e/scenarios/failing.yaml \
        > "$tmp/out"
    [ $? -eq 1 ] || fail "a failing run exits 1"
    [ "$(tail -1 "$tmp/out")" = "$n passed, 1 failed" ] || fail "failing counts: $(tail -1 "$tmp/out")"
    ;;
junit)
    "$asymu" replay --jobs 2 --junit "$tmp/junit.xml" examples/scenarios/*.yaml \
        tests/e2e/scenarios/failing.yaml > /dev/null
    python3 "$junit_check" "$tmp/junit.xml" 9 1 || fail "JUnit file"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
