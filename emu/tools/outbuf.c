/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outbuf.c - bytes waiting for a non-blocking socket (outbuf.h). */
#include "outbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int outbuf_add(struct outbuf *b, const void *bytes, size_t len)
{
    char *data = realloc(b->data, b->len + len);
    if (!data)
        return -ENOMEM;
    memcpy(data + b->len, bytes, len);
    b->data = data;
    b->len += len;
    return 0;
}

int outbuf_flush(struct outbuf *b, int fd)
{
    while (b->len) {
        ssize_t n = write(fd, b->data, b->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        if (n <= 0)
            return n < 0 ? -errno : -EPIPE;
        memmove(b->data, b->data + n, b->len - (size_t)n);
        b->len -= (size_t)n;
    }
    return 0;
}

void outbuf_free(struct outbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
}
