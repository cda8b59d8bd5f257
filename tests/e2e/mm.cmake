# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/mm.cmake: shared memory and the memory calls
# (tests/guest/shmem.c, one part per test); expected output in
# expected/mm-shmem-*.out. Checked against Linux's rules by hand: qemu-user
# cannot tell (its madvise does nothing, it has no RLIMIT_AS of the guest's
# own and cannot duplicate a shared mapping with mremap; its shmat places
# and counts SysV attachments its own way: SHM_REMAP without an address is
# EINVAL in Linux's do_shmat, and a segment removed while attached goes at
# its last detach). On armhf the segment's address is not SHMLBA (16 KiB)
# aligned, so attaching over it again is EINVAL there.
foreach(part anon file past futex fork core lengths memfd sysv)
  asymu_e2e_guest(NAME mm-shmem-${part} PROGRAM shmem GUEST_ARGS ${part})
endforeach()
asymu_e2e_guest(NAME mm-shmem-memfd-limit PROGRAM shmem GUEST_ARGS memfd-limit
                OPTIONS --tmp-size 1M EXPECT_STDOUT_TEXT "memfd-limit: ftruncate 2M: EFBIG
memfd-limit: wrote 1048576, then ENOSPC
")

# --warm-engines 1: every switch to another process closes the engine of the
# one before and opens one anew (docs/processes.md); the output is the same,
# byte for byte, as with engines kept open.
asymu_e2e_guest(NAME warm-engines-futex PROGRAM shmem GUEST_ARGS futex OPTIONS --warm-engines 1
                EXPECT_STDOUT mm-shmem-futex.out)
asymu_e2e_guest(NAME warm-engines-tls-threads PROGRAM tls GUEST_ARGS threads
                OPTIONS --warm-engines 1 EXPECT_STDOUT tls-threads.out)
asymu_e2e_guest(NAME warm-engines-prodcons PROGRAM threads GUEST_ARGS prodcons
                OPTIONS --warm-engines 1 EXPECT_STDOUT threads-prodcons.out)
asymu_e2e_guest(NAME warm-engines-pipe-bulk PROGRAM pipes GUEST_ARGS bulk OPTIONS --warm-engines 1
                EXPECT_STDOUT pipe-bulk.out)
foreach(isa aarch64 armhf)
  if(isa STREQUAL aarch64)
    set(other armhf)
  else()
    set(other aarch64)
  endif()
  # 64 -> 32 -> 64 ... across fork and exec, with engines closed on the way.
  asymu_e2e_guest(NAME warm-engines-forkchain ISAS ${isa} PROGRAM exec ASYMU_ONLY
                  OPTIONS --warm-engines 1 EXPECT_STDOUT exec-forkchain-${isa}.out
                  GUEST_ARGS forkchain 9 ${GUEST_DIR}/exec-${other} ${GUEST_DIR}/exec-${isa})
endforeach()

# 10,000 two-page mappings with a PROT_NONE second page (20,000 VMAs, as
# thread stacks and guards): past a few hundred engine regions they share
# engine windows (emu/mm/mm_window.h), where the host's page rights keep the
# guest's. Contents, faults (si_code, si_addr) on guard pages, on a page made
# PROT_NONE (its bytes kept), on an unmapped hole and on a PROT_READ page,
# code made executable among them (out of its window), mremap and a fork
# (whose copy of a lone PROT_NONE page the parent keeps outside windows): the output is Linux's (qemu-user's).
asymu_e2e_guest(NAME mm-windows PROGRAM windows GUEST_ARGS windows 10000
                EXPECT_STDOUT_TEXT "mappings: 10000 of 10000, 20000 VMAs
contents: all there
read of a guard page: SIGSEGV SEGV_ACCERR at the address
write to a guard page: SIGSEGV SEGV_ACCERR at the address
write to a page made PROT_NONE: SIGSEGV SEGV_ACCERR at the address
its bytes after PROT_READ|PROT_WRITE again: kept
read of an unmapped page: SIGSEGV SEGV_MAPERR at the address
mapped again there: yes, reads 0
write to a PROT_READ page: SIGSEGV SEGV_ACCERR at the address
it reads 2501
mprotect PROT_READ|PROT_EXEC: 0, the code returns 42
write to it: SIGSEGV SEGV_ACCERR at the address
mremap: moved, reads 2
child: contents all there
child: read of a guard page: SIGSEGV SEGV_ACCERR at the address
child: the PROT_NONE page alone holds \"lone bytes\"
child exited with 3
parent: contents all there
")
