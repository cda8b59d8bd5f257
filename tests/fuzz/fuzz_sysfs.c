/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_sysfs.c - the writers of the virtual /proc and /sys
 * (vfs_write_virtual) with the real kernel provider of a booted machine:
 * CPU hotplug through cpuN/online, /dev/kmsg, /proc/PID/comm, the
 * numbers of /proc/sys (emu/kernel/sysctl.c's parser), and nodes that
 * refuse writes. After each write the scheduler's invariants must
 * hold, and after each input the files that show hotplug state must still
 * generate.
 *
 * Input: byte 0 picks the ISA of pid 1 (bit 0: 0 aarch64, 1 armhf, whose
 * tasks may only run on the AArch32 CPUs 0-3); then writes, each a node
 * byte, a length byte and that many bytes of data. Every CPU is brought
 * back online between inputs. */
#include "fuzz_input.h"
#include "fuzz_machine.h"
#include "loader.h"
#include "machine.h"
#include "scheduler.h"
#include "task.h"
#include "vfs.h"

#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const nodes[] = {
    "/sys/devices/system/cpu/cpu0/online", "/sys/devices/system/cpu/cpu1/online",
    "/sys/devices/system/cpu/cpu2/online", "/sys/devices/system/cpu/cpu3/online",
    "/sys/devices/system/cpu/cpu4/online", "/sys/devices/system/cpu/cpu5/online",
    "/sys/devices/system/cpu/cpu6/online", "/sys/devices/system/cpu/cpu7/online",
    "/dev/kmsg",                           "/proc/self/comm",
    "/proc/1/task/1/comm",                 "/proc/thread-self/comm",
    "/sys/devices/system/cpu/online",      "/proc/cpuinfo",
    "/dev/full",                           "/proc/self/status",
    "/proc/sys/fs/mqueue/msg_max",         "/proc/sys/kernel/sem",
    "/proc/sys/fs/aio-max-nr",             "/proc/sys/kernel/sched_rt_runtime_us",
    "/proc/sys/kernel/sched_rt_period_us", "/proc/sys/fs/inotify/max_user_watches",
};

/* Files whose content follows the hotplug state. */
static const char *const shown[] = {
    "/sys/devices/system/cpu/online",  "/sys/devices/system/cpu/offline",
    "/sys/devices/system/cpu/aarch32_el0", "/proc/cpuinfo", "/proc/stat", "/proc/self/status",
    "/proc/sys/kernel/sem", "/proc/sys/kernel/sched_rt_runtime_us",
};

static struct machine *machines[2];

static void check_invariants(struct machine *m)
{
    char report[1024];
    if (sched_check_invariants(&m->sched, report, sizeof report) < 0) {
        fprintf(stderr, "scheduler invariant violated:\n%s", report);
        abort();
    }
}

static void generate_shown(struct machine *m, struct task *t)
{
    for (size_t i = 0; i < sizeof shown / sizeof *shown; i++) {
        struct vfs_node node;
        char *text = NULL;
        size_t len = 0;
        if (vfs_lookup_virtual(&m->vfs, t, shown[i], &node) > 0 &&
            vfs_generate(&m->vfs, t, &node, &text, &len) == 0)
            free(text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    unsigned isa_bit = fuzz_take(&in, 1) & 1;
    if (!machines[isa_bit])
        machines[isa_bit] = fuzz_machine_boot(isa_bit ? LOADER_ISA_ARM : LOADER_ISA_AARCH64);
    struct machine *m = machines[isa_bit];
    struct task *t = emu_fuzz_task(m);

    while (fuzz_more(&in)) {
        const char *path = nodes[fuzz_take(&in, 1) % (sizeof nodes / sizeof *nodes)];
        size_t len = fuzz_take(&in, 1);
        if (len > in.size - in.pos)
            len = in.size - in.pos;
        /* A copy of exactly len bytes: ASan sees a read past the write. */
        char *buf = malloc(len ? len : 1);
        memcpy(buf, in.data + in.pos, len);
        in.pos += len;
        struct vfs_node node;
        /* 1: a virtual node (0 would be the host's root) */
        if (vfs_lookup_virtual(&m->vfs, t, path, &node) > 0) {
            int64_t r = vfs_write_virtual(&m->vfs, t, &node, buf, len, 0);
            if (r > (int64_t)len || (r < 0 && r < -4095))
                abort();
        }
        free(buf);
        check_invariants(m);
    }
    generate_shown(m, t);
    for (unsigned cpu = 0; cpu < 8; cpu++)
        vfs_provider_kernel.set_cpu_online(t, cpu, true);
    check_invariants(m);
    return 0;
}
