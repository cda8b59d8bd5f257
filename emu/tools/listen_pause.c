/* SPDX-License-Identifier: GPL-2.0-or-later */
/* listen_pause.c - see listen_pause.h. */
#include "listen_pause.h"

#include <errno.h>
#include <stdlib.h>

struct listen_pause {
    uv_timer_t timer;
    uv_poll_t *poll;
    uv_poll_cb cb;
};

struct listen_pause *listen_pause_new(uv_loop_t *loop, uv_poll_t *poll, uv_poll_cb cb)
{
    struct listen_pause *p = calloc(1, sizeof *p);
    if (!p || uv_timer_init(loop, &p->timer) < 0) {
        free(p);
        return NULL;
    }
    p->timer.data = p;
    p->poll = poll;
    p->cb = cb;
    return p;
}

static void resume(uv_timer_t *t)
{
    struct listen_pause *p = t->data;
    uv_poll_start(p->poll, UV_READABLE, p->cb);
}

bool listen_pause_after(struct listen_pause *p, int err)
{
    if (!p || (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM))
        return false;
    uv_poll_stop(p->poll);
    uv_timer_start(&p->timer, resume, LISTEN_PAUSE_MS, 0);
    return true;
}

static void free_pause(uv_handle_t *h)
{
    free(h->data);
}

void listen_pause_free(struct listen_pause *p)
{
    if (p)
        uv_close((uv_handle_t *)&p->timer, free_pause);
}
