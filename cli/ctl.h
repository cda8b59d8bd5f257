/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ctl.h - the clients of a control socket (docs/control.md): `asymu ctl`
 * (ctl.c) and `asymu top` (top.c). */
#ifndef ASYMU_CTL_H
#define ASYMU_CTL_H

#include <stddef.h>
#include <stdio.h>

/* `asymu ctl PATH COMMAND [ARGS...]`: one request, its response printed.
 * Exit status 0, 1 for an error response, 2 when it cannot connect (or the
 * machine ends before answering). */
int ctl_main(int argc, char **argv);

/* A connection to the control socket at path: its descriptor, or -1 with
 * errno set. */
int ctl_connect(const char *path);
/* Writes all of buf: 0, or -1 with errno set. */
int ctl_send(int fd, const char *buf, size_t len);
/* The next response line (malloc'ed, with its newline); NULL if the
 * machine closed the connection first. */
char *ctl_response(FILE *in);
/* `asymu top PATH [--interval MS]` (top.c): a terminal view of the machine
 * behind the socket, refreshed until it ends or q is pressed. */
int top_main(int argc, char **argv);

#endif
