/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub_int.h - between the gdb stub's server and machine hooks
 * (gdbstub.c), its packet handlers (gdbstub_cmds.c) and its register
 * layouts (gdbstub_regs.c): the stub's state. */
#ifndef ASYMU_GDBSTUB_INT_H
#define ASYMU_GDBSTUB_INT_H

#include "outbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <uv.h>

#include "gdbstub_packet.h"
#include "task.h"
#include "uc_fwd.h"

struct machine;

/* A software breakpoint of gdb's: a Unicorn code hook at addr in the
 * engine of process pid while one of its tasks runs (guest memory is never
 * written, so reads of it show the program's own bytes). */
struct gdb_breakpoint {
    int pid;
    uint64_t addr;
    struct gdb_breakpoint *next;
};

/* Most hooks one slice puts into an engine: breakpoints beyond are kept but
 * only the first ones of a process take effect. */
#define GDB_SLICE_HOOKS 64

struct gdbstub {
    struct machine *m;
    uv_loop_t *loop;
    int listen_fd;
    struct sockaddr_in addr; /* where it listens */
    int tcp_fd, tcp6_fd;     /* /proc/net/tcp and tcp6 (gdbstub_peer.c) */
    uv_poll_t listen_poll;
    struct listen_pause *listen_pause; /* accept short of descriptors */
    /* the one connection (-1: none) */
    int fd;
    uv_poll_t *poll;
    struct gdb_rx rx;
    struct outbuf out; /* framed bytes not written yet */
    char *last;  /* the last packet sent, for a '-' */
    size_t last_len;
    bool no_ack;         /* QStartNoAckMode */
    bool multiprocess;   /* gdb said multiprocess+: pPID.TID ids */
    bool fork_events, exec_events; /* both sides support them */
    /* all-stop state */
    bool paused;         /* gdb holds the machine */
    bool stopping;       /* a stop reply waits for the slice boundary */
    char stop_reply[512]; /* the pending stop reply, then the last one ('?') */
    int cur_tid;         /* the thread of the last stop */
    int g_tid, c_tid;    /* Hg, Hc: 0 for any */
    int *attached;       /* processes gdb debugs, by pid */
    size_t nattached, attached_cap;
    struct gdb_breakpoint *breakpoints;
    /* single-step: the task, and whether it has executed its instruction */
    int step_tid;
    bool step_moved;
    /* a signal-delivery stop: the signal (Linux numbering) and its info,
     * delivered when gdb continues with it; pass_* lets it through once */
    int sig_tid, sig;
    struct siginfo_lite sig_info;
    int pass_tid, pass_sig;
    /* hooks this slice put into the running engine, taken out after it */
    uc_engine *hooked_uc;
    uc_hook hooks[GDB_SLICE_HOOKS + 1];
    unsigned nhooks;
    bool step_hooked;
    uint64_t step_pc; /* where the step's slice began */
};

/* ---- gdbstub.c ---- */
/* Sends one packet (framed here). */
void gdb_send(struct gdbstub *gs, const char *payload, size_t len);
void gdb_send_str(struct gdbstub *gs, const char *payload);
/* Whether gdb debugs process pid; attach and detach it. */
bool gdb_attached(const struct gdbstub *gs, int pid);
void gdb_attach(struct gdbstub *gs, int pid);
void gdb_detach(struct gdbstub *gs, int pid);
/* Stops the machine now (between slices) with t's stop reply `T<sig>...`
 * sent to gdb: sig in GDB's numbering. */
void gdb_stop_now(struct gdbstub *gs, struct task *t, int gdb_sig);
/* The thread id of t as gdb reads it (pPID.TID with multiprocess). */
void gdb_format_tid(const struct gdbstub *gs, const struct task *t, char *buf, size_t len);
/* The connection ends, by gdb or by `k`/`D`: the machine runs on alone. */
void gdb_forget_client(struct gdbstub *gs);

/* ---- gdbstub_peer.c ---- */
/* Opens the host's TCP tables (before the sandbox): 0 or a negative errno. */
int gdb_peer_open(struct gdbstub *gs);
void gdb_peer_close(struct gdbstub *gs);
/* Whether the client at peer is a process of asymu's own user; if not, why. */
bool gdb_peer_allowed(struct gdbstub *gs, const struct sockaddr_in *peer, char *why, size_t len);

/* ---- gdbstub_cmds.c ---- */
void gdb_handle_packet(struct gdbstub *gs, char *pkt, size_t len);

/* ---- gdbstub_regs.c ---- */
/* The target description of t's ISA (AArch64 core + fpu, or AArch32 core + vfp). */
const char *gdb_target_xml(const struct task *t);
/* Every register in the description's order, as the `g` packet has them:
 * the byte count (at most GDB_REGS_MAX). */
#define GDB_REGS_MAX 1024
size_t gdb_regs_read(struct task *t, uint8_t *out);
/* Writes the first len bytes of that layout: 0, -E2BIG when len is longer,
 * -EINVAL (nothing written) for a status register Linux's valid_user_regs
 * refuses a tracer: mode or exception mask bits, another execution state. */
int gdb_regs_write(struct task *t, const uint8_t *in, size_t len);
/* Register regnum alone: its size written to out, or -1 with no such register. */
int gdb_reg_read(struct task *t, unsigned regnum, uint8_t *out);
/* Writes register regnum from len bytes (its exact size): 0, -ENOENT for
 * no such register or another size, or -EINVAL as gdb_regs_write. */
int gdb_reg_write(struct task *t, unsigned regnum, const uint8_t *in, size_t len);

#endif
