# tests/e2e/mm.cmake: shared memory and the memory calls
# (tests/guest/shmem.c, one part per test); expected output in
# expected/mm-shmem-*.out. Checked against Linux's rules by hand: qemu-user
# cannot tell (its madvise does nothing, it has no RLIMIT_AS of the guest's
# own and cannot duplicate a shared mapping with mremap).
foreach(part anon file past futex fork core lengths memfd)
  asymu_e2e_guest(NAME mm-shmem-${part} PROGRAM shmem GUEST_ARGS ${part})
endforeach()
