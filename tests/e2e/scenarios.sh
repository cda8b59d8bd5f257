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
#   hostile CASE             a scenario made in a fresh directory (issue 24 item
#                            9): replay exits 2 at once with the exact message
#                            (symlink, fifo, big, total, tasks, deep, size;
#                            issue 30: args, argbytes, env)
#   many-args                20,000 arguments (issue 30): PASS, peak RSS and
#                            time bounded (GNU time)
#   compare FILE P EXPECT S  compare --policies P: stdout equal to EXPECT,
#                            exit status S
#   anywhere                 busy-mixed under kill and programs.yaml with their
#                            programs in asymu's build and in two directories of
#                            other path lengths ($ASYMU_PROGRAMS): the same
#                            output and report, byte for byte
set -u
asymu=$1
junit_check=$(cd "$(dirname "$0")" && pwd)/check-junit.py
cd "$2" || exit 1
mode=$3
unset ASYMU_PROGRAMS
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
hostile)
    # Each case writes s.yaml (and what it names) in $tmp/d and says what
    # replay must answer; run from there, so the messages name s.yaml.
    mkdir "$tmp/d" && cd "$tmp/d" || fail "cd"
    task='tasks:
  - name: a
    path: hello-aarch64'
    case $1 in
    symlink) # a link inside the directory that leads out of it
        ln -s /etc/passwd passwd
        printf 'files:\n  - name: p\n    from: passwd\n%s\n' "$task" > s.yaml
        want="s.yaml:3:11: expected a file in the scenario's directory, found 'passwd' (outside it: copy the file there)" ;;
    fifo) # not a regular file: opened without waiting for a writer
        mkfifo pipe
        printf 'files:\n  - name: p\n    from: pipe\n%s\n' "$task" > s.yaml
        want="s.yaml:3:11: expected a regular file, found 'pipe' (a FIFO)" ;;
    big) # one byte past 16 MiB (sparse: nothing is written)
        truncate -s 16777217 big
        printf 'files:\n  - name: b\n    from: big\n%s\n' "$task" > s.yaml
        want="s.yaml:3:11: expected a file of at most 16 MiB, found 'big' (16777217 bytes)" ;;
    total) # four files of 16 MiB fill the 64 MiB; the fifth is refused
        truncate -s 16M big
        { echo 'files:'
          for i in 1 2 3 4 5; do printf '  - name: b%s\n    from: big\n' $i; done
          echo "$task"; } > s.yaml
        want="s.yaml:11:11: expected at most 64 MiB of files in all, found more with this one" ;;
    tasks) # 4097 tasks (the 20,000 of the issue took 8 GB)
        { echo 'tasks:'
          i=0
          while [ $i -le 4096 ]; do printf '  - {name: t%s, path: hello-aarch64}\n' $i; i=$((i + 1)); done
        } > s.yaml
        want="s.yaml:4098:5: expected at most 4096 tasks, found more" ;;
    deep) # 100,000 levels: refused at the 65th, in well under a second
        python3 -c 'import sys; sys.stdout.write("tasks: " + "[" * 100000 + "]" * 100000 + "\n")' > s.yaml
        want="s.yaml:1:71: expected at most 64 levels of nesting, found more" ;;
    args) # issue 30: 65,536 strings in argv, as the guest's execve takes
        python3 -c 'print("tasks:\n  - name: a\n    path: args-aarch64\n    args: [" + ",".join(["a"] * 65536) + "]")' > s.yaml
        want="s.yaml:4:131082: expected at most 65536 arguments, argv[0] included, in a task (as execve takes), found more" ;;
    argbytes) # issue 30: 2 MiB of strings and pointers, as execve takes
        python3 -c 'print("tasks:\n  - name: a\n    path: args-aarch64\n    args: [" + ",".join(["a" * 1000] * 2100) + "]")' > s.yaml
        want="s.yaml:4:2080090: expected at most 2 MiB of arguments and environment in a task (strings and 8-byte pointers, as execve takes), found more" ;;
    env) # issue 30: 65,536 environment variables
        python3 -c 'print("tasks:\n  - name: a\n    path: args-aarch64\n    env: {" + ",".join("V%d: x" % i for i in range(65537)) + "}")' > s.yaml
        want="s.yaml:4:644261: expected at most 65536 environment variables in a task (as execve takes), found more" ;;
    size) # the scenario itself: at most 4 MiB
        { echo "$task"; printf '# '; } > s.yaml
        truncate -s 4194305 s.yaml
        want="s.yaml:1:1: expected a readable scenario file: larger than 4 MiB" ;;
    *)
        fail "unknown case $1" ;;
    esac
    start=$(date +%s%N)
    timeout 20 "$asymu" replay s.yaml > "$tmp/out" 2> "$tmp/err"
    status=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$want" > "$tmp/want"
    diff -u "$tmp/want" "$tmp/err" || fail "message differs"
    [ ! -s "$tmp/out" ] || fail "stdout not empty"
    [ $status -eq 2 ] || fail "exit status $status, expected 2"
    [ $ms -lt 5000 ] || fail "took $ms ms"
    ;;
many-args)
    # Issue 30: a task of 20,000 arguments is read in linear time and memory
    # (one new array per argument took 14 s and 1.6 GB) and runs: the guest
    # sees every argument. GNU time gives the peak RSS of replay and of its
    # scenario-exec child (the largest of them).
    mkdir "$tmp/d" && cd "$tmp/d" || fail "cd"
    python3 -c '
n = 20000
print("tasks:\n  - name: a\n    path: args-aarch64\n    args:")
for i in range(n):
    print("      - arg%d" % i)
print("expect:\n  - task: a\n    exit: 0\n    stdout_contains: \"argc %d\\nargv[0] \\\"/.asymu/programs/args-aarch64\\\"\\nargv[1] \\\"arg0\\\"\\n\"" % (n + 1))
print("  - task: a\n    stdout_contains: \"argv[20000] \\\"arg19999\\\"\\nargv[argc] NULL\\n\"")' > s.yaml
    start=$(date +%s%N)
    /usr/bin/time -o "$tmp/time" -f '%M' timeout 60 "$asymu" replay s.yaml > "$tmp/out" 2> "$tmp/err"
    status=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    kb=$(cat "$tmp/time")
    echo "peak RSS $kb KiB, $ms ms"
    printf 'PASS s.yaml (upstream)\n1 passed, 0 failed\n' > "$tmp/want"
    diff -u "$tmp/want" "$tmp/out" || { cat "$tmp/err"; fail "output differs"; }
    [ $status -eq 0 ] || fail "exit status $status, expected 0"
    [ "$kb" -lt 150000 ] || fail "peak RSS $kb KiB, expected under 150,000"
    [ $ms -lt 20000 ] || fail "took $ms ms"
    ;;
compare)
    # asymu compare FILE --policies P: stdout equal to the file EXPECT
    "$asymu" compare --policies "$2" "$1" > "$tmp/out"
    status=$?
    diff -u "$3" "$tmp/out" || fail "output differs"
    [ $status -eq "$4" ] || fail "exit status $status, expected $4"
    ;;
anywhere)
    build=$(dirname "$asymu")
    short=$(mktemp -d /tmp/p.XXXXXX)
    long=$(mktemp -d /tmp/asymu-programs-in-a-directory-with-a-much-longer-path.XXXXXX)
    trap 'rm -rf "$tmp" "$short" "$long"' EXIT
    for dir in "$short" "$long/deeper/still"; do
        mkdir -p "$dir"
        cp "$build"/examples/pingpong-* "$build"/tests/guest/args-* \
            "$build"/tests/guest/sysfs-read-aarch64 "$dir/"
    done
    i=0
    for programs in "" "$short" "$long/deeper/still"; do
        i=$((i + 1))
        ASYMU_PROGRAMS=$programs
        [ -n "$programs" ] && export ASYMU_PROGRAMS
        "$asymu" replay --all-expectations --policy kill --report "$tmp/report$i.json" \
            examples/scenarios/busy-mixed.yaml tests/e2e/scenarios/programs.yaml > "$tmp/out$i"
        [ $? -eq 1 ] || fail "exit status of run $i (busy-mixed fails under kill)"
        unset ASYMU_PROGRAMS
    done
    for i in 2 3; do
        cmp "$tmp/out1" "$tmp/out$i" || fail "output of run $i differs"
        cmp "$tmp/report1.json" "$tmp/report$i.json" || fail "report of run $i differs"
    done
    grep -q '^PASS tests/e2e/scenarios/programs.yaml (kill)$' "$tmp/out1" || fail "programs.yaml"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
