# SPDX-License-Identifier: GPL-2.0-or-later
# Large reservations under Linux's heuristic overcommit (issue 26 item 3,
# docs/processes.md "Reservations and overcommit"): PROT_NONE and
# MAP_NORESERVE mappings far beyond the machine's memory are taken, cost no
# commitment (Committed_AS, --max-mem) and no host memory until touched
# (mincore sees only the touched pages), and unmap in proportion to what
# was touched (mm_lazy.h); a private writable mapping larger than the
# machine's RAM (MemTotal, --max-mem) and swap is ENOMEM. asymu's own
# /proc: ASYMU_ONLY.
set(OVERCOMMIT_RESERVE_TEXT "mmap @GIB@ GiB PROT_NONE: ok
vsize grew by @GIB@ GiB, Committed_AS by 0 kB
mprotect 16 pages in the middle read-write: ok
Committed_AS grew by 64 kB
read back: 7 8, resident: 2
munmap: ok
mmap @GIB@ GiB MAP_NORESERVE read-write: ok
vsize grew by @GIB@ GiB, Committed_AS by 0 kB
read back: 1 2 3, untouched: 0
resident pages around them: 1 1 1
munmap: ok
mmap @GIB@ GiB read-write: ENOMEM
vsize back to the start: yes
")
# arm64: 64 GiB each, with the default --max-mem of 4 GiB.
string(REPLACE "@GIB@" 64 text "${OVERCOMMIT_RESERVE_TEXT}")
asymu_e2e_guest(NAME overcommit-reserve ISAS aarch64 PROGRAM overcommit GUEST_ARGS reserve 64
                ASYMU_ONLY EXPECT_STDOUT_TEXT "${text}")
# armhf: 2 GiB each (the 32-bit address space holds no more), with 1 GiB of RAM.
string(REPLACE "@GIB@" 2 text "${OVERCOMMIT_RESERVE_TEXT}")
asymu_e2e_guest(NAME overcommit-reserve ISAS armhf PROGRAM overcommit GUEST_ARGS reserve 2
                OPTIONS --max-mem 1G ASYMU_ONLY EXPECT_STDOUT_TEXT "${text}")
# 16 TiB of MAP_NORESERVE, three pages touched, a fork, then unmapped: a
# 16 GiB mapping registered whole with Unicorn took 4 s to unmap (page by
# page), and reading the pagemap of every page took 50 s to fork 16 TiB;
# this takes 0.2 s.
asymu_e2e_guest(NAME overcommit-huge ISAS aarch64 PROGRAM overcommit GUEST_ARGS huge 16384
                EXPECT_STDOUT_TEXT "mmap 16384 GiB MAP_NORESERVE read-write: ok
read back: 1 2 3, untouched: 0
resident pages around them: 1 1 1
child reads: 1 2 3
child status 0
munmap: ok
")
# The host has no memory to give (--host-reserve beyond it): the mapping
# is taken (a reservation is not checked), its first touch is the guest's
# SIGSEGV (status 139), where Linux's OOM killer would end the process.
asymu_e2e_guest(NAME overcommit-host-reserve PROGRAM overcommit GUEST_ARGS huge 1
                OPTIONS --host-reserve 1000000G ASYMU_ONLY EXPECT_STATUS 139
                EXPECT_STDOUT_TEXT "mmap 1 GiB MAP_NORESERVE read-write: ok\n")
# An AddressSanitizer program (the cross compiler's libasan, -L prefix)
# runs to ASan's report of a heap-buffer-overflow and its exit status 1.
foreach(isa aarch64 armhf)
  if(isa STREQUAL aarch64)
    set(prefix /usr/aarch64-linux-gnu)
  else()
    set(prefix /usr/arm-linux-gnueabihf)
  endif()
  asymu_e2e_guest(NAME overcommit-asan ISAS ${isa} PROGRAM asan-dynamic OPTIONS -L${prefix}
                  EXPECT_STATUS 1 EXPECT_STDOUT_TEXT "before the overflow\n"
                  EXPECT_STDERR_CONTAINS "ERROR: AddressSanitizer: heap-buffer-overflow on address"
                                         "WRITE of size 1 at"
                                         "is located 0 bytes to the right of 16-byte region"
                                         "SUMMARY: AddressSanitizer: heap-buffer-overflow"
                                         "asan.c:31 in main")
endforeach()
# A 256 MiB MAP_NORESERVE mapping, whose chunks reach Unicorn when touched:
# a page made read-only, a hole and a PROT_NONE range inside touched chunks
# fault at the exact byte with Linux's si_code, 127 chunks (more than stay
# registered) keep their bytes, a piece moved by mremap keeps its bytes and
# leaves a hole, and code whose chunk is first reached by an instruction
# fetch runs (Unicorn retries the fetch once the hook has mapped the chunk).
# Linux's (qemu-user's) output, both ISAs.
asymu_e2e_guest(NAME overcommit-edges PROGRAM overcommit GUEST_ARGS edges
                EXPECT_STDOUT_TEXT "mmap 256 MiB MAP_NORESERVE read-write: ok
write to a page made read-only: SIGSEGV SEGV_ACCERR at the byte
its neighbours: 1, write 0
read in a hole: SIGSEGV SEGV_MAPERR at the byte
read after it: 0
read of PROT_NONE: SIGSEGV SEGV_ACCERR at the byte
write when read-write again: 0
127 chunks written and read back, wrong: 0
mremap of the piece after the hole to 200 MiB: moved, byte 33, old place: SIGSEGV SEGV_MAPERR at the byte
code first reached by a fetch returns 44
")
# LeakSanitizer's check when an ASan program exits: its tracer (a clone
# sharing the program's memory) attaches with PTRACE_ATTACH to every thread
# of the program, here pid 1, which Linux lets root trace. A clean run
# exits 0, a leak is reported with status 1. qemu-user has no ptrace (its
# LeakSanitizer fails): ASYMU_ONLY. arm64 only: armhf's LeakSanitizer lists
# /proc/1/task with arm's old getdents (141), which asymu lacks.
asymu_e2e_guest(NAME overcommit-asan-clean ISAS aarch64 PROGRAM asan-dynamic GUEST_ARGS clean
                OPTIONS -L/usr/aarch64-linux-gnu ASYMU_ONLY EXPECT_STDOUT_TEXT "clean run\n")
asymu_e2e_guest(NAME overcommit-asan-leak ISAS aarch64 PROGRAM asan-dynamic GUEST_ARGS leak
                OPTIONS -L/usr/aarch64-linux-gnu ASYMU_ONLY EXPECT_STATUS 1
                EXPECT_STDOUT_TEXT "leak run\n"
                EXPECT_STDERR_CONTAINS "ERROR: LeakSanitizer: detected memory leaks"
                                       "Direct leak of 16 byte(s) in 1 object(s) allocated from"
                                       "SUMMARY: AddressSanitizer: 16 byte(s) leaked in 1 allocation(s).")
