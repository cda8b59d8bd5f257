/* SPDX-License-Identifier: GPL-2.0-or-later */
/* listen_pause.h - the listening sockets (--control, --gdb) when accept
 * fails for want of host descriptors (EMFILE, ENFILE) or memory (ENOBUFS,
 * ENOMEM): the connection stays queued and the socket readable, so a poll
 * on it woke the event loop again at once, for ever, at a full CPU and
 * without answering (issue 24, item 8). Its poll stops instead, and starts
 * again LISTEN_PAUSE_MS later: once the machine has closed descriptors,
 * the queued connection is accepted and answered. */
#ifndef ASYMU_LISTEN_PAUSE_H
#define ASYMU_LISTEN_PAUSE_H

#include <stdbool.h>
#include <uv.h>

#define LISTEN_PAUSE_MS 100

struct listen_pause;

/* For poll, which watches a listening socket with cb: NULL without memory
 * (then no pause: the loop spins as before rather than never listening). */
struct listen_pause *listen_pause_new(uv_loop_t *loop, uv_poll_t *poll, uv_poll_cb cb);
/* accept failed with errno err: true when the poll was stopped for a while. */
bool listen_pause_after(struct listen_pause *p, int err);
/* Stops and frees it (on the loop's next turn, as uv_close does). */
void listen_pause_free(struct listen_pause *p);

#endif
