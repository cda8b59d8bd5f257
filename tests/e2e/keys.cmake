# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/keys.cmake: the key retention service (emu/ipc/keys.c; issue 26
# item 5): add_key, request_key and keyctl from tests/guest/keys.c, both
# ISAs, the same output (expected/keys-issue26-CASE.out). basic: user,
# logon and keyring keys, the special ids, each call's errors, revoke,
# invalidate, setperm, a timeout past a sleep (EKEYEXPIRED), the session
# keyring a fork shares, /proc/keys; user: as uid 1000, EDQUOT past
# maxbytes (20000) and maxkeys (200), EACCES for root's key, chown; exec:
# exec drops the thread and process keyrings and keeps the session one,
# a new thread of a task with a thread keyring gets its own.
#
# Checked against the host kernel on 2026-12-06: qemu-user (7.2) answers
# ENOSYS for all three calls, so the same program was built for x86_64 and
# run natively on the 6.18 host (as root in a sandbox). Every line of the
# three cases matched but one: 6.18's /proc/keys shows a revoked key's timeout
# as "expd" (newer kernels set its expiry at revocation); 5.15's
# key_revoke() sets only revoked_at, so its line says "perm", as expected
# here. Lines that would race with Linux's key garbage collector (a key
# just unlinked from its last keyring) are left out: asymu frees such a
# key at once, Linux a little later.
asymu_e2e_guest(NAME keys-issue26-basic PROGRAM keys GUEST_ARGS basic)
asymu_e2e_guest(NAME keys-issue26-user PROGRAM keys GUEST_ARGS user)
asymu_e2e_guest(NAME keys-issue26-exec PROGRAM keys GUEST_ARGS exec)
