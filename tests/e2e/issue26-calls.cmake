# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/issue26-calls.cmake: calls of issue 26 item 5 that answered
# ENOSYS: the old calls of arm's compat table (emu/arch/arm/compat_old.c),
# execveat (emu/kernel/sys_task.c), and the administrative calls Linux
# refuses an asymu guest (emu/kernel/sys_admin.c, emu/fs/sys_mount_api.c;
# docs/processes.md, "Calls Linux refuses here"). Exact output in
# expected/<name>.out.
#
# Checked against the host kernel under qemu-user (qemu-arm and
# qemu-aarch64 on this machine's Linux, as root in a container): see the
# notes in expected/*.qemu-notes; where a host answer differs it is the
# host's configuration (its sysctls, its lsm= list, its root), not the
# rule.

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
