/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control.h - the control socket (`asymu run --control PATH`, docs/control.md):
 * a Unix socket served from the host event loop (hostio.c), one request per
 * line and one JSON response per line, to look at the machine (ps, cpus,
 * regs, mem, dmesg) and to steer it (stop, cont, step, online, offline,
 * setaffinity, signal). Requests are served between two slices, so every
 * change happens at a slice boundary; the machine loop (run.c) asks here
 * whether to run at all and which tasks are held. */
#ifndef ASYMU_CONTROL_H
#define ASYMU_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

struct machine;
struct task;

/* The protocol's version, in every response. */
#define CONTROL_VERSION 1

/* Creates PATH (mode 0600; a socket already there is replaced) and listens
 * on it from hostio's loop (a uv_loop_t), before the sandbox. 0, or a
 * negative errno with the reason in why. */
int control_start(struct machine *m, void *loop, const char *path, char *why, size_t whylen);
/* The listening descriptor, for the sandbox's accept4 rule; -1 if none. */
int control_listen_fd(const struct machine *m);
/* Closes every connection; hostio_stop's loop runs the last callbacks. */
void control_stop(struct machine *m);

/* Serves a request a replay brings (recording.h) as if a client had sent
 * it, without a response; makes the socketless control state when the
 * replay has no --control. */
void control_replay_request(struct machine *m, const char *request);

/* The whole machine is stopped (`stop`, or the end of `step N`). */
bool control_paused(const struct machine *m);
/* Waits for the next host event (a request among them); false without a
 * control socket. */
bool control_wait(struct machine *m);
/* Every task waits and some are held by `stop PID`: waits as control_wait
 * does; false when no task is held (a real deadlock). */
bool control_wait_held(struct machine *m);
/* t was stopped by `stop PID` and no SIGKILL is pending: it must not run. */
bool control_task_held(const struct task *t);
/* After each slice: counts `step N` down, pausing the machine at 0. */
void control_slice_done(struct machine *m);

#endif
