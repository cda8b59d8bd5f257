#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# qemu-habits.sh ASYMU ARGS_GUEST: issue 26 item 7, qemu-user's habits.
# With --sysroot ROOT, PROGRAM may be a path inside ROOT (resolved there,
# its absolute symbolic links too) and a host path inside or outside ROOT
# still works; -E VAR=VALUE and -U VAR edit the guest's environment in
# order; --cwd DIR starts the guest there, and without it the guest starts
# in the host's directory if it has it, else in /.
set -u
asymu=$1 guest=$2
. "$(dirname "$0")/check.sh"
root=$(mktemp -d /tmp/asymu-qemu-habits.XXXXXX)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/work/sub"
cp "$guest" "$root/bin/args"
ln -s /bin/args "$root/bin/args-link" # absolute: resolved inside ROOT
line() { sed -n "s|^$1 ||p"; }

out=$(cd / && "$asymu" run --sysroot "$root" -- /bin/args-link cwd: 2>&1)
check "a program inside the sysroot by its guest path" '"/bin/args-link"' "$(echo "$out" | line 'argv\[0\]')"
check "the guest starts in / when it lacks the host's directory" "/" "$(echo "$out" | line cwd)"
out=$(cd "$root/work/sub" && "$asymu" run --sysroot "$root" -- "$root/bin/args" cwd: 2>&1)
check "a host path inside the sysroot still runs" "/work/sub" "$(echo "$out" | line cwd)"
out=$(cd / && "$asymu" run --sysroot "$root" -- "$guest" cwd: 2>&1)
check "a host path outside the sysroot still runs" "/" "$(echo "$out" | line cwd)"
"$asymu" run --sysroot "$root" -- /bin/none >/dev/null 2>&1
check "a program in neither place: 127" 127 $?

out=$(HOME=/home/x LANG=C "$asymu" run -E A=1 -E HOME=/root -U LANG -E A=2 -U NOT_SET -- \
      "$guest" env:A env:HOME env:LANG 2>&1)
check "-E sets" '"2"' "$(echo "$out" | line 'env A')"
check "-E replaces" '"/root"' "$(echo "$out" | line 'env HOME')"
check "-U removes" unset "$(echo "$out" | line 'env LANG')"
"$asymu" run -E NOEQUALS -- "$guest" >/dev/null 2>"$root/err"
check "-E without = exits 2" 2 $?
check "-E without = says why" "asymu run: invalid value 'NOEQUALS' for -E: VAR=VALUE" "$(cat "$root/err")"
"$asymu" run -U A=1 -- "$guest" >/dev/null 2>"$root/err"
check "-U with = exits 2" 2 $?

out=$("$asymu" run --sysroot "$root" --cwd /work/sub -- /bin/args cwd: 2>&1)
check "--cwd" "/work/sub" "$(echo "$out" | line cwd)"
out=$("$asymu" run --sysroot "$root" --cwd work -- /bin/args cwd: 2>&1)
check "--cwd relative to /" "/work" "$(echo "$out" | line cwd)"
out=$("$asymu" run --cwd /tmp -- "$guest" cwd: 2>&1)
check "--cwd /tmp is the private /tmp" "/tmp" "$(echo "$out" | line cwd)"
"$asymu" run --sysroot "$root" --cwd /nope -- /bin/args >/dev/null 2>"$root/err"
check "--cwd a missing directory exits 2" 2 $?
check "--cwd a missing directory says why" "asymu: --cwd /nope: No such file or directory" "$(cat "$root/err")"
"$asymu" run --sysroot "$root" --cwd /bin/args -- /bin/args >/dev/null 2>"$root/err"
check "--cwd a file" "asymu: --cwd /bin/args: Not a directory" "$(cat "$root/err")"
checks_done qemu-habits
