# SPDX-License-Identifier: GPL-2.0-or-later
# What a debugger needs of guest ptrace(2) (issue 15 item 1, docs/ptrace.md,
# "Debugging with gdb inside the machine"): tests/guest/ptrace-gdb.c, a
# tracer of its own forked child. asymu only, as ptrace.cmake.
#
# step: PTRACE_SINGLESTEP over nops (SIGTRAP, si_code TRAP_TRACE, si_addr the
# new pc, one instruction: 4 bytes, or 2 for arm's Thumb nops) and over an
# svc (si_code SI_USER once getpid returned the pid).
# brk: BRK #0, and the undefined instructions arm's gdb plants (Thumb 0xde01
# and 0xf7f0a000), stop with SIGTRAP TRAP_BRKPT on the instruction; an
# untraced one dies of SIGTRAP with a core.
# hwdebug: a 64-bit tracer reads NT_ARM_HW_BREAK/WATCH as 264 bytes of
# ARMv8 debug (dbg_info 0x600) with no slots, ENOSPC for a slot; a 32-bit
# tracer gets EINVAL there and GETHBPREGS 0x06080000 instead.
# procmem: /proc/PID/mem reads a variable, writes into read-only memory
# (PEEKDATA and the child see it), plants a breakpoint in code the child
# already ran (stopped there, then restored), EIO where nothing is mapped,
# lseek SEEK_SET/SEEK_CUR but not SEEK_END.
# signals: PEEKSIGINFO of the process and thread queues (kill, sigqueue,
# tgkill), GETSIGMASK/SETSIGMASK (SIGKILL and SIGSTOP dropped), a SIGUSR1
# ignored by the tracee still stops it, PTRACE_EVENT_EXIT (0x6057f, event
# message 0x8b) before a death by SIGSEGV.
# blocked: a SIGTERM (fatal by default) to a tracee blocked in read() is a
# signal-delivery-stop, not a death; suppressed, the read goes on.
foreach(mode step brk hwdebug procmem signals blocked)
  asymu_e2e_guest(NAME ptrace-gdb-${mode} PROGRAM ptrace-gdb ASYMU_ONLY REPEAT GUEST_ARGS ${mode})
endforeach()
