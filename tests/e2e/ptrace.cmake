# SPDX-License-Identifier: GPL-2.0-or-later
# Guest ptrace(2) (issue 15 item 1, docs/ptrace.md): a tracer of either ISA
# on tracees of either ISA. asymu only: qemu-user forwards ptrace to the
# host, where it would trace qemu itself.

# PTRACE_TRACEME + execve (the legacy SIGTRAP), PTRACE_SYSCALL stops with
# TRACESYSGOOD, the syscall number from the NT_PRSTATUS regset (272 bytes for
# a 64-bit tracee, the 18-word compat set for a 32-bit one) and
# PTRACE_GET_SYSCALL_INFO at the write and exit_group of the traced program.
foreach(isa aarch64 armhf)
  if(isa STREQUAL aarch64)
    set(other armhf)
  else()
    set(other aarch64)
  endif()
  asymu_e2e_guest(NAME ptrace-syscalls ISAS ${isa} PROGRAM ptrace ASYMU_ONLY REPEAT
                  GUEST_ARGS syscalls ${GUEST_DIR}/ptrace-${isa})
  # A 64-bit tracer of a 32-bit tracee, and the other way round.
  asymu_e2e_guest(NAME ptrace-syscalls-cross ISAS ${isa} PROGRAM ptrace ASYMU_ONLY
                  GUEST_ARGS syscalls ${GUEST_DIR}/ptrace-${other}
                  EXPECT_STDOUT ptrace-syscalls-${other}.out)
  # TRACEFORK and TRACEEXEC event stops (status words 0x1057f, 0x4057f), the
  # auto-attached grandchild's SIGSTOP, an exec across ISAs; the tracer
  # collects the grandchild's exit before its real parent does.
  asymu_e2e_guest(NAME ptrace-events ISAS ${isa} PROGRAM ptrace ASYMU_ONLY
                  GUEST_ARGS events ${GUEST_DIR}/ptrace-${other})
endforeach()
# SEIZE + INTERRUPT (0x80057f, si_code 0x8005) of a child in pause(),
# /proc/PID/status while it is stopped, a signal-delivery-stop and the
# signal delivered by PTRACE_CONT; EPERM/ESRCH/EINVAL/EIO cases.
asymu_e2e_guest(NAME ptrace-seize PROGRAM ptrace ASYMU_ONLY GUEST_ARGS seize
                EXPECT_STDOUT ptrace-seize.out)
# PEEKDATA/POKEDATA (EIO on unmapped memory), process_vm_readv (its checks in
# Linux's order, as the host kernel answers them), PEEKUSR.
asymu_e2e_guest(NAME ptrace-peekpoke PROGRAM ptrace ASYMU_ONLY GUEST_ARGS peekpoke)
# A traced 32-bit task obeys the policy: PTRACE_SYSCALL never lets it run
# outside the 32-bit vCPUs (--check-invariants stops the run with 70 if it did).
foreach(policy upstream linux-6.6 override kill fixup)
  asymu_e2e(NAME ptrace-syscalls-policy-${policy} ASYMU_ONLY
            EXPECT_STDOUT ptrace-syscalls-armhf.out
            ARGS run --cpus 8 --aarch32 0-3 --policy ${policy} --check-invariants
                 -- ${GUEST_DIR}/ptrace-aarch64 syscalls ${GUEST_DIR}/ptrace-armhf)
endforeach()
# A tracer that exits without detaching: its stopped tracee runs on
# (TracerPid 0), or dies with SIGKILL under PTRACE_O_EXITKILL.
asymu_e2e_guest(NAME ptrace-tracer-death PROGRAM ptrace ASYMU_ONLY GUEST_ARGS tracerdeath
                EXPECT_STDOUT_TEXT "tracer: exited 0
TracerPid after the tracer's exit: 0
tracee: exited 7
")
asymu_e2e_guest(NAME ptrace-tracer-death-exitkill PROGRAM ptrace ASYMU_ONLY
                GUEST_ARGS tracerdeath exitkill
                EXPECT_STDOUT_TEXT "tracer: exited 0
TracerPid after the tracer's exit: 0
tracee: killed by 9
")
# A tracee's fault stops it for its tracer (SIGSEGV, SEGV_MAPERR, si_addr)
# instead of killing it; PTRACE_KILL ends it.
asymu_e2e_guest(NAME ptrace-fault PROGRAM ptrace ASYMU_ONLY GUEST_ARGS fault
                EXPECT_STDOUT_TEXT "fault: stopped 0xb7f (sig 11, event 0)
GETSIGINFO: 0 signo 11 code 1 addr 0x10
KILL: 0
end: killed by 9
")
# Issue 24 item 2: a tracer's write of the status register is checked as
# Linux's valid_user_regs does (EINVAL for another mode or execution state
# or a masked exception, RES0 bits cleared, nothing written when refused),
# through SETREGSET, and a 32-bit tracer's SETREGS and POKEUSER; a length
# that is not a whole number of registers is EINVAL. Mode 0 aborted the host.
foreach(isa aarch64 armhf)
  asymu_e2e_guest(NAME sec-cpsr-status ISAS ${isa} PROGRAM ptrace-regs ASYMU_ONLY
                  GUEST_ARGS status ${GUEST_DIR}/ptrace-regs-${isa})
  # Issue 24 item 4's tracer (zeroed registers, a step, then the status all
  # ones): refused, the tracee dies of its fault at pc 0.
  asymu_e2e_guest(NAME sec-cpsr-zerostep ISAS ${isa} PROGRAM ptrace-regs ASYMU_ONLY
                  GUEST_ARGS zerostep ${GUEST_DIR}/ptrace-regs-${isa})
  # The same tracer's single step costs the host no translation buffer:
  # a step by uc_emu_start's instruction count left the engine holding its
  # whole 1 GiB (1 GB of host memory per tracee, 15 to 35 s); a code hook
  # on the step's block does it (emu/machine/engine_step.c). GNU time
  # (scripts/bootstrap installs it) measures the peak: under 100 MB.
  asymu_e2e_host_rss(NAME sec-step-host-rss-${isa} LIMIT_KB 100000
                     ARGS run --cpus 4 --aarch32 0-3 -- ${GUEST_DIR}/ptrace-regs-${isa}
                          zerostep ${GUEST_DIR}/ptrace-regs-${isa})
endforeach()
# A 64-bit tracer of a 32-bit tracee: the compat set, the same checks.
asymu_e2e_guest(NAME sec-cpsr-status-cross ISAS aarch64 PROGRAM ptrace-regs ASYMU_ONLY
                GUEST_ARGS status ${GUEST_DIR}/ptrace-regs-armhf
                EXPECT_STDOUT sec-cpsr-status-cross.out)
