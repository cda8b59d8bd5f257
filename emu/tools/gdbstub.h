/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub.h - the gdb stub (`asymu run --gdb PORT`, docs/ptrace.md): the GDB
 * Remote Serial Protocol on a TCP socket of 127.0.0.1, served from the host
 * event loop (hostio.c) as the control socket is, to clients of the user
 * asymu runs as only (gdbstub_peer.c). gdb debugs the guest
 * processes of either ISA in all-stop mode: every stop of gdb's stops the
 * whole machine at a slice boundary, so virtual time stands still while gdb
 * holds it and the run stays what it would be without gdb.
 *
 * The calls below start and stop the stub (hostio.c) and give the
 * sandbox its socket. The stub's stops and events (signals, exec, fork,
 * exit; the engine's block hook ending a single-step) and its hooks around
 * a slice (holding the machine, its breakpoints and single-step in the
 * engine) are reached only through the debuggers' interface, stop_hooks.h,
 * in whose STOP_HOOKS_HOST slot gdbstub_start puts them: neither the
 * kernel layer nor the machine loop (run.c) names the stub. Each hook is a
 * no-op without --gdb or for a process gdb is not attached to. */
#ifndef ASYMU_GDBSTUB_H
#define ASYMU_GDBSTUB_H

#include <stddef.h>

struct machine;

/* Listens on 127.0.0.1:cfg->gdb_port (0: a port the host picks) from
 * hostio's loop (a uv_loop_t), before the sandbox, and says the port on
 * stderr. 0, or a negative errno with the reason in why. */
int gdbstub_start(struct machine *m, void *loop, char *why, size_t whylen);
/* The listening descriptor, for the sandbox's accept4 rule; -1 if none. */
int gdbstub_listen_fd(const struct machine *m);
/* The machine has ended: the connection closes after its last reply. */
void gdbstub_stop(struct machine *m);

#endif
