/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outbuf.h - bytes waiting for a non-blocking socket of the host loop (the
 * control socket's responses, the gdb stub's packets): appended whole,
 * written as the socket takes them (outbuf.c). */
#ifndef ASYMU_OUTBUF_H
#define ASYMU_OUTBUF_H

#include <stddef.h>

struct outbuf {
    char *data;
    size_t len;
};

/* Appends len bytes: 0, or -ENOMEM (nothing appended). */
int outbuf_add(struct outbuf *b, const void *bytes, size_t len);
/* Writes what fd takes now: 0 (what is left waits for fd to be writable),
 * or a negative errno when the peer is gone or the write failed. */
int outbuf_flush(struct outbuf *b, int fd);
/* Drops what waits and frees the buffer. */
void outbuf_free(struct outbuf *b);

#endif
