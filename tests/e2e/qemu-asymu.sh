#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# qemu-asymu.sh - stands in for `asymu run` with qemu-user, to validate the
# guest programs and the e2e harness before asymu runs them:
#   cmake -DASYMU_E2E_RUNNER=$PWD/tests/e2e/qemu-asymu.sh ...
# Options that only mean something to asymu's machine are accepted and
# ignored; --sysroot/-L, --seed and --strace map to qemu's -L, -seed and
# -strace. Exit status follows asymu's contract: the guest's status, 128+N
# for a guest killed by signal N, 126 for a file that is not an ELF, 127 for
# a missing program, 2 for a bad option.
set -u
if [ "${1:-}" != run ]; then
    echo "qemu-asymu: only 'run' is supported" >&2
    exit 2
fi
shift
sysroot=
seed=
strace=
while [ $# -gt 0 ]; do
    case $1 in
    --cpus | --aarch32 | --cmdline | --policy)
        [ $# -ge 2 ] || { echo "qemu-asymu: $1 needs a value" >&2; exit 2; }
        shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --sysroot | -L) sysroot=$2; shift 2 ;;
    -L?*) sysroot=${1#-L}; shift ;;
    --strace) strace=1; shift ;;
    --) shift; break ;;
    -*) echo "qemu-asymu: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then
    echo "qemu-asymu: missing PROGRAM" >&2
    exit 2
fi
prog=$1
if [ ! -e "$prog" ]; then
    echo "qemu-asymu: $prog: no such file" >&2
    exit 127
fi
magic=$(od -An -tx1 -N5 "$prog" | tr -d ' \n')
case $magic in
7f454c4601) qemu=qemu-arm ;;
7f454c4602) qemu=qemu-aarch64 ;;
*)
    echo "qemu-asymu: $prog: cannot execute: not an ELF file" >&2
    exit 126 ;;
esac
[ -n "$strace" ] && set -- -strace "$@"
[ -n "$seed" ] && set -- -seed "$seed" "$@"
[ -n "$sysroot" ] && set -- -L "$sysroot" "$@"
ulimit -c 0
"$qemu" "$@"
exit $?
