# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/sysv.cmake: System V IPC (tests/guest/sysv-sem.c and
# sysv-msg.c name the cases). Each expected output (expected/sysv-*.out)
# was compared with qemu-user on the host kernel, which agrees but for
# qemu-user's own doings: it checks a msgrcv buffer before the call (the
# kernel takes the message, then fails to copy it: errors), lays out
# arm64's msg_lrpid and ipc_perm.mode wrongly, and its real time jitters
# (timeout); /proc/sysvipc lists the host's objects (proc: asymu only).

foreach(case pingpong errors timeout undo rmid signal ctl kill perm)
  asymu_e2e_guest(NAME sysv-sem-${case} PROGRAM sysv-sem GUEST_ARGS ${case})
endforeach()
foreach(case types errors full wait ctl setrm signal shm proc)
  asymu_e2e_guest(NAME sysv-msg-${case} PROGRAM sysv-msg GUEST_ARGS ${case})
endforeach()
