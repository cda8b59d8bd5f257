#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# abi-word.sh SOURCE: a 64-vs-32-bit layout decision lives in emu/arch/
# (struct abi's fields and functions, abi.h's abi_long/abi_ulong/
# abi_ulong_max, abi_user.h's longs in guest memory), never in the shared
# file that uses it (docs/structure.md, issue 25 item 1): no file of emu/
# outside emu/arch/ reads an ABI's word size (`->word`, `.word` of an abi).
# The pattern is first checked to find planted decisions and to pass a
# harmless line, so that a broken pattern cannot pass unseen.
# shellcheck source=self-check.sh
. "$(dirname "$0")/self-check.sh"
cd "$1" || exit 1
pattern='(->|\.)word\b'
files=$(find emu -name '*.[ch]' ! -path 'emu/arch/*' | sort)
[ -n "$files" ] || { echo "no emu/ files outside emu/arch/"; exit 1; }
self_check "$pattern" '    size_t n = abi_longs_size(t, 3); /* a word of the task */' \
    '    if (task_abi(t)->word == 4)' '    unsigned word = abi->word;' '    bool a64 = g.word == 8;'
# shellcheck disable=SC2086
if grep -nE "$pattern" $files; then
    echo "a file outside emu/arch/ decides by the ABI's word size (above): put the decision in"
    echo "struct abi (emu/arch/abi.h, set in each ISA's abi.c) or use abi.h's or abi_user.h's helpers"
    exit 1
fi
echo "$(echo "$files" | wc -l) files outside emu/arch/ read no ABI word size"
