#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# control-top.sh ASYMU GUEST_DIR - `asymu top` (docs/control.md) in a tmux
# pane of its own tmux server, read with capture-pane: the vCPU rows (32-bit
# ones marked), the task rows, the kernel log, redrawn as `asymu ctl` takes
# cpu3 offline and holds a task, and its end when the machine ends.
set -u
asymu=$1 guest_dir=$2
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d)
sock=$dir/control.sock
tmux="tmux -L asymu-top-test-$$ -f /dev/null"
cleanup() {
    $tmux kill-server 2>/dev/null
    [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
ctl() { "$asymu" ctl "$sock" "$@" >/dev/null; }
pane() { $tmux capture-pane -p -t top; }
# wait_pane TEXT: until a line of the pane is TEXT (exactly), or 20 s;
# prints how many lines are. wait_re REGEX: the same for an extended regex.
wait_lines() {
    i=0
    while ! pane | grep -q "$@" && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    pane | grep -c "$@"
}
wait_pane() { wait_lines -xF -- "$1"; }
wait_re() { wait_lines -E -- "$1"; }

"$asymu" run --control "$sock" --cpus 8 --aarch32 0-3 -- "$guest_dir/control-workload-aarch64" \
    "$guest_dir/control-workload-armhf" >"$dir/out" 2>"$dir/err" &
pid=$!
i=0
until "$asymu" ctl "$sock" ps 2>/dev/null | grep -qF '"name":"wl-?-child"' || [ $i -ge 300 ]; do
    sleep 0.1
    i=$((i + 1))
done
ctl stop
$tmux new-session -d -s top -x 100 -y 40 \
    "'$asymu' top '$sock' --interval 50; echo top-status \$?; sleep 60"
check "header" 1 "$(wait_re "^asymu top  $sock  machine stopped  virtual time 0\.[0-9]{6} s$")"
check "column heads" 1 "$(wait_pane "CPU    STATE    ISA     CURRENT  RUNQ  CLOCK")"
check "cpu3: 32-bit, never ran" 1 "$(wait_pane "cpu3   online   32-bit  -        0     0.000000 s")"
check "cpu4: 64-bit" 1 "$(wait_pane "cpu4   online   64-bit  -        0     0.000000 s")"
check "cpu1 runs the 32-bit task" 1 "$(wait_re '^cpu1   online   32-bit  2        1     0\.[0-9]{6} s$')"
check "the 64-bit task" 1 "$(wait_pane "1      1      aarch64  runnable  0    0-7       -         control-workloa")"
check "the 32-bit task, its mask and saved mask" 1 \
    "$(wait_pane "2      2      aarch32  runnable  1    0-3       0-7       wl-?-child")"
check "the boot's log line" 1 "$(wait_re '^\[    0\.000000\] CPU features: Asymmetric 32-bit EL0 support detected on CPU 4; CPU hot-unplug disable$')"

ctl offline 3
check "cpu3 offline" 1 "$(wait_pane "cpu3   offline  32-bit  -        0     0.000000 s")"
check "the shutdown's log line" 1 "$(wait_re '^\[    0\.[0-9]{6}\] psci: CPU3 killed \(polled 0 ms\)$')"
ctl stop 2
check "a held task" 1 "$(wait_pane "2      2      aarch32  stopped   1    0-3       0-7       wl-?-child (held)")"

ctl signal 2 SIGUSR1
ctl cont 2
ctl cont
wait $pid
check "the run's status" 0 $?
pid=
check "the run's output" "child: SIGUSR1 (32-bit)
parent: child exited with 0 (64-bit)" "$(cat "$dir/out")"
check "top's end" 1 "$(wait_pane "asymu top: the machine behind $sock has ended")"
check "top's status" 1 "$(wait_pane "top-status 0")"
checks_done control-top
