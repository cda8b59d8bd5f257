#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# binfmt.sh ASYMU GUEST_DIR: issue 26 item 7, `asymu binfmt`. In a user
# namespace with its own binfmt_misc instance (Linux 6.7+), asymu registers
# itself as the interpreter of AArch64 and ARM ELF programs; the host then
# runs Arm programs directly, their argv[0] kept (flag P); registering twice
# is refused; unregistering gives the kernel's ENOEXEC back.
set -u
asymu=$1 guests=$2
. "$(dirname "$0")/check.sh"
if ! unshare --user --map-root-user --mount true 2>/dev/null; then
    echo "SKIP: this kernel gives no user namespace (unshare --user failed)"
    exit 0
fi
out=$(unshare --user --map-root-user --mount bash -c '
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || exit 90
    "$0" binfmt register || exit 91
    sed -n "s/^flags: /flags /p" /proc/sys/fs/binfmt_misc/asymu-aarch64
    "$1/args-aarch64" one
    (exec -a given-name "$1/args-armhf" two)
    "$0" binfmt register 2>&1; echo "second register: $?"
    "$0" binfmt unregister
    "$1/args-aarch64" 2>/dev/null; echo "after unregister: $?"
    "$0" binfmt unregister 2>&1; echo "second unregister: $?"
' "$asymu" "$guests" 2>&1)
status=$?
if [ $status -eq 90 ]; then
    echo "SKIP: this kernel does not mount binfmt_misc in a user namespace (Linux < 6.7): $out"
    exit 0
fi
echo "$out"
interp=$(dirname "$asymu")/asymu-binfmt
expected="registered asymu-aarch64 and asymu-arm in /proc/sys/fs/binfmt_misc: interpreter $interp
flags PF
argc 2
argv[0] \"$guests/args-aarch64\"
argv[1] \"one\"
argv[argc] NULL
argc 2
argv[0] \"given-name\"
argv[1] \"two\"
argv[argc] NULL
asymu binfmt: asymu-aarch64 is already registered in /proc/sys/fs/binfmt_misc (asymu binfmt unregister first)
second register: 1
unregistered asymu-aarch64 and asymu-arm in /proc/sys/fs/binfmt_misc
after unregister: 126
asymu binfmt: cannot unregister asymu-aarch64 in /proc/sys/fs/binfmt_misc: not registered
asymu binfmt: cannot unregister asymu-arm in /proc/sys/fs/binfmt_misc: not registered
second unregister: 1"
check "the session" "$expected" "$out"
check "its exit status" 0 $status
"$asymu" binfmt frobnicate 2>/dev/null
check "an unknown binfmt command exits 2" 2 $?
"$asymu" binfmt register --interpreter relative/path 2>/dev/null
check "a relative interpreter exits 2" 2 $?
checks_done binfmt
