/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control_requests.h - between the control socket's server (control.c) and
 * its requests (control_requests.c): the server's state, one request line
 * in, JSON response lines out. */
#ifndef ASYMU_CONTROL_REQUESTS_H
#define ASYMU_CONTROL_REQUESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct machine;
struct control_client;

struct control {
    struct machine *m;
    uv_loop_t *loop;
    int listen_fd;
    uv_poll_t listen_poll;
    struct listen_pause *listen_pause; /* accept short of descriptors */
    struct control_client *clients;
    bool paused;         /* the whole machine is stopped */
    uint64_t steps_left; /* slices `step N` still runs before pausing */
    struct control_client *stepper; /* waits for the response of `step N` */
};

/* Serves one request line (NUL-terminated, without its newline): replies
 * now, or for `step N` once the steps are done (control_steps_done). */
void control_request(struct control *ctl, struct control_client *cl, char *line, size_t len);
/* A line longer than the server takes: its error (the rest is dropped). */
void control_request_too_long(struct control *ctl, struct control_client *cl);
/* Queues one response line (a newline is added) for cl. */
void control_reply(struct control_client *cl, const char *line);
/* `step N` has run its slices: its response goes out. */
void control_steps_done(struct control *ctl);
/* cl is going: no response is owed to it any more. */
void control_forget_client(struct control *ctl, struct control_client *cl);
/* The machine ends: a pending `step` is answered with what it ran. */
void control_machine_ended(struct control *ctl);

#endif
