/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deferred.c - the lists of requests that wait for their file's object
 * (deferred.h), and the one loop that runs them again when it is
 * notified. */
#include "deferred.h"

void deferred_add(struct deferred_list *l, struct deferred_req *d, const void *key,
                  deferred_retry_fn *retry)
{
    d->kicked = false;
    d->key = key;
    d->retry = retry;
    d->next = l->head;
    l->head = d;
}

void deferred_unlink(struct deferred_list *l, struct deferred_req *d)
{
    for (struct deferred_req **p = &l->head; *p; p = &(*p)->next) {
        if (*p == d) {
            *p = d->next;
            return;
        }
    }
}

void deferred_notify(struct deferred_list *l, const void *obj)
{
    if (!l->head || !obj)
        return;
    for (struct deferred_req *d = l->head; d; d = d->next)
        if (d->key == obj)
            d->kicked = true;
    /* A request run here notifies other objects (a pipe read frees room,
     * a completion signals an eventfd): those only mark their requests,
     * which this loop runs in turn. Each turn starts again at the head:
     * the request a retry completed is freed, and its next with it. */
    if (l->busy)
        return;
    l->busy = true;
    for (;;) {
        struct deferred_req *d = l->head;
        while (d && !d->kicked)
            d = d->next;
        if (!d)
            break;
        d->kicked = false;
        d->retry(d);
    }
    l->busy = false;
}
