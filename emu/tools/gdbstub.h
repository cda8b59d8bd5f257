/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub.h - the gdb stub (`asymu run --gdb PORT`, docs/ptrace.md): the GDB
 * Remote Serial Protocol on a TCP socket of 127.0.0.1, served from the host
 * event loop (hostio.c) as the control socket is, to clients of the user
 * asymu runs as only (gdbstub_peer.c). gdb debugs the guest
 * processes of either ISA in all-stop mode: every stop of gdb's stops the
 * whole machine at a slice boundary, so virtual time stands still while gdb
 * holds it and the run stays what it would be without gdb.
 *
 * The hooks below are what the machine layer calls. The stub's stops and
 * events (signals, exec, fork, exit; the engine's block hook ending a
 * single-step) are reached only through the debuggers' interface,
 * stop_hooks.h, in whose STOP_HOOKS_HOST slot gdbstub_start puts them: the
 * kernel layer never names the stub. Each is a no-op without --gdb or for
 * a process gdb is not attached to. */
#ifndef ASYMU_GDBSTUB_H
#define ASYMU_GDBSTUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct machine;
struct task;

/* Listens on 127.0.0.1:cfg->gdb_port (0: a port the host picks) from
 * hostio's loop (a uv_loop_t), before the sandbox, and says the port on
 * stderr. 0, or a negative errno with the reason in why. */
int gdbstub_start(struct machine *m, void *loop, char *why, size_t whylen);
/* The listening descriptor, for the sandbox's accept4 rule; -1 if none. */
int gdbstub_listen_fd(const struct machine *m);
/* The machine has ended: the connection closes after its last reply. */
void gdbstub_stop(struct machine *m);

/* gdb holds the machine (a stop it has not continued from); a stop
 * recorded in the last slice goes to gdb now, at the slice boundary. */
bool gdbstub_paused(struct machine *m);
/* Waits for the next host event (gdb's packets among them). */
bool gdbstub_wait(struct machine *m);
/* A stop is on its way to gdb: the task loaded must not run on. */
bool gdbstub_stopping(const struct machine *m);
/* run_slice, registers loaded: puts gdb's breakpoints and single-step into
 * the engine t runs on. */
void gdbstub_before_slice(struct task *t);
/* After t's slice: the hooks leave the engine again. */
void gdbstub_after_slice(struct task *t);

#endif
