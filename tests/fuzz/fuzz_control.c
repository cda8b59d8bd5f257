/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_control.c - the control socket's requests (control_requests.c,
 * docs/control.md) against a booted machine whose pid 1 is a real program
 * of the chosen ISA: ps, cpus, dmesg, regs, mem, stop, cont, step,
 * offline, online, setaffinity, signal and trace with arbitrary arguments.
 * After each request the scheduler's invariants must hold.
 *
 * Input: byte 0 picks the ISA (bit 0: aarch64 or armhf); the rest is
 * request lines separated by newlines, each handed to control_request as
 * control.c's reader does (without its newline, NUL-terminated, lines
 * longer than the reader's 4095 bytes answered as too long). There is no
 * client: responses are built and dropped, as for a replay's requests.
 * Between inputs the machine runs again and every CPU is online; a request
 * that ends pid 1 (signal 1 9) has the machine booted again. */
#include "control.h"
#include "control_requests.h"
#include "fuzz_input.h"
#include "fuzz_machine.h"
#include "loader.h"
#include "machine.h"
#include "scheduler.h"
#include "task.h"
#include "vfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINE_MAX_BYTES 4096 /* control.c's reader */

static struct machine *machines[2];

static bool alive(struct machine *m)
{
    struct task *t = emu_fuzz_task(m);
    return t && t->state != TASK_DEAD && !t->proc->exiting && !t->proc->zombie;
}

static struct machine *machine_for(unsigned isa_bit)
{
    struct machine *m = machines[isa_bit];
    if (m && !alive(m)) {
        control_stop(m);
        emu_fuzz_shutdown(m);
        m = NULL;
    }
    if (!m) {
        m = fuzz_machine_boot(isa_bit ? LOADER_ISA_ARM : LOADER_ISA_AARCH64);
        control_replay_request(m, "ps"); /* makes the socketless control state */
    }
    return machines[isa_bit] = m;
}

static void check_invariants(struct machine *m)
{
    char report[1024];
    if (sched_check_invariants(&m->sched, report, sizeof report) < 0) {
        fprintf(stderr, "scheduler invariant violated:\n%s", report);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    struct machine *m = machine_for((unsigned)fuzz_take(&in, 1) & 1);
    struct control *ctl = m->control;
    while (in.pos < in.size && alive(m)) {
        const uint8_t *start = in.data + in.pos, *nl = memchr(start, '\n', in.size - in.pos);
        size_t len = nl ? (size_t)(nl - start) : in.size - in.pos;
        in.pos += len + (nl != NULL);
        if (len >= LINE_MAX_BYTES) {
            control_request_too_long(ctl, NULL);
            continue;
        }
        char *line = malloc(len + 1); /* exact size: ASan sees a read past it */
        memcpy(line, start, len);
        line[len] = '\0';
        control_request(ctl, NULL, line, len);
        free(line);
        check_invariants(m);
    }
    if (alive(m)) {
        struct task *t = emu_fuzz_task(m);
        control_request(ctl, NULL, (char[]){"cont 1"}, 6);
        ctl->paused = false;
        ctl->steps_left = 0;
        for (unsigned cpu = 0; cpu < 8; cpu++)
            vfs_provider_kernel.set_cpu_online(t, cpu, true);
        check_invariants(m);
    }
    return 0;
}
