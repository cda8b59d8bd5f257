# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/newcalls.cmake: syscalls of issue 26 item 5 (docs/syscalls.md)
# that real programs asked for: the mlock family with RLIMIT_MEMLOCK and
# VmLck (emu/mm/sys_mlock.c), get_robust_list, membarrier, vhangup,
# unshare and setns on a kernel without namespaces (emu/kernel/sys_proc.c).
# Both ISAs, exact output (tests/e2e/expected/newcalls.out).
asymu_e2e_guest(NAME newcalls PROGRAM newcalls ASYMU_ONLY)

# Calls Linux itself answers ENOSYS to (emu/kernel/syscall_ni.c): ENOSYS
# without asymu's "unsupported" note, which a number asymu does not know
# still gets.
asymu_e2e_guest(NAME enosys-as-linux-issue26 PROGRAM enosys
                EXPECT_STDOUT_TEXT "pkey_alloc: ENOSYS\nlookup_dcookie: ENOSYS\nsyscall 1000: ENOSYS\n"
                EXPECT_STDERR_CONTAINS "unsupported"
                EXPECT_STDERR_LACKS "pkey_alloc" "lookup_dcookie")

# The ARM table's 16-bit id calls (emu/arch/arm/uid16.c, kernel/uid16.c).
asymu_e2e_guest(NAME uid16 PROGRAM uid16 ISAS armhf ASYMU_ONLY)

# /proc/PID/exe is the program file itself (d_path()), not the symlink the
# program was started by: Debian's /usr/bin/java is such a link and the
# JRE's launcher looks for its libraries next to /proc/self/exe.
asymu_e2e_guest(NAME proc-exe-through-symlink PROGRAM exelink
                EXPECT_STDOUT_TEXT "through the link, /proc/self/exe is the program: 1\nargv[0] stays the link: /tmp/exelink\n")

# futex_waitv (Linux 5.16, emu/kernel/futex_waitv.c): the argument checks,
# timeouts, and the index of the futex whose wake ended a wait on three.
# The same source built for x86_64 prints the same on the host's kernel.
asymu_e2e_guest(NAME futex-waitv-issue26 PROGRAM futexwaitv EXPECT_STDOUT futex-waitv-issue26.out)
