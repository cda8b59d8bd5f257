# SPDX-License-Identifier: GPL-2.0-or-later
# Issue "Real programs, part 3", item 1: a fault's handler sees the PC of
# the instruction that faulted (taken from a label on it), with two
# instructions of the same translated block before it, as Linux gives, and
# resumes there when it returns: those two ran once (counter 1 + 2 = 3 when
# the store happened, 7 after the add that follows). Unicorn 2.1.1 leaves
# the PC at the block's start: emu/machine/engine_exact.c. Each kind of
# fault: unmapped (SEGV_MAPERR), read-only (SEGV_ACCERR, mended by the
# handler), undefined instruction (SIGILL, stepped over), a read-only page
# inside an engine window (many mappings: the host's SIGSEGV), past the end
# of a file mapping (SIGBUS BUS_ADRERR: the host's SIGBUS).
asymu_e2e_guest(NAME faultpc-segv-maperr PROGRAM faultpc GUEST_ARGS load
                EXPECT_STDOUT_TEXT "load: signal 11 code 1 at the faulting instruction, address 0x10
")
asymu_e2e_guest(NAME faultpc-segv-accerr-resume PROGRAM faultpc GUEST_ARGS store
                EXPECT_STDOUT_TEXT "store: signal 11 code 2 at the faulting instruction, address the page; counter 7, stored 3
")
# Linux's do_undefinstr sends ILL_ILLOPC (1); qemu-user 7.2 ILL_ILLOPN.
asymu_e2e_guest(NAME faultpc-sigill-resume PROGRAM faultpc GUEST_ARGS udf ASYMU_ONLY
                EXPECT_STDOUT_TEXT "udf: signal 4 code 1 at the faulting instruction; counter 7
")
asymu_e2e_guest(NAME faultpc-window-accerr-resume PROGRAM faultpc GUEST_ARGS windows
                EXPECT_STDOUT_TEXT "store: signal 11 code 2 at the faulting instruction, address the page; counter 7, stored 3
")
# qemu-arm 7.2 gives the SIGBUS another si_addr.
asymu_e2e_guest(NAME faultpc-sigbus PROGRAM faultpc GUEST_ARGS bus ASYMU_ONLY
                EXPECT_STDOUT_TEXT "bus: signal 7 code 2 at the faulting instruction, address the page past the end
")

# Issue "Real programs, part 3", item 4: hint instructions run as on
# hardware at EL0. Unicorn 2.1.1's Arm engine ended the run at YIELD and
# WFE (QEMU's EXCP_YIELD down the undefined-instruction path) and the
# program died of SIGILL; emu/machine/engine.c hook_insn_invalid.
asymu_e2e_guest(NAME hints PROGRAM hints EXPECT_STDOUT_TEXT "hints ran 1000 times
")

# A Go program from Go's own toolchain on both ISAs: goroutines, a mutex,
# and recover() from a nil dereference, which needs the fault's exact PC
# (Go died with "unknown caller pc"); linux/arm binaries are not marked
# hard-float and Go's spin loops yield (items 1 and 4).
asymu_e2e_guest(NAME go-goroutines-recover PROGRAM goguest)
