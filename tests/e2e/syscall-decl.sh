#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# syscall-decl.sh SOURCE: every syscall handler of emu/ is declared and
# defined one way, `SYSCALL_DECL(name)` (emu/kernel/syscalls.h), in the
# header and the file of its concept (docs/structure.md, issue 25 item 1):
# no prototype `int64_t sys_NAME(struct task *t, const uint64_t a[6])`
# spelt out.
cd "$1" || exit 1
files=$(find emu -name '*.[ch]' | wc -l)
[ "$files" -gt 0 ] || { echo "no emu/ sources"; exit 1; }
bad=0
if grep -rnE 'int64_t[[:space:]]+sys_[a-z0-9_]+[[:space:]]*\([[:space:]]*struct task' emu --include='*.[ch]'; then
    echo "a syscall handler spelt out (above): write SYSCALL_DECL(name)"
    bad=1
fi
decls=$(grep -rhoE '^SYSCALL_DECL\([a-z0-9_]+\);' emu --include='*.h' | sort -u | wc -l)
echo "$files emu/ files: $decls handlers declared, each as SYSCALL_DECL"
[ "$bad" -eq 0 ]
