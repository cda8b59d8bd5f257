/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostmem.c - the host's memory as a limit of its own: when less than the
 * reserve (--host-reserve) is available on the host, a new guest process or
 * more mappings fail with ENOMEM in the guest instead of the host running
 * out of memory (a fork bomb costs about 4 MiB of host memory a process). */
#include "emu.h"
#include "machine.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Opened once at boot: the sandbox lets the emulator open no host path
 * outside the guest's places, and a read at offset 0 gives fresh values.
 * Process-wide: the host's memory, the same for every machine. */
static int meminfo_fd = -1;

void host_memory_open(void)
{
    if (meminfo_fd < 0)
        meminfo_fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
}

/* MemAvailable of the host's /proc/meminfo in bytes, or UINT64_MAX when it
 * cannot be read (then nothing is refused). */
static uint64_t host_available(void)
{
    char buf[4096];
    ssize_t n = meminfo_fd < 0 ? -1 : pread(meminfo_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return UINT64_MAX;
    buf[n] = '\0';
    const char *p = strstr(buf, "MemAvailable:");
    unsigned long long kb;
    if (!p || sscanf(p, "MemAvailable: %llu kB", &kb) != 1)
        return UINT64_MAX;
    return (uint64_t)kb * 1024;
}

bool host_memory_low(const struct machine *m, uint64_t more)
{
    uint64_t avail = host_available();
    return avail != UINT64_MAX && (avail < more || avail - more < m->cfg->host_reserve);
}
