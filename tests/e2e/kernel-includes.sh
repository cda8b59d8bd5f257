#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kernel-includes.sh SOURCE: the kernel layer (emu/kernel/) includes no
# header of emu/tools/ (the control socket, the gdb stub, recording,
# scripting) and names no gdb stub function nor the machine's stub
# (`gdbstub_*`, `->gdb`): it reaches the debuggers through stop_hooks.h
# alone (docs/structure.md, issue 25 item 1).
cd "$1" || exit 1
tools=$(cd emu/tools && ls *.h | sed 's/\./\\./g' | paste -sd '|')
files=$(ls emu/kernel/*.c emu/kernel/*.h | wc -l)
[ -n "$tools" ] && [ "$files" -gt 0 ] || { echo "no emu/tools/ headers or no emu/kernel/ files"; exit 1; }
bad=0
if grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($tools)[\">]" emu/kernel/*.c emu/kernel/*.h; then
    echo "the kernel layer includes a header of emu/tools/ (above)"
    bad=1
fi
if grep -nE 'gdbstub_[A-Za-z_]|->gdb\b' emu/kernel/*.c emu/kernel/*.h; then
    echo "the kernel layer names the gdb stub (above): call it through stop_hooks.h"
    bad=1
fi
echo "$files kernel files checked against $(echo "$tools" | tr '|' '\n' | wc -l) emu/tools/ headers"
[ "$bad" -eq 0 ]
