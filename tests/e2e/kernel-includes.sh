#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel-includes.sh SOURCE: the kernel layer (emu/kernel/) includes no
# header of emu/tools/ (the control socket, the gdb stub, recording,
# scripting) and names no gdb stub function nor the machine's stub
# (`gdbstub_*`, `->gdb`): it reaches the debuggers through stop_hooks.h
# alone (docs/structure.md, issue 25 item 1). The machine loop's slice
# (emu/machine/run.c) asks them through stop_hooks.h too: it names no gdb
# stub function nor the machine's stub and none of ptrace's slice calls (ptrace_hold,
# ptrace_single_step, ptrace_step_done). Each pattern is first checked to
# find a planted name, so that a broken pattern cannot pass unseen.
# shellcheck source=self-check.sh
. "$(dirname "$0")/self-check.sh"
cd "$1" || exit 1
tools=$(cd emu/tools && ls *.h | sed 's/\./\\./g' | paste -sd '|')
files=$(ls emu/kernel/*.c emu/kernel/*.h | wc -l)
[ -n "$tools" ] && [ "$files" -gt 0 ] || { echo "no emu/tools/ headers or no emu/kernel/ files"; exit 1; }
[ -f emu/machine/run.c ] || { echo "no emu/machine/run.c"; exit 1; }
kernel_names='gdbstub_[A-Za-z_]|->gdb\b'
run_names='gdbstub_[A-Za-z_]|->gdb\b|\bptrace_(hold|single_step|step_done)\b'

self_check "$kernel_names" '    if (stop_hooks_block(m))' \
    '    gdbstub_before_slice(t);' '    struct gdbstub *gs = t->machine->gdb;'
self_check "$run_names" '    if (stop_hooks_hold_task(t) || ptrace_stopped(t))' \
    '    gdbstub_after_slice(t);' '    m->watch_blocks = step || m->gdb;' '    if (ptrace_hold(t))' \
    '    bool step = ptrace_single_step(t);' '        ptrace_step_done(t);'

bad=0
if grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($tools)[\">]" emu/kernel/*.c emu/kernel/*.h; then
    echo "the kernel layer includes a header of emu/tools/ (above)"
    bad=1
fi
if grep -nE "$kernel_names" emu/kernel/*.c emu/kernel/*.h; then
    echo "the kernel layer names the gdb stub (above): call it through stop_hooks.h"
    bad=1
fi
if grep -nE "$run_names" emu/machine/run.c; then
    echo "the machine loop names a debugger's slice call (above): call it through stop_hooks.h"
    bad=1
fi
echo "$files kernel files and emu/machine/run.c checked against $(echo "$tools" | tr '|' '\n' | wc -l) emu/tools/ headers"
[ "$bad" -eq 0 ]
