#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
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
#   shard-auto               --shard auto from each CI's variables (issue 30):
#                            the exact scenarios run, or the exact error
#   merge                    report merge of 2 and 3 shards: the unsplit run's
#                            report and JUnit file, byte for byte; its errors
#   many-args                20,000 arguments (issue 30): PASS, peak RSS and
#                            time bounded (GNU time)
#   compare FILE P EXPECT S  compare --policies P: stdout equal to EXPECT,
#                            exit status S
#   rtapp-exact FILE EXPECT  an rt-app file's threads, tasks and end as the
#                            outcome has them: equal to EXPECT
#   rtapp-broken             each rt-app file of scenarios/rtapp/broken: exit
#                            2 and the exact message of its .err file
#   anywhere                 busy-mixed under kill and programs.yaml with their
#                            programs in asymu's build and in two directories of
#                            other path lengths ($ASYMU_PROGRAMS): the same
#                            output and report, byte for byte
set -u
asymu=$1
# The sanitizer build's options (LeakSanitizer's suppressions) and the
# coverage map's directory (tests/sanitize/) survive env -i.
SAN_KEEP=
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS ASYMU_COVERAGE_DIR; do
    eval "val=\${$v-}"
    [ -z "$val" ] || SAN_KEEP="$SAN_KEEP $v=$val"
done
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
            examples/scenarios/*.json > "$tmp/replay$i" || fail "replay run $i"
        for f in examples/scenarios/*.yaml examples/scenarios/*.json; do
            "$asymu" compare "$f" >> "$tmp/compare$i" || fail "compare $f run $i"
        done
    done
    cmp "$tmp/report1.json" "$tmp/report2.json" || fail "reports differ"
    cmp "$tmp/replay1" "$tmp/replay2" || fail "replay outputs differ"
    cmp "$tmp/compare1" "$tmp/compare2" || fail "compare outputs differ"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; assert len(r) == 12, len(r); \
assert all(set(t) >= {"pid","name","isa","exit" if "exit" in t else "signal","affinity","kills"} \
for x in r for t in x["tasks"]), r' "$tmp/report1.json" || fail "report fields"
    ;;
counts)
    # Seven of the examples, the short ones (every example is replayed by
    # e2e-scenario-determinism and under each policy above).
    set -- article-execve compat-setaffinity fork-inheritance generations partial-overlap \
        saved-mask-chain hotplug-last-32bit
    files=
    for f in "$@"; do files="$files examples/scenarios/$f.yaml"; done
    [ "$("$asymu" replay --jobs 2 $files | tail -1)" = "7 passed, 0 failed" ] ||
        fail "--jobs 2"
    [ "$("$asymu" replay --shard 1/2 $files | tail -1)" = "4 passed, 0 failed" ] ||
        fail "--shard 1/2"
    [ "$("$asymu" replay --shard 2/2 $files | tail -1)" = "3 passed, 0 failed" ] ||
        fail "--shard 2/2"
    "$asymu" replay --jobs 2 $files tests/e2e/scenarios/failing.yaml > "$tmp/out"
    [ $? -eq 1 ] || fail "a failing run exits 1"
    [ "$(tail -1 "$tmp/out")" = "7 passed, 1 failed" ] || fail "failing counts: $(tail -1 "$tmp/out")"
    ;;
junit)
    "$asymu" replay --jobs 2 --junit "$tmp/junit.xml" examples/scenarios/*.yaml \
        tests/e2e/scenarios/failing.yaml > /dev/null
    python3 "$junit_check" "$tmp/junit.xml" 12 1 || fail "JUnit file"
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
rtapp-exact)
    # Issue 30: rt-app file FILE run unchanged; its threads (comm, number of
    # wake-ups, migrations) and end time as the outcome gives them equal the
    # file EXPECT (one line per thread, then the end), under upstream.
    "$asymu" scenario-exec "$1" upstream > "$tmp/outcome" || fail "scenario-exec"
    python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))
for t in o["threads"]: print(t["comm"], len(t["wakeup_latency_ns"]), t["migrations"], sum(t["run_ns"]) > 0)
for t in o["tasks"]: print(t["name"], t.get("exit"), t["cpus_used"])
print(o["machine"], o["end_ns"])' "$tmp/outcome" > "$tmp/out"
    diff -u "$2" "$tmp/out" || fail "threads differ"
    ;;
actions)
    # Issue 30 (second edition): scenario FILE's actions as the outcome
    # gives them (what, first time, how many times, error), one a line,
    # then the machine's end, equal to the file EXPECT, under upstream.
    "$asymu" scenario-exec "$1" upstream > "$tmp/outcome" || fail "scenario-exec"
    python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))
for a in o["actions"]: print(a["what"], a["at_ns"], a["fires"], a["error"])
print(o["machine"], o["end_ns"])' "$tmp/outcome" > "$tmp/out"
    diff -u "$2" "$tmp/out" || fail "actions differ"
    ;;
rtapp-broken)
    # Issue 30: each rt-app file of tests/e2e/scenarios/rtapp/broken is
    # refused (exit 2, nothing on stdout) with the message of its .err file.
    for f in tests/e2e/scenarios/rtapp/broken/*.json; do
        "$asymu" replay "$f" > "$tmp/out" 2> "$tmp/err"
        status=$?
        diff -u "${f%.json}.err" "$tmp/err" || fail "$f: message differs"
        [ ! -s "$tmp/out" ] || fail "$f: stdout not empty"
        [ $status -eq 2 ] || fail "$f: exit status $status, expected 2"
    done
    ;;
compare)
    # asymu compare FILE --policies P: stdout equal to the file EXPECT
    "$asymu" compare --policies "$2" "$1" > "$tmp/out"
    status=$?
    diff -u "$3" "$tmp/out" || fail "output differs"
    [ $status -eq "$4" ] || fail "exit status $status, expected $4"
    ;;
shard-auto)
    # Issue 30: --shard auto takes the slice from each CI's variables (in an
    # environment of these alone: the test may itself run in a CI), the
    # scenarios it runs exactly these; or refuses, naming the variables.
    # Each case: VARIABLES|FILES RUN (of shard/*.yaml)|STATUS|STDERR
    dir=tests/e2e/scenarios/shard
    while IFS='|' read -r vars files want_status want_err; do
        [ -n "$vars" ] || continue
        env -i PATH="$PATH" $SAN_KEEP $vars "$asymu" replay --shard auto $dir/*.yaml \
            > "$tmp/out" 2> "$tmp/err"
        status=$?
        : > "$tmp/want"
        passed=0 failed=0
        for f in $files; do
            if [ "$f" = c ]; then
                printf 'FAIL %s/c.yaml (upstream)\n%s/c.yaml:13: expected task c to exit with status 1, got exit status 0\n' $dir $dir >> "$tmp/want"
                failed=$((failed + 1))
            else
                printf 'PASS %s/%s.yaml (upstream)\n' $dir "$f" >> "$tmp/want"
                passed=$((passed + 1))
            fi
        done
        [ -n "$files" ] && echo "$passed passed, $failed failed" >> "$tmp/want"
        diff -u "$tmp/want" "$tmp/out" || fail "$vars: output differs"
        echo "$want_err" > "$tmp/wanterr"
        diff -u "$tmp/wanterr" "$tmp/err" || fail "$vars: stderr differs"
        [ $status -eq "$want_status" ] || fail "$vars: exit status $status, expected $want_status"
    done <<EOF
CI_NODE_INDEX=2 CI_NODE_TOTAL=3|b e|0|asymu replay: --shard auto: 2/3 from GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=3)
CI_NODE_TOTAL=1|a b c d e|1|asymu replay: --shard auto: 1/1 from GitLab CI (CI_NODE_TOTAL=1)
JOB_COMPLETION_INDEX=0 ASYMU_SHARD_TOTAL=2|a c e|1|asymu replay: --shard auto: 1/2 from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=0, ASYMU_SHARD_TOTAL=2)
SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=4|b d|0|asymu replay: --shard auto: 2/2 from a Slurm array (SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_COUNT=2)
SLURM_ARRAY_TASK_ID=8 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=4|c|1|asymu replay: --shard auto: 3/3 from a Slurm array (SLURM_ARRAY_TASK_ID=8, SLURM_ARRAY_TASK_COUNT=3)
CIRCLE_NODE_INDEX=1 CIRCLE_NODE_TOTAL=2|b d|0|asymu replay: --shard auto: 2/2 from CircleCI (CIRCLE_NODE_INDEX=1, CIRCLE_NODE_TOTAL=2)
BUILDKITE_PARALLEL_JOB=2 BUILDKITE_PARALLEL_JOB_COUNT=3|c|1|asymu replay: --shard auto: 3/3 from Buildkite (BUILDKITE_PARALLEL_JOB=2, BUILDKITE_PARALLEL_JOB_COUNT=3)
CI_NODE_TOTAL=1 CIRCLE_NODE_INDEX=0 CIRCLE_NODE_TOTAL=2|a c e|1|asymu replay: --shard auto: 1/2 from CircleCI (CIRCLE_NODE_INDEX=0, CIRCLE_NODE_TOTAL=2)
ASYMU_SHARD_TOTAL=2||2|asymu replay: --shard auto: found no shard in the environment: expected CI_NODE_INDEX and CI_NODE_TOTAL (GitLab CI), JOB_COMPLETION_INDEX and ASYMU_SHARD_TOTAL (a Kubernetes Indexed Job), SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm array), CIRCLE_NODE_INDEX and CIRCLE_NODE_TOTAL (CircleCI), or BUILDKITE_PARALLEL_JOB and BUILDKITE_PARALLEL_JOB_COUNT (Buildkite); or give --shard I/N
CI_NODE_INDEX=1 CI_NODE_TOTAL=2 SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2||2|asymu replay: --shard auto: found the variables of GitLab CI (CI_NODE_INDEX) and of a Slurm array (SLURM_ARRAY_TASK_ID): give --shard I/N
CI_NODE_INDEX=4 CI_NODE_TOTAL=3||2|asymu replay: --shard auto: GitLab CI's CI_NODE_INDEX=4 is not a shard of CI_NODE_TOTAL=3 (expected 1 to 3)
CI_NODE_INDEX=0 CI_NODE_TOTAL=3||2|asymu replay: --shard auto: GitLab CI's CI_NODE_INDEX=0 is not a shard of CI_NODE_TOTAL=3 (expected 1 to 3)
CI_NODE_TOTAL=4||2|asymu replay: --shard auto: GitLab CI's CI_NODE_TOTAL=4 without CI_NODE_INDEX
JOB_COMPLETION_INDEX=1||2|asymu replay: --shard auto: a Kubernetes Indexed Job's JOB_COMPLETION_INDEX=1 without ASYMU_SHARD_TOTAL (set it in the Job's spec to its completions)
CIRCLE_NODE_INDEX=0 CIRCLE_NODE_TOTAL=x||2|asymu replay: --shard auto: CircleCI's CIRCLE_NODE_TOTAL='x' is not a number from 1 to 100000
BUILDKITE_PARALLEL_JOB=-1 BUILDKITE_PARALLEL_JOB_COUNT=2||2|asymu replay: --shard auto: Buildkite's BUILDKITE_PARALLEL_JOB='-1' is not a number from 0 to 4000000000
SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=2||2|asymu replay: --shard auto: a Slurm array's SLURM_ARRAY_TASK_ID=3 is not one of the 4 ids from SLURM_ARRAY_TASK_MIN=0 by SLURM_ARRAY_TASK_STEP=2 (SLURM_ARRAY_TASK_COUNT=4)
SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=1||2|asymu replay: --shard auto: a Slurm array's SLURM_ARRAY_TASK_ID=0 is not one of the 2 ids from SLURM_ARRAY_TASK_MIN=1 by SLURM_ARRAY_TASK_STEP=1 (SLURM_ARRAY_TASK_COUNT=2)
EOF
    ;;
merge)
    # Issue 30: the reports (and JUnit files) of a run split in 2 and in 3
    # shards, merged, are the unsplit run's byte for byte; merge refuses
    # what is not one run's shards, with the exact message and status 2.
    dir=tests/e2e/scenarios/shard
    run() { # STATUS OUT VARIABLES [OPTIONS]: replay with a report and a JUnit file
        want=$1 out=$2 vars=$3
        shift 3
        env -i PATH="$PATH" $SAN_KEEP $vars "$asymu" replay "$@" --report "$tmp/$out.json" \
            --junit "$tmp/$out.xml" $dir/*.yaml > /dev/null 2>&1
        [ $? -eq "$want" ] || fail "replay $out: exit status, expected $want (c.yaml fails)"
    }
    run 1 all ""
    run 1 gl1 "CI_NODE_INDEX=1 CI_NODE_TOTAL=2" --shard auto
    run 0 gl2 "CI_NODE_INDEX=2 CI_NODE_TOTAL=2" --shard auto
    for i in 0 1 2; do
        env -i PATH="$PATH" $SAN_KEEP JOB_COMPLETION_INDEX=$i ASYMU_SHARD_TOTAL=3 "$asymu" replay \
            --shard auto --jobs 2 --report "$tmp/k$i.json" $dir/*.yaml > /dev/null 2>&1
    done
    "$asymu" report merge "$tmp/m2.json" --junit "$tmp/m2.xml" "$tmp/gl2.json" "$tmp/gl1.json" ||
        fail "merge of 2 shards"
    cmp "$tmp/all.json" "$tmp/m2.json" || fail "2 shards: the merged report differs"
    cmp "$tmp/all.xml" "$tmp/m2.xml" || fail "2 shards: the merged JUnit file differs"
    "$asymu" report merge "$tmp/m3.json" "$tmp/k2.json" "$tmp/k0.json" "$tmp/k1.json" ||
        fail "merge of 3 shards"
    cmp "$tmp/all.json" "$tmp/m3.json" || fail "3 shards: the merged report differs"
    # The errors: each a line on stderr, status 2, no OUT written.
    "$asymu" replay --policy kill --shard 2/2 --report "$tmp/kill2.json" $dir/*.yaml > /dev/null
    "$asymu" replay --shard 2/2 --report "$tmp/few2.json" $dir/a.yaml $dir/b.yaml > /dev/null
    sed 's/"asymu": "[^"]*"/"asymu": "0.0.0-other"/' "$tmp/gl2.json" > "$tmp/old2.json"
    version=$(sed -n 's/^  "asymu": "\(.*\)",$/\1/p' "$tmp/gl1.json")
    echo '[]' > "$tmp/list.json"
    t=$tmp
    while IFS='|' read -r args want; do
        rm -f "$tmp/out.json"
        # shellcheck disable=SC2086 # args are words
        "$asymu" report $args > "$tmp/out" 2> "$tmp/err"
        status=$?
        printf '%b\n' "$want" > "$tmp/want" # usage's second line after a \n
        diff -u "$tmp/want" "$tmp/err" || fail "report $args: stderr differs"
        [ $status -eq 2 ] || fail "report $args: exit status $status, expected 2"
        [ ! -e "$tmp/out.json" ] || fail "report $args: wrote OUT"
    done <<EOF
merge $t/out.json $t/gl1.json $t/gl1.json|asymu report merge: $t/gl1.json and $t/gl1.json are both shard 1/2: give each shard's report once
merge $t/out.json $t/gl1.json|asymu report merge: shard 2/2 is missing: give the report of every shard (1/2 to 2/2)
merge $t/out.json $t/gl1.json $t/k1.json|asymu report merge: $t/gl1.json is shard 1/2 and $t/k1.json shard 2/3: merge the shards of one --shard I/N
merge $t/out.json $t/gl1.json $t/few2.json|asymu report merge: $t/gl1.json and $t/few2.json ran different scenario sets (other FILEs, or FILEs changed): merge the shards of one run
merge $t/out.json $t/gl1.json $t/old2.json|asymu report merge: $t/gl1.json and $t/old2.json were made by different asymu versions ("$version", "0.0.0-other"): merge the shards of one run
merge $t/out.json $t/gl1.json $t/kill2.json|asymu report merge: $t/gl1.json and $t/kill2.json ran with different --policy or --all-expectations (policy null, "kill"): merge the shards of one run
merge $t/out.json $t/list.json|asymu report merge: $t/list.json: expected a report of asymu replay --report (an object with asymu, set, files, policy, all_expectations, shard and results), found a list (a report of an asymu before report merge?)
merge $t/out.json $t/none.json|asymu report merge: $t/none.json: expected a report of asymu replay --report: unable to open $t/none.json: No such file or directory
merge $t/out.json|asymu report: expected OUT.json and the shards' reports\nusage: asymu report merge OUT.json [--junit OUT.xml] SHARD.json...
frob|asymu report: frob: cannot open: No such file or directory
EOF
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
