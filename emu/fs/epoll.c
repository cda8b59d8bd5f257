/* SPDX-License-Identifier: GPL-2.0-or-later */
/* epoll.c - epoll instances: an interest list of (file description, fd)
 * items, the ready order Linux's ready list keeps, level- and
 * edge-triggered reporting, EPOLLONESHOT, nesting (an epoll is readable
 * while it has something to report), and epoll_wait blocking on virtual
 * time. An item is queued ("on the ready list") by a file_notify_events of
 * its object whose events it watches; edge-triggered and oneshot items are
 * reported only when queued, level-triggered ones whenever ready. */
#include "event.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>

/* struct epoll_event is 16 bytes on arm64 and armhf alike: u32 events, 4
 * bytes of padding, u64 data (only x86-64 packs it into 12). */
#define EVENT_SIZE 16
#define EVENT_DATA_OFFSET 8
#define EP_MAX_EVENTS (INT_MAX / EVENT_SIZE)
#define EP_MAX_NESTS 4
/* Flags that steer an item rather than name events it waits for. */
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
#define EP_EXCLUSIVE_OK_BITS (EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)

struct epoll {
    struct machine *machine;
    struct epitem *items; /* the interest list, in the order of EPOLL_CTL_ADD */
    uint64_t clock;       /* stamps the ready order */
};

struct epitem {
    struct epoll *ep;
    struct file *file;   /* watched, without a reference: it removes us when it goes */
    int fd;              /* the fd it was added as: (file, fd) is the key */
    uint32_t events;     /* as asked, plus EPOLLERR|EPOLLHUP; only the private
                            bits once a oneshot has fired */
    uint64_t data;
    bool queued;         /* on the ready list: woken since its last report */
    uint64_t order;      /* its place on the ready list */
    struct epitem *next;      /* ep->items */
    struct epitem *next_file; /* file->epitems */
    struct epitem *next_watching; /* the machine's items watching the same object's bucket */
};

static const struct file_ops epoll_ops;

static struct epoll *epoll_of(struct file *f)
{
    return f && f->kind == FILE_OBJECT && f->ops == &epoll_ops ? f->priv : NULL;
}

/* Whether f has a poll operation Linux would let epoll watch: not regular
 * files, directories or the virtual /proc and /dev nodes. */
static bool pollable(const struct file *f)
{
    struct stat st;
    switch (f->kind) {
    case FILE_PIPE:
        return true;
    case FILE_OBJECT:
        return f->ops->poll != NULL;
    case FILE_CONSOLE:
        return fstat(f->host_fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    case FILE_VIRTUAL:
        /* trace_pipe and trace_pipe_raw have a ->poll (tracing_poll_pipe(),
         * tracing_buffers_poll()) */
        return file_is_tracing_pipe(f);
    default:
        return false;
    }
}

static void queue_item(struct epitem *it)
{
    if (!it->queued) {
        it->queued = true;
        it->order = ++it->ep->clock;
    }
}

/* The machine's epoll items hashed by the object they watch
 * (file_notify_key), so that a notify looks only at its own watchers. */
#define WATCH_BUCKETS 1024u

static struct epitem **watching(const struct machine *m, const void *obj)
{
    uint64_t h = (uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15ull;
    return &m->epitems[(h >> 32) % WATCH_BUCKETS];
}

struct file *epoll_target(struct file *f, int tfd, uint64_t toff, int *err)
{
    struct epoll *ep = epoll_of(f);
    *err = ep ? -ENOENT : -EINVAL;
    for (struct epitem *it = ep ? ep->items : NULL; it; it = it->next)
        if (it->fd == tfd && toff-- == 0)
            return it->file;
    return NULL;
}

void epoll_machine_free(struct machine *m)
{
    free(m->epitems);
    m->epitems = NULL;
}

void epoll_notify(struct machine *m, const void *obj, unsigned events)
{
    if (!m->epitems)
        return;
    for (struct epitem *it = *watching(m, obj); it; it = it->next_watching) {
        uint32_t want = it->events & ~(uint32_t)EP_PRIVATE_BITS;
        if (!want || !(events & want) || file_notify_key(it->file) != obj)
            continue;
        queue_item(it);
        /* The epoll has something to report: its own waiters and watchers. */
        file_notify_events(m, it->ep, POLLIN);
    }
}

/* The events of it ready now. */
static uint32_t item_poll(struct task *t, const struct epitem *it)
{
    return (uint16_t)file_poll(t, it->file) & it->events & ~(uint32_t)EP_PRIVATE_BITS;
}

static bool reportable(struct task *t, const struct epitem *it)
{
    return (it->queued || !(it->events & EPOLLET)) && item_poll(t, it);
}

static short epoll_poll(struct task *t, struct file *f)
{
    struct epoll *ep = f->priv;
    for (struct epitem *it = ep->items; it; it = it->next)
        if (reportable(t, it))
            return POLLIN | POLLRDNORM;
    return 0;
}

/* Removes it from a list whose links sit at link_offset in each item. */
static void unlink_item(struct epitem **head, struct epitem *it, size_t link_offset)
{
    for (struct epitem **pp = head; *pp; pp = (struct epitem **)((char *)*pp + link_offset))
        if (*pp == it) {
            *pp = *(struct epitem **)((char *)it + link_offset);
            return;
        }
}

/* Unlinks it from its epoll's, its file's and the machine's lists, and frees it. */
static void free_item(struct epitem *it)
{
    unlink_item(&it->ep->items, it, offsetof(struct epitem, next));
    unlink_item(&it->file->epitems, it, offsetof(struct epitem, next_file));
    unlink_item(watching(it->ep->machine, file_notify_key(it->file)), it,
                offsetof(struct epitem, next_watching));
    free(it);
}

void epoll_file_released(struct file *f)
{
    while (f->epitems)
        free_item(f->epitems);
}

static void epoll_release(struct file *f)
{
    struct epoll *ep = f->priv;
    while (ep->items)
        free_item(ep->items);
    free(ep);
}

static const struct file_ops epoll_ops = {
    .name = "anon_inode:[eventpoll]",
    .poll = epoll_poll,
    .release = epoll_release,
    .mode = 0600,
};

static int64_t create_epoll(struct task *t, bool cloexec)
{
    struct epoll *ep = calloc(1, sizeof *ep);
    if (!ep)
        return -ENOMEM;
    ep->machine = t->machine;
    return anon_inode_fd(t, &epoll_ops, ep, O_RDWR, cloexec);
}

SYSCALL_DECL(epoll_create1)
{
    if (a[0] & ~(uint64_t)EPOLL_CLOEXEC)
        return -EINVAL;
    return create_epoll(t, a[0] & EPOLL_CLOEXEC);
}

SYSCALL_DECL(epoll_create)
{
    if ((int32_t)a[0] <= 0)
        return -EINVAL;
    return create_epoll(t, false);
}

/* Whether adding `inner` to `outer` would close a loop of epolls or nest
 * them deeper than Linux allows. */
static bool would_loop(const struct epoll *inner, const struct epoll *outer, int depth)
{
    for (const struct epitem *it = inner->items; it; it = it->next) {
        const struct epoll *sub = epoll_of(it->file);
        if (sub && (sub == outer || depth > EP_MAX_NESTS || would_loop(sub, outer, depth + 1)))
            return true;
    }
    return false;
}

static struct epitem *find_item(struct epoll *ep, const struct file *f, int fd)
{
    for (struct epitem *it = ep->items; it; it = it->next)
        if (it->file == f && it->fd == fd)
            return it;
    return NULL;
}

/* A new item at the end of ep's interest list, or NULL. */
static struct epitem *add_item(struct epoll *ep, struct file *f, int fd, uint32_t events,
                               uint64_t data)
{
    struct machine *m = ep->machine;
    if (!m->epitems && !(m->epitems = calloc(WATCH_BUCKETS, sizeof *m->epitems)))
        return NULL;
    struct epitem *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    *it = (struct epitem){.ep = ep, .file = f, .fd = fd, .events = events, .data = data};
    struct epitem **tail = &ep->items;
    while (*tail)
        tail = &(*tail)->next;
    *tail = it;
    it->next_file = f->epitems;
    f->epitems = it;
    struct epitem **w = watching(m, file_notify_key(f));
    it->next_watching = *w;
    *w = it;
    return it;
}

/* After an ADD or a MOD, as Linux does: queued if ready now, and the
 * epoll's waiters hear of it. */
static void recheck_item(struct task *t, struct epitem *it)
{
    if (item_poll(t, it)) {
        queue_item(it);
        file_notify_events(t->machine, it->ep, POLLIN);
    }
}

/* epoll_ctl(epfd, op, fd, event) */
SYSCALL_DECL(epoll_ctl)
{
    int epfd = (int)a[0], op = (int)a[1], fd = (int)a[2];
    uint8_t raw[EVENT_SIZE];
    uint32_t events = 0;
    uint64_t data = 0;
    if (op != EPOLL_CTL_DEL) {
        if (copy_from_guest(task_mm(t), raw, a[3], sizeof raw) < 0)
            return -EFAULT;
        memcpy(&events, raw, sizeof events);
        memcpy(&data, raw + EVENT_DATA_OFFSET, sizeof data);
    }
    struct file *f = file_get(t, epfd), *tf = file_get(t, fd);
    if (!f || !tf)
        return -EBADF;
    if (!pollable(tf))
        return -EPERM;
    struct epoll *ep = epoll_of(f);
    if (f == tf || !ep)
        return -EINVAL;
    if (op != EPOLL_CTL_DEL && (events & EPOLLEXCLUSIVE) &&
        (op == EPOLL_CTL_MOD || epoll_of(tf) || (events & ~(uint32_t)EP_EXCLUSIVE_OK_BITS)))
        return -EINVAL;
    if (op == EPOLL_CTL_ADD && epoll_of(tf) && would_loop(epoll_of(tf), ep, 0))
        return -ELOOP;
    struct epitem *it = find_item(ep, tf, fd);
    events |= EPOLLERR | EPOLLHUP;
    switch (op) {
    case EPOLL_CTL_ADD:
        if (it)
            return -EEXIST;
        if (!(it = add_item(ep, tf, fd, events, data)))
            return -ENOMEM;
        recheck_item(t, it);
        return 0;
    case EPOLL_CTL_DEL:
        if (!it)
            return -ENOENT;
        free_item(it);
        return 0;
    case EPOLL_CTL_MOD:
        if (!it)
            return -ENOENT;
        if (it->events & EPOLLEXCLUSIVE)
            return -EINVAL;
        it->events = events;
        it->data = data;
        recheck_item(t, it);
        return 0;
    default:
        return -EINVAL;
    }
}

/* ---- waiting ---- */

static size_t count_items(const struct epoll *ep)
{
    size_t n = 0;
    for (const struct epitem *it = ep->items; it; it = it->next)
        n++;
    return n;
}

struct candidate {
    struct epitem *it;
    uint64_t order; /* queued items by their place, then the others */
};

static int by_order(const void *x, const void *y)
{
    const struct candidate *a = x, *b = y;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Reports up to max ready items of ep into out (EVENT_SIZE bytes each),
 * in ready-list order, updating each item as Linux's ep_send_events does. */
static int collect(struct task *t, struct epoll *ep, uint8_t *out, int max)
{
    size_t n = count_items(ep);
    struct candidate *c = calloc(n ? n : 1, sizeof *c);
    if (!c)
        return -ENOMEM;
    size_t k = 0;
    uint64_t unqueued = UINT64_MAX - n;
    for (struct epitem *it = ep->items; it; it = it->next)
        if (it->queued || !(it->events & EPOLLET))
            c[k++] = (struct candidate){it, it->queued ? it->order : unqueued++};
    qsort(c, k, sizeof *c, by_order);
    int got = 0;
    for (size_t i = 0; i < k && got < max; i++) {
        struct epitem *it = c[i].it;
        uint32_t ready = item_poll(t, it);
        if (!ready) {
            it->queued = false; /* dropped from the ready list */
            continue;
        }
        uint8_t *e = out + (size_t)got++ * EVENT_SIZE;
        memset(e, 0, EVENT_SIZE);
        memcpy(e, &ready, sizeof ready);
        memcpy(e + EVENT_DATA_OFFSET, &it->data, sizeof it->data);
        if (it->events & EPOLLONESHOT) {
            it->events &= EP_PRIVATE_BITS;
            it->queued = false;
        } else if (it->events & EPOLLET) {
            it->queued = false;
        } else {
            /* Level-triggered: back at the tail of the ready list. */
            it->queued = false;
            queue_item(it);
        }
    }
    free(c);
    return got;
}

/* wait_args: [0] epfd, [1] the guest events array, [2] maxevents, [5] a
 * zero timeout. */
static int64_t resume_epoll_wait(struct task *t)
{
    struct epoll *ep = epoll_of(file_get(t, (int)t->wait_args[0]));
    if (!ep)
        return -EBADF; /* closed by another thread while waiting */
    size_t n = count_items(ep);
    int max = (int)t->wait_args[2] < (int)n ? (int)t->wait_args[2] : (int)n;
    uint8_t *out = malloc((size_t)(max ? max : 1) * EVENT_SIZE);
    if (!out)
        return -ENOMEM;
    int got = collect(t, ep, out, max);
    if (got > 0 && copy_to_guest(task_mm(t), t->wait_args[1], out, (size_t)got * EVENT_SIZE) < 0)
        got = -EFAULT;
    free(out);
    if (got != 0)
        return got;
    if (t->wait_args[5] || (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns))
        return 0;
    if (signal_pending(t))
        return -EINTR;
    return RESUME_BLOCK;
}

/* The core of every epoll wait: timeout_ns < 0 waits for ever. */
static int64_t epoll_wait_ns(struct task *t, int epfd, uint64_t events, int maxevents,
                             int64_t timeout_ns)
{
    if (maxevents <= 0 || maxevents > EP_MAX_EVENTS)
        return -EINVAL;
    struct file *f = file_get(t, epfd);
    struct epoll *ep = epoll_of(f);
    if (!f)
        return -EBADF;
    if (!ep)
        return -EINVAL;
    t->wait_args[0] = (uint64_t)epfd;
    t->wait_args[1] = events;
    t->wait_args[2] = (uint64_t)maxevents;
    t->wait_args[5] = timeout_ns == 0;
    uint64_t deadline = timeout_ns > 0 ? machine_now(t->machine) + (uint64_t)timeout_ns : 0;
    t->deadline_ns = deadline;
    int64_t r = resume_epoll_wait(t);
    if (r != RESUME_BLOCK)
        return r;
    task_block(t, resume_epoll_wait, ep, deadline);
    return -EBLOCK;
}

static int64_t ms_to_ns(int32_t ms)
{
    return ms < 0 ? -1 : (int64_t)ms * 1000000;
}

/* epoll_wait(epfd, events, maxevents, timeout_ms): armhf only. */
SYSCALL_DECL(epoll_wait)
{
    return epoll_wait_ns(t, (int)a[0], a[1], (int)a[2], ms_to_ns((int32_t)a[3]));
}

/* epoll_pwait(epfd, events, maxevents, timeout_ms, sigmask, sigsetsize) */
SYSCALL_DECL(epoll_pwait)
{
    int err = wait_with_mask(t, a[4], a[5]);
    if (err < 0)
        return err;
    return epoll_wait_ns(t, (int)a[0], a[1], (int)a[2], ms_to_ns((int32_t)a[3]));
}

/* epoll_pwait2(epfd, events, maxevents, timeout, sigmask, sigsetsize): the
 * timeout a struct __kernel_timespec (64-bit fields on both ABIs), NULL
 * for none. */
SYSCALL_DECL(epoll_pwait2)
{
    int64_t ns = -1;
    if (a[3] && (ns = timespec_from_guest(t, a[3], 8)) < 0)
        return ns;
    int err = wait_with_mask(t, a[4], a[5]);
    if (err < 0)
        return err;
    return epoll_wait_ns(t, (int)a[0], a[1], (int)a[2], ns);
}
