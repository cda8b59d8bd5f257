/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_gdb.c - the gdb stub's packets (gdbstub_cmds.c, gdbstub_regs.c,
 * gdbstub_packet.c) against a booted machine whose pid 1, a real program
 * of the chosen ISA that never runs an instruction, is the stopped task gdb
 * debugs: register reads and writes (g, G, p, P: the status register
 * among them, issue 24 item 2), memory, breakpoints, thread selection,
 * queries, resuming (which only marks the machine to run), kill and detach.
 *
 * Input: byte 0 picks the ISA (bit 0: aarch64 or armhf) and the way in
 * (bit 1: the bytes go through the receiver's framing, gdb_rx_byte, as a
 * connection's would; else each newline-separated line is one packet's
 * payload, handed to gdb_handle_packet as the receiver would after a good
 * checksum). There is no connection: replies are framed and dropped. A
 * packet that kills pid 1 (k, vKill) has the machine booted again; the
 * stub's state is made fresh for every input. */
#include "fuzz_input.h"
#include "fuzz_machine.h"
#include "gdbstub_int.h"
#include "loader.h"
#include "machine.h"
#include "task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct machine *machines[2];

static struct machine *machine_for(unsigned isa_bit)
{
    struct machine *m = machines[isa_bit];
    struct task *t = m ? emu_fuzz_task(m) : NULL;
    if (m && (!t || t->state == TASK_DEAD || t->proc->exiting || t->proc->zombie)) {
        emu_fuzz_shutdown(m);
        m = NULL;
    }
    if (!m)
        m = fuzz_machine_boot(isa_bit ? LOADER_ISA_ARM : LOADER_ISA_AARCH64);
    return machines[isa_bit] = m;
}

/* The stub as a connection leaves it after accept (gdbstub.c on_listen),
 * with no descriptor: gdb attached to pid 1, the machine held. */
static void stub_init(struct gdbstub *gs, struct machine *m)
{
    memset(gs, 0, sizeof *gs);
    gs->m = m;
    gs->listen_fd = gs->fd = gs->tcp_fd = gs->tcp6_fd = -1;
    gdb_attach(gs, m->init->pid);
    gs->cur_tid = emu_fuzz_task(m)->tid;
    gs->paused = true;
}

static void stub_free(struct gdbstub *gs)
{
    while (gs->breakpoints) {
        struct gdb_breakpoint *b = gs->breakpoints;
        gs->breakpoints = b->next;
        free(b);
    }
    free(gs->attached);
    free(gs->last);
    outbuf_free(&gs->out);
}

/* Whether pid 1 lives on: `k` and `vKill;1` end it, and the rest of the
 * input then has no task to work on. */
static bool still_alive(struct machine *m)
{
    struct task *t = emu_fuzz_task(m);
    return t && t->state != TASK_DEAD && !t->proc->exiting && !t->proc->zombie;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = {data, size, 0};
    unsigned mode = (unsigned)fuzz_take(&in, 1);
    struct machine *m = machine_for(mode & 1);
    static struct gdbstub gs;
    stub_init(&gs, m);
    if (mode & 2) {
        struct gdb_rx *rx = malloc(sizeof *rx);
        memset(rx, 0, sizeof *rx);
        for (; in.pos < in.size && still_alive(m); in.pos++)
            if (gdb_rx_byte(rx, in.data[in.pos]) == GDB_RX_PACKET)
                gdb_handle_packet(&gs, rx->buf, rx->len);
        free(rx);
    } else {
        while (in.pos < in.size && still_alive(m)) {
            const uint8_t *start = in.data + in.pos, *nl = memchr(start, '\n', in.size - in.pos);
            size_t len = nl ? (size_t)(nl - start) : in.size - in.pos;
            in.pos += len + (nl != NULL);
            if (len > GDB_PACKET_MAX)
                continue; /* the receiver drops it (GDB_RX_TOO_LONG) */
            /* An exact-size heap copy, NUL-terminated as rx.buf is. */
            char *pkt = malloc(len + 1);
            memcpy(pkt, start, len);
            pkt[len] = '\0';
            gdb_handle_packet(&gs, pkt, len);
            free(pkt);
        }
    }
    stub_free(&gs);
    return 0;
}
