/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall_ni.c - the syscalls of Linux 5.15's arm64 and compat tables that
 * Linux itself answers with ENOSYS on Debian 12's arm64 kernel: numbers
 * wired to sys_ni_syscall (arch/arm64/include/asm/unistd32.h), calls whose
 * code was removed while the number stayed (kernel/sys_ni.c's
 * COND_SYSCALL), and calls of options Debian's configuration leaves out.
 * asymu answers them ENOSYS as Linux does and without its "unsupported
 * syscall" note; docs/syscalls.md shows the reason. */
#include "abi.h"
#include "syscalls.h"

#include <string.h>

struct ni_call {
    const char *name;
    const char *why;
};

static const struct ni_call ni_calls[] = {
    {"lookup_dcookie", "removed with oprofile in 5.12 (`COND_SYSCALL(lookup_dcookie)`)"},
    {"nfsservctl", "`sys_ni_syscall` since nfsctl's removal in 3.1"},
    {"arch_specific_syscall", "the start of a range arm64 leaves empty"},
    {"pkey_mprotect", "arm64 has no memory protection keys in 5.15 (no `ARCH_HAS_PKEYS`)"},
    {"pkey_alloc", "arm64 has no memory protection keys in 5.15 (no `ARCH_HAS_PKEYS`)"},
    {"pkey_free", "arm64 has no memory protection keys in 5.15 (no `ARCH_HAS_PKEYS`)"},
    {"memfd_secret", "`secretmem.enable` is off by default until 6.5 (mm/secretmem.c)"},
    {"uselib", "`CONFIG_USELIB` is off on arm64"},
    {"bdflush", "`sys_ni_syscall` in arm64's compat table"},
    {"_sysctl", "`sys_ni_syscall` since 5.5 (the binary sysctl interface is gone)"},
    {"vserver", "`sys_ni_syscall` in arm64's compat table"},
    {"pciconfig_iobase", "arm64 has no `sys_pciconfig_iobase` (`COND_SYSCALL`)"},
};

const char *syscall_linux_enosys(const struct abi *abi, uint64_t nr)
{
    const char *name = abi->syscall_name(nr);
    for (unsigned i = 0; name && i < sizeof ni_calls / sizeof *ni_calls; i++)
        if (strcmp(ni_calls[i].name, name) == 0)
            return ni_calls[i].why;
    return NULL;
}
