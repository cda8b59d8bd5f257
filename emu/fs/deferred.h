/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deferred.h - requests that wait for their file's object without
 * blocking their submitter: native AIO's (aio.c) and io_uring's
 * (io_uring_req.c), where Linux would queue them on the object's wait
 * queue (aio_poll_wake(), io_poll_wake()). Each kind keeps its own list
 * in the machine; file_notify_events marks the requests of the object it
 * reached and runs them again, one list after the other. */
#ifndef ASYMU_DEFERRED_H
#define ASYMU_DEFERRED_H

#include <stdbool.h>
#include <stddef.h>

struct deferred_req;

/* Runs d again. It stays on its list to wait some more, or is done:
 * deferred_unlink'd, then completed and freed. */
typedef void deferred_retry_fn(struct deferred_req *d);

/* The part of a request its list and deferred_notify know; embedded in
 * the request (deferred_entry finds the request again). */
struct deferred_req {
    struct deferred_req *next;
    bool kicked;              /* its object was notified: run it again */
    const void *key;          /* its file's file_notify_key; NULL: none */
    deferred_retry_fn *retry;
};

/* One kind's waiting requests, the newest first. */
struct deferred_list {
    struct deferred_req *head;
    bool busy; /* deferred_notify is running them */
};

/* The request whose member `member` is d. */
#define deferred_entry(d, type, member) ((type *)(void *)((char *)(d) - offsetof(type, member)))

/* d waits on l for the object key (a file's file_notify_key, or NULL for
 * a request no notify runs again); retry runs it when key is notified. */
void deferred_add(struct deferred_list *l, struct deferred_req *d, const void *key,
                  deferred_retry_fn *retry);
/* d leaves l (it completed or was cancelled). */
void deferred_unlink(struct deferred_list *l, struct deferred_req *d);
/* file_notify_events reached obj: l's requests waiting on it run again. */
void deferred_notify(struct deferred_list *l, const void *obj);

#endif
