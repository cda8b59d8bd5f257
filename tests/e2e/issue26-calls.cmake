# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/issue26-calls.cmake: calls of issue 26 item 5 that answered
# ENOSYS: the old calls of arm's compat table (emu/arch/arm/compat_old.c),
# execveat (emu/kernel/sys_task.c), and the administrative calls Linux
# refuses an asymu guest (emu/kernel/sys_admin.c, emu/fs/sys_mount_api.c;
# docs/processes.md, "Calls Linux refuses here"). Exact output in
# expected/<name>.out.
#
# Checked against the host under qemu-user (qemu-arm, qemu-aarch64 on a
# 6.18 host, as root in a sandbox) on 2026-12-06: it says little. This
# qemu answers ENOSYS itself for execveat, sysfs, ustat, pciconfig_*, the
# module, kexec, quota, new-mount-API, Landlock, perf, bpf, userfaultfd
# and fanotify calls, and emulates others its own way (nice returns the
# new value, sigprocmask replaces the real-time signals too, _newselect
# refuses microseconds past a second, sigsuspend and futimesat(fd, NULL)
# fault, stat goes through the host's stat64 without compat EOVERFLOW).
# What matched: creat, stat/lstat/fstat of small files, utimes, the old
# sigaction, sigpending, rt_sigtimedwait_time64, swapon/swapoff/acct
# errors, reboot's EINVAL for bad magic and CAD_ON 0, name_to_handle_at's
# ENOENT, open_by_handle_at's ESTALE and EINVAL. The expectations
# follow Linux 5.15's source (the functions named in the docs) instead.

# The old 32-bit calls: armhf only (arm64 has none of them).
asymu_e2e_guest(NAME armcompat-issue26 PROGRAM armcompat ISAS armhf ASYMU_ONLY)

# execveat: fexecve, /dev/fd/N names, the errors of do_execveat_common().
asymu_e2e_guest(NAME execveat-issue26 PROGRAM execveat ASYMU_ONLY)

# The administrative calls as root (the guest's default) and as nobody,
# and reboot ending the machine: pid 1 killed by SIGHUP (restart, 128+1)
# or SIGINT (halt, 128+2), as reboot_pid_ns() ends a PID namespace.
asymu_e2e_guest(NAME privcalls-issue26-root PROGRAM privcalls GUEST_ARGS root ASYMU_ONLY)
asymu_e2e_guest(NAME privcalls-issue26-nobody PROGRAM privcalls GUEST_ARGS nobody ASYMU_ONLY)
asymu_e2e_guest(NAME privcalls-issue26-restart PROGRAM privcalls GUEST_ARGS restart ASYMU_ONLY
                EXPECT_STATUS 129)
asymu_e2e_guest(NAME privcalls-issue26-halt PROGRAM privcalls GUEST_ARGS halt ASYMU_ONLY
                EXPECT_STATUS 130)
