# SPDX-License-Identifier: GPL-2.0-or-later
# The security guarantees of docs/security.md.

# No descriptor or path call changes a host file on a read-only place (the
# sysroot without --rw, a host /tmp file under the private /tmp); with --rw
# the descriptor calls do. The script checks the host files with stat.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    add_test(NAME e2e-readonly-${isa}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/readonly.sh $<TARGET_FILE:asymu>
              ${GUEST_DIR}/readonly-${isa} ${CMAKE_CURRENT_SOURCE_DIR}/expected)
    set_tests_properties(e2e-readonly-${isa} PROPERTIES LABELS e2e TIMEOUT 120)
  endforeach()
endif()

# Splitting one mapping with mprotect into 4,000 VMAs (past Unicorn's bound
# of about 1,000 regions per engine: engine windows, emu/mm/mm_window.h), a
# hole punched by munmap, mprotect over the hole (ENOMEM, as on Linux), and
# the process lives on; never Unicorn's abort (status 134). The output is
# Linux's (qemu-user's).
asymu_e2e_guest(NAME limits-split PROGRAM limits GUEST_ARGS split
                EXPECT_STDOUT_TEXT "mprotect split 2000 pages, then 0
munmap of a hole: 0
mprotect of the whole mapping back to one: ENOMEM
mprotect split after merging: 0
mapped, wrote and read back: yes
")
# A thread bomb: 256 KiB stacks (a PROT_NONE guard and the stack each)
# up to the program's own cap of 5,000 threads, all alive at once, then
# every one joined: past a few hundred, their stacks and guards share
# engine windows instead of a Unicorn region each (emu/mm/mm_window.h).
asymu_e2e_guest(NAME limits-threads PROGRAM limits GUEST_ARGS threads 262144
                EXPECT_STDOUT_TEXT "pthread_create: 0 after 5000 threads
joined all
")
# The same with glibc's default stacks (8 MiB and a guard page each: 40 GiB
# of address space, hence --max-mem), on arm64 where that fits.
asymu_e2e_guest(NAME limits-threads-default-stacks ISAS aarch64 PROGRAM limits GUEST_ARGS threads
                OPTIONS --max-mem 64G
                EXPECT_STDOUT_TEXT "pthread_create: 0 after 5000 threads
joined all
")
# Default (8 MiB) stacks meet --max-mem first: EAGAIN as well.
asymu_e2e_guest(NAME limits-threads-max-mem PROGRAM limits GUEST_ARGS threads
                OPTIONS --max-mem 512M ASYMU_ONLY
                EXPECT_STDOUT_TEXT "pthread_create: EAGAIN after 62 threads
joined all
")
# clone's exit signal 128 (beyond the last signal): Linux's legacy clone
# takes it and notifies the parent with no signal (asymu once shifted by it,
# undefined behaviour); clone3 refuses it.
asymu_e2e_guest(NAME clone-exit-signal PROGRAM clonesig ASYMU_ONLY
                EXPECT_STDOUT_TEXT "clone(128): waitpid(__WALL) reaped it, exit status 7, signals 0
clone3 exit_signal 128: EINVAL
")
# kill(-1, sig) spares pid 1 and the caller (ESRCH when nobody else is
# left). Pid 1 must be the guest: asymu only.
asymu_e2e_guest(NAME kill-all PROGRAM killall ASYMU_ONLY
                EXPECT_STDOUT_TEXT "kill(-1, 0) with only pid 1 and the caller: ESRCH
kill(-1, SIGUSR1): 0, the caller was spared
another process got it
pid 1 was spared
")
# readdir of a host directory: on armhf glibc needs 32-bit positions
# (EOVERFLOW before, with ext4's 63-bit hashes); they are entry numbers,
# and seekdir to a telldir position works. qemu-user passes the host's
# positions through (and fails as asymu did): asymu only.
set(DIRLIST_DIR ${CMAKE_CURRENT_BINARY_DIR}/dirlist)
foreach(name alpha bravo charlie delta echo foxtrot)
  file(MAKE_DIRECTORY ${DIRLIST_DIR}/${name})
endforeach()
asymu_e2e_guest(NAME dirlist PROGRAM dirlist GUEST_ARGS ${DIRLIST_DIR} ASYMU_ONLY
                EXPECT_STDOUT_TEXT "8 entries: . .. alpha bravo charlie delta echo foxtrot
seekdir to telldir after 3 entries: the 4th entry again
after rewinddir: 8 entries
")

# Every guest file, memory and time syscall whose handler issues host
# syscalls, with the seccomp sandbox on (a refused host syscall is status 70).
asymu_e2e_guest(NAME hostcalls PROGRAM hostcalls ASYMU_ONLY EXPECT_STDOUT hostcalls.out)
# 500 threads alive at once, each with a malloc arena: glibc reserves 64 MiB
# PROT_NONE per arena on arm64, which --max-mem once counted, so
# pthread_create failed after 112 threads (CPython's test_queue
# test_many_threads: "can't start new thread"). --max-mem counts usable
# bytes only.
asymu_e2e_guest(NAME many-threads-arenas PROGRAM manythreads GUEST_ARGS arenas 500 1048576
                EXPECT_STDOUT_TEXT "500 threads alive at once, each with its malloc arena: joined 500
")
