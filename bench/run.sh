#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - builds the guest workloads and raw-unicorn into BUILD/bench with the
# cross compilers, then times every workload x ISA under asymu, qemu-user and
# (freestanding store loops only) raw Unicorn, and prints one table of
# medians, ratios and issue 14's targets (bench/report.py, which also writes
# the JSON and SVG of the run into bench/results/). The real programs (gzip,
# xz, bzip2, sqlite3, python3.11) come from the Debian 12 guest roots in
# BUILD/conformance (docs/conformance.md). Speed is reported here, never
# asserted anywhere.
#
# Usage: bench/run.sh [BUILD]     BUILD: asymu's build directory (default: build)
# Environment: BENCH_RUNS   runs per cell (default 3; the median is reported)
#              BENCH_ONLY   "switch": only the per-switch check comparison;
#                           "scale": only the scale section (issue 10);
#                           workload names ("store-raw gzip"): only those
#                           rows of the main table. The main table is the
#                           default; switch and scale run only when named.
#              BENCH_SMOKE  1: every workload once, tiny, under asymu only
#                           (tests/bench/smoke.cmake: the script cannot rot)
#              BENCH_RESULTS directory for the run's JSON and SVG (default
#                           bench/results; OUT/smoke with BENCH_SMOKE)
#              BENCH_OUT    where the binaries, inputs, samples and logs go
#                           (OUT, default BUILD/bench)
#              BENCH_CPU    host CPU every run is pinned to with taskset (default:
#                           the last one), or "none". asymu runs the whole machine
#                           on one host thread; pinning gives qemu-user the same
#                           single CPU, so its pipe and yield partners really
#                           switch, and removes a bimodal cross-CPU wake-up cost
#                           (pingpong under qemu-user took 0.6 s or 6-8 s
#                           unpinned on a 2-CPU VM, depending on placement).
# shellcheck disable=SC2086 # flag lists and runner lists are split on purpose
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
ASYMU=$BUILD/asymu
OUT=${BENCH_OUT:-$BUILD/bench}
LOGS=$OUT/logs
RUNS=${BENCH_RUNS:-3}
CPU=${BENCH_CPU:-$(($(nproc) - 1))}
GNU_TIME=/usr/bin/time # GNU time, for CPU seconds; optional
# The commit measured, taken now: the tree may change while the run goes on.
COMMIT=$(git -C "$ROOT" describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)

# Iteration counts, chosen so every cell runs long enough (>= ~0.15 s) that
# process start-up is noise, except the start-up rows themselves. One round
# of the main table takes about 5 minutes of CPU on this 2-core machine, most
# of it in the compressors.
STORE_N=200000000 # store-loop.h iterations (built into the store-raw binaries)
GETPID_N=5000000
PINGPONG_N=200000
YIELD_N=1000000
SPAWN_N=200
FORK_N=2000
HELLO_REPS=50          # hello runs per sample: one start is ~10 ms, CPU time ticks in 10 ms
INPUT_BYTES=20000000   # the compressors' input (bench/gen-input.py)
SQLITE_N=50000         # INSERTs (bench/sqlite-workload.awk)
PYLOOP_N=100000        # rounds of bench/pyloop.py
CHURN_N=1000           # threads alive at once
IDLE_N=20000           # round trips of idle.c ...
IDLE_K=1000            # ... with this many idle threads around
HOGS_N=20000000        # rounds of each of hogs.c's 16 threads
SMOKE=${BENCH_SMOKE:-}
if [ -n "$SMOKE" ]; then
    RUNS=1 STORE_N=1000000 GETPID_N=1000 PINGPONG_N=100 YIELD_N=100 SPAWN_N=2 FORK_N=10
    HELLO_REPS=1 INPUT_BYTES=65536 SQLITE_N=500 PYLOOP_N=100 CHURN_N=10 IDLE_N=100 IDLE_K=10
    HOGS_N=10000
fi
RESULTS=${BENCH_RESULTS:-}
[ -n "$RESULTS" ] || if [ -n "$SMOKE" ]; then RESULTS=$OUT/smoke; else RESULTS=$ROOT/bench/results; fi

say() { printf 'bench: %s\n' "$*" >&2; }
die() {
    say "$*"
    exit 1
}
need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found; $2"; }

need aarch64-linux-gnu-gcc "install gcc-aarch64-linux-gnu (./scripts/bootstrap does)"
need arm-linux-gnueabihf-gcc "install gcc-arm-linux-gnueabihf (./scripts/bootstrap does)"
if [ -z "$SMOKE" ]; then
    need qemu-aarch64 "install qemu-user (./scripts/bootstrap does)"
    need qemu-arm "install qemu-user (./scripts/bootstrap does)"
fi
need cc "install build-essential"
need python3 "install python3 (it writes the input, the report, the JSON and the SVG)"
for isa in arm64 armhf; do
    [ -x "$BUILD/conformance/root-$isa/usr/bin/xz" ] ||
        die "$BUILD/conformance/root-$isa lacks xz; build the guest roots (make conformance, docs/conformance.md)"
done
[ -x "$ASYMU" ] || die "$ASYMU not found; build asymu first (make build)"
case $RUNS in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive integer, not '$RUNS'" ;; esac
if [ "$CPU" != none ]; then
    need taskset "install util-linux, or set BENCH_CPU=none to run unpinned"
    case $CPU in '' | *[!0-9]*) die "BENCH_CPU must be a CPU number or none, not '$CPU'" ;; esac
    taskset -c "$CPU" true 2>/dev/null || die "cannot pin to CPU $CPU (BENCH_CPU); try another or none"
fi
"$GNU_TIME" -f '%U %S' -o /dev/null true 2>/dev/null || GNU_TIME=

cross_cc() { if [ "$1" = aarch64 ]; then echo aarch64-linux-gnu-gcc; else echo arm-linux-gnueabihf-gcc; fi; }
qemu_for() { if [ "$1" = aarch64 ]; then echo qemu-aarch64; else echo qemu-arm; fi; }
cross_libs() { if [ "$1" = aarch64 ]; then echo /usr/aarch64-linux-gnu; else echo /usr/arm-linux-gnueabihf; fi; }
guest_root() { if [ "$1" = aarch64 ]; then echo "$BUILD/conformance/root-arm64"; else echo "$BUILD/conformance/root-armhf"; fi; }

# --- build ------------------------------------------------------------------

mkdir -p "$OUT" "$LOGS"
rm -f "$LOGS"/*.log "$LOGS"/*.cpu "$LOGS"/*.sum
say "building guest workloads and raw-unicorn in $OUT"
GUEST_FLAGS="-O2 -static -Wall -Wextra -Werror"
FREE_FLAGS="-O2 -static -nostdlib -ffreestanding -fno-stack-protector -Wall -Wextra -Werror"
# compile OUT CC FLAGS... SOURCES...: only when OUT is missing or older than
# run.sh or a bench/ source (the flags and iteration counts live in run.sh).
compile() {
    out=$1
    shift
    if [ -e "$out" ] && [ -z "$(find "$ROOT/bench" -newer "$out" \( -name '*.[ch]' -o -name run.sh \) | head -n1)" ]; then
        return 0
    fi
    "$@" -o "$out"
}
# The smoke run's store loops are shorter: their own binaries.
STORE_TAG=
[ -z "$SMOKE" ] || STORE_TAG=-smoke
for isa in aarch64 armhf; do
    gcc=$(cross_cc $isa)
    for p in store getpid pingpong spawn tiny fork; do
        compile "$OUT/$p-$isa" $gcc $GUEST_FLAGS "$ROOT/bench/$p.c"
    done
    compile "$OUT/hello-static-$isa" $gcc $GUEST_FLAGS "$ROOT/bench/hello.c"
    compile "$OUT/hello-dynamic-$isa" $gcc -O2 -Wall -Wextra -Werror "$ROOT/bench/hello.c"
    for p in yield idle churn hogs; do
        compile "$OUT/$p-$isa" $gcc $GUEST_FLAGS -pthread "$ROOT/bench/$p.c"
    done
    compile "$OUT/store-raw$STORE_TAG-$isa" $gcc $FREE_FLAGS -DSTORE_ITERS=${STORE_N}ul "$ROOT/bench/store-raw.c"
    compile "$OUT/store-hot$STORE_TAG-$isa" $gcc $FREE_FLAGS -DSTORE_ITERS=${STORE_N}ul -DSTORE_WORDS=4096u \
        "$ROOT/bench/store-raw.c"
done
UC_LIBS=$(pkg-config --libs unicorn 2>/dev/null || echo -lunicorn)
UC_CFLAGS=$(pkg-config --cflags unicorn 2>/dev/null || true)
compile "$OUT/raw-unicorn" cc -std=gnu17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror $UC_CFLAGS -I "$ROOT/loader" \
    "$ROOT/bench/raw-unicorn.c" "$ROOT/loader/elf.c" $UC_LIBS
# The real programs' inputs, the same bytes on every machine.
INPUT=$OUT/input-$INPUT_BYTES.bin
[ -s "$INPUT" ] || python3 "$ROOT/bench/gen-input.py" "$INPUT" "$INPUT_BYTES"
SQL=$OUT/sqlite-$SQLITE_N.sql
[ -s "$SQL" ] || awk -v n="$SQLITE_N" -f "$ROOT/bench/sqlite-workload.awk" >"$SQL"
PYLOOP=$(cat "$ROOT/bench/pyloop.py")
# qemu-user's sqlite3 database: a host directory on the file system of the
# private /tmp asymu gives its guest (TMPDIR), removed at exit.
QEMU_TMP=$(mktemp -d "${TMPDIR:-/tmp}/asymu-bench-XXXXXX")
trap 'rm -rf "$QEMU_TMP"' EXIT

# --- running ----------------------------------------------------------------

# measured CPUFILE CMD...: runs CMD pinned (unless BENCH_CPU=none), writing its
# user and system seconds to CPUFILE when GNU time is there.
measured() {
    cpufile=$1
    shift
    [ "$CPU" = none ] || set -- taskset -c "$CPU" "$@"
    [ -z "$GNU_TIME" ] || set -- "$GNU_TIME" -f '%U %S' -o "$cpufile" "$@"
    "$@"
}

# The environment of the real programs (the conformance runs' own), under
# both runners: nothing of the host's leaks into them.
GUEST_ENV="PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1"
# A sanitized asymu (the smoke test in make test's second suite) needs its options.
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
    eval "val=\${$v:-}"
    [ -z "$val" ] || GUEST_ENV="$GUEST_ENV $v=$val"
done

# invoke CPUFILE RUNNER WORKLOAD ISA: runs one workload once in the foreground,
# its stdin the workload's input (or /dev/null), its stdout the caller's.
# spawn runs under asymu with --sysroot BUILD/bench so /tiny-ISA resolves even
# when BUILD is under /tmp (the guest's /tmp is private); under qemu-user the
# child execs qemu itself with the program, as binfmt_misc would (this host
# has no binfmt_misc, so a bare exec of a foreign ELF would fail). The real
# programs run from the guest root: asymu with --sysroot ROOT, qemu-user
# with -L ROOT, both in ROOT with GUEST_ENV; hello-dynamic finds the cross
# compiler's glibc through -L under both.
invoke() {
    cpufile=$1 runner=$2 w=$3 i=$4
    q=$(qemu_for "$i")
    root=$(guest_root "$i")
    input=/dev/null reps=1 where=plain
    case $w in
    store) set -- "$OUT/store-$i" $STORE_N ;;
    store-raw | store-hot) set -- "$OUT/$w$STORE_TAG-$i" ;;
    getpid) set -- "$OUT/getpid-$i" $GETPID_N ;;
    pingpong) set -- "$OUT/pingpong-$i" $PINGPONG_N ;;
    yield) set -- "$OUT/yield-$i" $YIELD_N ;;
    fork) set -- "$OUT/fork-$i" $FORK_N ;;
    spawn)
        case $runner in
        asymu) where=spawn; set -- "$OUT/spawn-$i" $SPAWN_N "/tiny-$i" ;;
        *) set -- "$OUT/spawn-$i" $SPAWN_N "$(command -v "$q")" "$OUT/tiny-$i" ;;
        esac
        ;;
    hello-static) reps=$HELLO_REPS; set -- "$OUT/hello-static-$i" ;;
    hello-dynamic) reps=$HELLO_REPS where=libs; set -- "$OUT/hello-dynamic-$i" ;;
    churn) set -- "$OUT/churn-$i" $CHURN_N ;;
    hogs) set -- "$OUT/hogs-$i" $HOGS_N 16 ;;
    idle) set -- "$OUT/idle-$i" $IDLE_N $IDLE_K threads ;;
    gzip) input=$INPUT where=root; set -- "$root/bin/gzip" -6 -n -c ;;
    xz) input=$INPUT where=root; set -- "$root/usr/bin/xz" -1 -T1 -c ;;
    bzip2) input=$INPUT where=root; set -- "$root/bin/bzip2" -9 -c ;;
    sqlite)
        # asymu's guest gets a fresh private /tmp every run.
        db=/tmp/bench.db
        if [ "$runner" != asymu ]; then
            db=$QEMU_TMP/bench-$i.db
            rm -f "$db" "$db-journal"
        fi
        input=$SQL where=root
        set -- "$root/usr/bin/sqlite3" -batch -init /dev/null "$db"
        ;;
    py-start-S) where=root; set -- "$root/usr/bin/python3.11" -S -c pass ;;
    py-start) where=root; set -- "$root/usr/bin/python3.11" -c pass ;;
    py-loop) where=root; set -- "$root/usr/bin/python3.11" -S -c "$PYLOOP" $PYLOOP_N ;;
    esac
    case $runner in
    asymu)
        case $where in
        plain) set -- "$ASYMU" run -- "$@" ;;
        spawn) set -- "$ASYMU" run --sysroot "$OUT" -- "$@" ;;
        libs) set -- "$ASYMU" run -L "$(cross_libs "$i")" -- "$@" ;;
        root) set -- env -i $GUEST_ENV "$ASYMU" run --sysroot "$root" -- "$@" ;;
        esac
        ;;
    qemu)
        case $where in
        libs) set -- "$q" -L "$(cross_libs "$i")" "$@" ;;
        root) set -- env -i $GUEST_ENV "$q" -L "$root" "$@" ;;
        *) set -- "$q" "$@" ;;
        esac
        ;;
    raw) set -- "$OUT/raw-unicorn" "$@" ;;
    raw-b) set -- "$OUT/raw-unicorn" -b "$@" ;;
    esac
    if [ "$reps" -gt 1 ]; then
        # shellcheck disable=SC2016 # expanded by the inner sh
        set -- sh -c 'n=$1; shift; while [ "$n" -gt 0 ]; do "$@" || exit; n=$((n - 1)); done' \
            repeat "$reps" "$@"
    fi
    if [ "$where" = root ]; then
        (cd "$root" && measured "$cpufile" "$@" <"$input")
    else
        measured "$cpufile" "$@" <"$input"
    fi
}

# timed LOG RUNNER WORKLOAD ISA: one run with its output in LOG; sets T_RC,
# T_NS (wall time) and T_CPU (user + system ns, or "-" without GNU time).
timed() {
    log=$1
    shift
    t0=$(date +%s%N)
    if invoke "$log.cpu" "$@" >"$log" 2>&1; then T_RC=0; else T_RC=$?; fi
    t1=$(date +%s%N)
    T_NS=$((t1 - t0))
    case $2 in gzip | xz | bzip2)
        # Megabytes of compressed output: keep its checksum only.
        cksum <"$log" >"$log.sum"
        mv "$log.sum" "$log"
        ;;
    esac
    T_CPU=-
    if [ -n "$GNU_TIME" ]; then
        T_CPU=$(tail -n1 "$log.cpu" | awk '{ printf "%.0f", ($1 + $2) * 1e9 }')
    fi
}

# output_checked WORKLOAD: whether every runner must print the same (a sum,
# a checksum of the compressed bytes, query results).
output_checked() {
    case $1 in store | hello-* | hogs | gzip | xz | bzip2 | sqlite | py-*) return 0 ;; esac
    return 1
}

median() { printf '%s\n' "$@" | sort -n | sed -n "$(((RUNS + 1) / 2))p"; }

# cell WORKLOAD ISA RUNNERS...: RUNS rounds, the runners interleaved in each
# round so a noisy moment hits all of them; prints "runner wall_ns cpu_ns"
# medians, one line per runner. Every runner must end as qemu-user (the first)
# does: status 0 for glibc workloads, the same folded sum for the
# freestanding ones, the same output where output_checked; else the
# benchmark stops.
cell() {
    w=$1 i=$2
    shift 2
    for r in "$@"; do eval "wall_$(echo "$r" | tr - _)= cpu_$(echo "$r" | tr - _)="; done
    n=1
    while [ $n -le "$RUNS" ]; do
        ref=
        for r in "$@"; do
            log=$LOGS/$w-$i-$r-$n.log
            timed "$log" "$r" "$w" "$i"
            if [ -z "$ref" ]; then
                ref=$T_RC ref_log=$log
                if [ "$T_RC" -ne 0 ] && [ "$w" != store-raw ] && [ "$w" != store-hot ]; then
                    die "$w ($i) under $r exited $T_RC; see $log"
                fi
            elif [ "$T_RC" -ne "$ref" ]; then
                die "$w ($i) under $r exited $T_RC, under $1 $ref; see $log"
            elif output_checked "$w" && ! cmp -s "$log" "$ref_log"; then
                die "$w ($i) printed other output under $r than under $1; see $log and $ref_log"
            fi
            echo "$w $i $r $n $T_NS $T_CPU" >>"$SAMPLES"
            v=$(echo "$r" | tr - _)
            eval "wall_$v=\"\$wall_$v $T_NS\" cpu_$v=\"\$cpu_$v $T_CPU\""
        done
        n=$((n + 1))
    done
    for r in "$@"; do
        v=$(echo "$r" | tr - _)
        eval "set -- \$wall_$v"
        wall=$(median "$@")
        eval "set -- \$cpu_$v"
        echo "$r $wall $(median "$@")"
    done
}

# get RUNNER FIELD < cell output: that runner's median (2 wall, 3 CPU), or "-".
get() { awk -v r="$1" -v f="$2" '$1 == r { print $f; ok = 1 } END { if (!ok) print "-" }'; }

HOOK=$OUT/hook.txt       # workload isa raw raw-b asymu (CPU ns)
SAMPLES=$OUT/samples.txt # every run: workload isa runner round wall_ns cpu_ns
: >"$HOOK"
: >"$SAMPLES"
start=$(date +%s)
# The order of the table; bench/report.py knows each row's target.
WORKLOADS="store store-raw store-hot getpid pingpong yield fork spawn hello-static hello-dynamic
           churn idle hogs gzip xz bzip2 sqlite py-start-S py-start py-loop"
case ${BENCH_ONLY:-} in
'') ;;
switch | scale) WORKLOADS= ;;
*)
    for w in $BENCH_ONLY; do
        case " $(echo $WORKLOADS) " in
        *" $w "*) ;;
        *) die "BENCH_ONLY: no workload '$w' (of: $(echo $WORKLOADS))" ;;
        esac
    done
    WORKLOADS=$BENCH_ONLY
    ;;
esac
for w in $WORKLOADS; do
    for i in aarch64 armhf; do
        case $w in
        store-raw | store-hot) runners="qemu asymu raw raw-b" ;;
        *) runners="qemu asymu" ;;
        esac
        [ -z "$SMOKE" ] || runners=asymu
        say "$w ($i): $RUNS x $runners"
        res=$(cell "$w" "$i" $runners)
        case $runners in *raw-b*)
            echo "$w $i $(echo "$res" | get raw 3) $(echo "$res" | get raw-b 3)" \
                "$(echo "$res" | get asymu 3)" >>"$HOOK"
            ;;
        esac
    done
done

# --- the per-switch check (spec K3) ------------------------------------------
# The same yield workload under asymu and under asymu built with the check
# compiled out (-DASYMU_SWITCH_CHECK=OFF): 64-bit threads (the fast path: one
# predictable branch) and 32-bit threads on a mismatched machine under the
# fixup policy (the O(1) bit test against M on every switch).
SWITCH=$OUT/switch.txt # isa check nocheck (wall ns)
: >"$SWITCH"
SWITCH_RUNS=$((RUNS > 7 ? RUNS : 7))
# Both take long (switch builds asymu a second time; scale starts 10,000
# idle processes): they run only when BENCH_ONLY names them.
case ${BENCH_ONLY:-} in switch) SWITCH_PART=yes ;; *) SWITCH_PART= ;; esac
case ${BENCH_ONLY:-} in scale) SCALE_PART=yes ;; *) SCALE_PART= ;; esac
if [ -n "$SWITCH_PART" ]; then
    NOCHECK=$OUT/nocheck
    say "building asymu without the per-switch check in $NOCHECK"
    cmake -S "$ROOT" -B "$NOCHECK" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DASYMU_SWITCH_CHECK=OFF >"$LOGS/nocheck-configure.log" 2>&1 ||
        die "configuring the no-check build failed; see $LOGS/nocheck-configure.log"
    cmake --build "$NOCHECK" --target asymu >"$LOGS/nocheck-build.log" 2>&1 ||
        die "building the no-check asymu failed; see $LOGS/nocheck-build.log"
    for i in aarch64 armhf; do
        for build in check nocheck; do
            if [ $build = check ]; then bin=$ASYMU; else bin=$NOCHECK/asymu; fi
            samples=
            n=1
            # Wall nanoseconds, pinned: CPU seconds tick in 10 ms, too coarse here.
            while [ $n -le "$SWITCH_RUNS" ]; do
                log=$LOGS/switch-$i-$build-$n.log
                t0=$(date +%s%N)
                measured "$log.cpu" "$bin" run --policy fixup --cpus 8 --aarch32 0-3 -- \
                    "$OUT/yield-$i" $YIELD_N >"$log" 2>&1 || die "switch ($i, $build) failed; see $log"
                t1=$(date +%s%N)
                samples="$samples $((t1 - t0))"
                n=$((n + 1))
            done
            eval "sw_$build=\$(RUNS=$SWITCH_RUNS median $samples)"
        done
        echo "$i $sw_check $sw_nocheck" >>"$SWITCH"
    done
fi

# --- scale (issue 10): thread churn, switches among idle tasks, memory ------
# aarch64 only. churn N: N threads alive at once, then joined. idle N K MODE:
# N pipe round trips between two processes with K idle threads (sleeping) or
# processes (blocked in read) around; the cost of a round trip is
# (wall(N) - wall(0)) / N, so starting the idle tasks does not count. The
# memory of an idle process: asymu's peak RSS with K idle processes over K
# (qemu-user runs each guest process as a host process: its peak RSS is one
# process's).
SCALE=$OUT/scale.txt # kind K asymu qemu
SCALE_THREADS=${SCALE_THREADS:-1000 4000}
SCALE_IDLE=${SCALE_IDLE:-0 10 100 1000 10000}
# qemu-user runs each guest process as a host process of several MB: beyond
# this many idle processes only asymu runs (its column alone is printed).
SCALE_QEMU_PROCS_MAX=${SCALE_QEMU_PROCS_MAX:-1000}
SCALE_N=100000
: >"$SCALE"
# scale_run RUNNER ARGS...: median wall ns in S_WALL, median peak RSS (KiB,
# "-" without GNU time) in S_RSS.
scale_run() {
    runner=$1
    shift
    tag=$(echo "$*" | tr ' /' '__')
    if [ "$runner" = asymu ]; then
        set -- "$ASYMU" run --max-procs 30000 -- "$@" # 10,000 idle processes and more
    else
        set -- qemu-aarch64 "$@"
    fi
    walls= rsss=
    run=1
    while [ $run -le "$RUNS" ]; do
        log=$LOGS/scale-$runner-$tag-$run.log
        t0=$(date +%s%N)
        if [ -n "$GNU_TIME" ]; then
            measured "$log.cpu" "$GNU_TIME" -f %M -o "$log.rss" "$@" >"$log" 2>&1 ||
                die "scale: $* failed; see $log"
            rsss="$rsss $(tail -n 1 "$log.rss")"
        else
            measured "$log.cpu" "$@" >"$log" 2>&1 || die "scale: $* failed; see $log"
            rsss="$rsss -"
        fi
        t1=$(date +%s%N)
        walls="$walls $((t1 - t0))"
        run=$((run + 1))
    done
    S_WALL=$(median $walls)
    S_RSS=$(median $rsss)
}
if [ -n "$SCALE_PART" ]; then
    for n in $SCALE_THREADS; do
        say "scale: churn $n threads"
        scale_run asymu "$OUT/churn-aarch64" "$n"
        a=$S_WALL
        scale_run qemu "$OUT/churn-aarch64" "$n"
        echo "churn $n $a $S_WALL" >>"$SCALE"
    done
    for mode in threads procs both; do
        for k in $SCALE_IDLE; do
            say "scale: round trips with $k idle $mode"
            runners="asymu qemu" sw_qemu=- rss_qemu=-
            [ $mode != threads ] && [ "$k" -gt "$SCALE_QEMU_PROCS_MAX" ] && runners=asymu
            for r in $runners; do
                scale_run $r "$OUT/idle-aarch64" 0 "$k" $mode
                w0=$S_WALL rss=$S_RSS
                scale_run $r "$OUT/idle-aarch64" $SCALE_N "$k" $mode
                eval "sw_$r=\$(((S_WALL - w0) / SCALE_N)) rss_$r=\$rss"
            done
            echo "switch-$mode $k $sw_asymu $sw_qemu" >>"$SCALE"
            [ $mode = procs ] && [ "$k" -gt 0 ] && [ "$rss_asymu" != - ] &&
                echo "memory $k $((rss_asymu / k)) $rss_qemu" >>"$SCALE"
        done
    done
fi
elapsed=$(($(date +%s) - start))

# --- report -----------------------------------------------------------------

report() {
    echo "asymu benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs:" \
        "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
    "$ASYMU" --version
    [ -n "$SMOKE" ] || qemu-aarch64 --version | head -n1
    if [ "$CPU" = none ]; then where=unpinned; else where="pinned to host CPU $CPU"; fi
    echo "median of $RUNS runs, CPU seconds (user + system) of the whole process" \
        "(wall without GNU time), $where; raw = bare Unicorn (bench/raw-unicorn.c)"
    echo
    if [ -s "$SAMPLES" ]; then
        smoke=
        [ -z "$SMOKE" ] || smoke=--smoke
        python3 "$ROOT/bench/report.py" --samples "$SAMPLES" --results "$RESULTS" \
            --asymu "$ASYMU" --runs "$RUNS" --pinned "$CPU" --commit "$COMMIT" $smoke --count fork=$FORK_N ||
            die "bench/report.py failed"
        echo
    fi
    if [ -n "$GNU_TIME" ] && [ -s "$HOOK" ]; then
        echo "asymu over raw Unicorn, in CPU seconds (user + system; steadier than wall" \
            "time when the host is shared):"
        awk '
            BEGIN { printf "%-10s %-8s %8s %11s %8s %10s %11s %11s\n", "workload", "isa",
                           "raw s", "raw+hook s", "asymu s", "asymu/raw", "hook cost",
                           "rest" }
            { printf "%-10s %-8s %8.2f %11.2f %8.2f %10.2f %10.1f%% %10.1f%%\n", $1, $2,
                     $3 / 1e9, $4 / 1e9, $5 / 1e9, $5 / $3, 100 * ($4 - $3) / $3,
                     100 * ($5 - $4) / $3 }
        ' "$HOOK"
        echo "(raw+hook: raw-unicorn -b, the UC_HOOK_BLOCK slice counter asymu installs;" \
            "hook cost and rest are % of raw s)"
        echo
    fi
    if [ -s "$SWITCH" ]; then
        echo "the per-switch check (K3): yield, 2 threads x $YIELD_N, --policy fixup" \
            "--cpus 8 --aarch32 0-3; aarch64 = 64-bit tasks (fast path), armhf = 32-bit" \
            "tasks (bit test against M); median of $SWITCH_RUNS runs, wall seconds"
        awk -v n=$((2 * YIELD_N)) '
            BEGIN { printf "%-8s %10s %10s %12s %10s\n", "isa", "check s", "nocheck s",
                           "ns/switch", "cost" }
            { printf "%-8s %10.3f %10.3f %12.1f %9.2f%%\n", $1, $2 / 1e9, $3 / 1e9,
                     ($2 - $3) / n, 100 * ($2 - $3) / $3 }
        ' "$SWITCH"
        echo "(target: under 2%; a negative cost is noise)"
        echo
    fi
    if [ -e "$LOGS/yield-armhf-qemu-$RUNS.log" ]; then
        printf 'yield: yields after which the other thread had progressed (last round, of %s):' \
            $((2 * YIELD_N))
        for i in aarch64 armhf; do
            for r in asymu qemu; do
                printf ' %s %s %s;' "$r" "$i" "$(sed -n 's/.*progressed after \([0-9]*\).*/\1/p' \
                    "$LOGS/yield-$i-$r-$RUNS.log")"
            done
        done
        echo
    fi
    if [ -s "$SCALE" ]; then
        echo "scale (aarch64, issue 10): churn = N threads alive at once then joined, wall" \
            "seconds; switch-MODE = ns per pipe round trip with K idle threads, processes or" \
            "K of each (both)" \
            "($SCALE_N round trips, creation excluded); memory = asymu's peak RSS over K idle" \
            "processes, and one qemu-user process's peak RSS, KiB"
        awk '
            BEGIN { printf "%-15s %6s %12s %12s %11s\n", "kind", "N or K", "asymu", "qemu",
                           "asymu/qemu" }
            { a = $3; q = $4; u = $1 == "churn" ? " s" : $1 == "memory" ? " KiB" : " ns"
              if ($1 == "churn") { a = sprintf("%.3f", a / 1e9); if (q != "-") q = sprintf("%.3f", q / 1e9) }
              ratio = q == "-" || q <= 0 ? "-" : sprintf("%.2f", $3 / $4)
              printf "%-15s %6s %12s %12s %11s\n", $1, $2, a u, (q == "-" ? q : q u), ratio }
        ' "$SCALE"
        echo
    fi
    echo "counts: store $STORE_N iterations; getpid $GETPID_N calls; pingpong $PINGPONG_N" \
        "round trips; yield 2 threads x $YIELD_N; fork $FORK_N fork+_exit+wait; spawn" \
        "$SPAWN_N fork+exec+wait; hello $HELLO_REPS starts per sample; churn $CHURN_N threads; hogs 16 threads x $HOGS_N rounds;" \
        "idle $IDLE_N round trips with $IDLE_K idle threads; gzip -6, xz -1 -T1, bzip2 -9 of" \
        "$INPUT_BYTES bytes; sqlite $SQLITE_N INSERTs; py-loop $PYLOOP_N rounds"
    echo "took ${elapsed}s; every sample in $SAMPLES, every run's output in $LOGS"
}
report | tee "$OUT/results.txt"
