/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socket.c - the socket object: receive queues of messages (a stream reads
 * them as bytes, a datagram or seqpacket socket one at a time), listeners
 * with an accept queue, shutdown, poll readiness, and blocking through the
 * task wait queue. Names and ports are socket_name.c's; the syscalls, with
 * their guest structures, are sys_socket.c's. */
#include "file.h"
#include "kmem.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "signals.h"
#include "socket.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#ifndef POLLRDHUP
#define POLLRDHUP 0x2000
#endif

/* ---- lifetime ---- */

/* SO_PEERCRED: the effective ids (cred_to_ucred()). */
static struct ucred current_cred(struct task *t)
{
    const struct cred *c = &t->proc->cred;
    return (struct ucred){.pid = t->proc->pid, .uid = c->u.eff, .gid = c->g.eff};
}

struct sock *sock_new(struct task *t, int family, int type, int protocol)
{
    struct sock *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    struct machine *m = t->machine;
    s->machine = m;
    s->family = family;
    s->type = type;
    s->protocol = protocol;
    bool tcp = family != AF_UNIX && type == SOCK_STREAM;
    s->sndbuf = tcp ? TCP_SNDBUF_DEFAULT : SOCK_BUF_DEFAULT;
    s->rcvbuf = tcp ? TCP_RCVBUF_DEFAULT : SOCK_BUF_DEFAULT;
    s->owner = current_cred(t);
    s->peercred = (struct ucred){.pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1};
    s->unicast_hops = -1;
    s->next_all = m->socks;
    m->socks = s;
    return s;
}

/* A queued message counts as the machine's kernel memory (kmem.h), as a
 * socket buffer does in Linux; when there is none, the send fails with
 * ENOBUFS, as sock_alloc_send_pskb's does (alloc_skb_with_frags). */
struct sock_msg *sock_msg_alloc(struct machine *m, size_t len)
{
    if (!kmem_charge(m, sizeof(struct sock_msg) + len))
        return NULL;
    struct sock_msg *msg = calloc(1, sizeof *msg + len);
    if (!msg)
        kmem_uncharge(m, sizeof(struct sock_msg) + len);
    else
        msg->len = len;
    return msg;
}

static void msg_free(struct machine *m, struct sock_msg *msg)
{
    for (unsigned i = 0; i < msg->nrights; i++)
        file_put(msg->rights[i]);
    free(msg->rights);
    kmem_uncharge(m, sizeof *msg + msg->len);
    free(msg);
}

void sock_changed(struct sock *s)
{
    file_notify(s->machine, s);
}

/* TCP closes with a reset instead of a FIN when unread data would be lost,
 * when SO_LINGER asks for it with a zero timeout, and for a connection its
 * listener never accepted. */
static bool tcp_close_resets(const struct sock *s)
{
    return s->rq_bytes || (s->linger_onoff && s->linger_secs == 0) || !s->has_file;
}

/* A reset ends both directions; the data already queued can still be read,
 * then the error comes once (from recv, send or SO_ERROR), then the end. */
static void tcp_reset(struct sock *s, int err)
{
    s->shutdown = SHUT_RD_BIT | SHUT_WR_BIT;
    s->state = SOCK_UNCONNECTED;
    s->error = err;
}

void sock_destroy(struct sock *s)
{
    struct machine *m = s->machine;
    for (struct sock **p = &m->socks; *p; p = &(*p)->next_all) {
        if (*p == s) {
            *p = s->next_all;
            break;
        }
    }
    /* Connections never accepted go with their listener: their clients see
     * the other end closed. */
    while (s->aq_head) {
        struct sock *child = s->aq_head;
        s->aq_head = child->aq_next;
        sock_destroy(child);
    }
    /* Whoever was connected to s sees it gone: a stream reads to its end
     * and cannot write (TCP can once more: its peer's FIN only shuts the
     * read side), a datagram sender gets ECONNREFUSED once. */
    for (struct sock *o = m->socks; o; o = o->next_all) {
        if (o->peer != s)
            continue;
        o->peer = NULL;
        o->peer_closed = true;
        if (sock_is_tcp(o) && tcp_close_resets(s))
            tcp_reset(o, ECONNRESET);
        else if (sock_is_tcp(o))
            o->shutdown |= SHUT_RD_BIT;
        else if (sock_connection_based(o))
            o->shutdown = SHUT_RD_BIT | SHUT_WR_BIT;
        sock_changed(o);
    }
    while (s->rq_head) {
        struct sock_msg *msg = s->rq_head;
        s->rq_head = msg->next;
        msg_free(m, msg);
    }
    sock_changed(s);
    free(s);
}

static void sock_release(struct file *f)
{
    sock_destroy(f->priv);
}

struct file *sock_file(struct sock *s, int flags)
{
    struct file *f = file_new_object(s->machine, &sock_file_ops, s, O_RDWR | flags);
    if (f) {
        s->has_file = true;
        s->ino = f->ino;
    }
    return f;
}

struct sock *sock_from_fd(struct task *t, int fd, struct file **fp, int *err)
{
    struct file *f = file_get(t, fd);
    *err = !f ? -EBADF : f->kind != FILE_OBJECT || f->ops != &sock_file_ops ? -ENOTSOCK : 0;
    if (*err)
        return NULL;
    if (fp)
        *fp = f;
    return f->priv;
}

bool sock_connection_based(const struct sock *s)
{
    return s->type == SOCK_STREAM || s->type == SOCK_SEQPACKET;
}

bool sock_is_tcp(const struct sock *s)
{
    return (s->family == AF_INET || s->family == AF_INET6) && s->type == SOCK_STREAM;
}

void sock_pair(struct sock *a, struct sock *b)
{
    a->peer = b;
    b->peer = a;
    a->state = b->state = SOCK_CONNECTED;
    a->peercred = b->owner;
    b->peercred = a->owner;
}

/* ---- blocking ---- */

/* The bytes a woken socket call had moved, while it runs again: its own
 * task's (t->sock_resuming), so no other task's call sees them. */
uint64_t sock_progress(struct task *t)
{
    return t->sock_resuming ? t->sock_resumed : 0;
}

/* Runs the blocked socket call again; a deadline (SO_RCVTIMEO,
 * SO_SNDTIMEO) or a signal ends the wait with what was moved so far. */
static int64_t sock_resume(struct task *t)
{
    t->sock_resuming = true;
    t->sock_resumed = t->wait_args[0];
    int64_t r = t->sys_entry->fn(t, t->sys_args);
    t->sock_resuming = false;
    if (r != -EBLOCK)
        return r;
    uint64_t done = t->wait_args[0];
    /* Linux's sock_intr_errno: restartable unless a timeout was set. */
    if (signal_pending(t))
        return done ? (int64_t)done : t->deadline_ns ? -EINTR : -ERESTARTSYS;
    if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns)
        return done ? (int64_t)done : -EAGAIN;
    return RESUME_BLOCK;
}

int64_t sock_wait(struct task *t, const struct sock *obj, uint64_t done, uint64_t timeout_ns)
{
    t->wait_args[0] = done;
    t->wait_obj = obj;
    if (!t->sock_resuming)
        task_block(t, sock_resume, obj,
                   timeout_ns ? machine_now(t->machine) + timeout_ns : 0);
    return -EBLOCK;
}

/* ---- sending ---- */

static int64_t broken_pipe(struct task *t, int flags)
{
    if (!(flags & MSG_NOSIGNAL)) {
        struct siginfo_lite info = {.code = 0, .pid = t->proc->pid};
        signal_queue_task(t, SIGPIPE, &info);
    }
    return -EPIPE;
}

void sock_queue(struct sock *to, struct sock_msg *msg)
{
    if (to->rq_tail)
        to->rq_tail->next = msg;
    else
        to->rq_head = msg;
    to->rq_tail = msg;
    to->rq_bytes += msg->len;
    to->rq_count++;
    sock_changed(to);
}

static void enqueue(struct task *t, struct sock *to, const struct sock *from, const void *buf,
                    size_t len, struct sock_anc *anc, struct sock_msg *msg)
{
    memcpy(msg->data, buf, len);
    msg->len = len;
    msg->from = sock_source_name(from, to);
    /* SCM_CREDENTIALS the sender did not give: its real ids (scm_send()). */
    const struct cred *c = &t->proc->cred;
    msg->cred = anc && anc->has_cred
                    ? anc->cred
                    : (struct ucred){.pid = t->proc->pid, .uid = c->u.real, .gid = c->g.real};
    sock_pktinfo_stamp(from, anc, msg);
    if (anc && anc->nrights) {
        msg->rights = anc->rights;
        msg->nrights = anc->nrights;
        anc->rights = NULL;
        anc->nrights = 0;
    }
    sock_queue(to, msg);
}

static int64_t send_connected(struct task *t, struct sock *s, const void *buf, size_t len,
                              struct sock_anc *anc, int flags, bool nonblock)
{
    if (s->state != SOCK_CONNECTED && !(s->shutdown & SHUT_WR_BIT))
        return s->family == AF_UNIX ? -ENOTCONN : broken_pipe(t, flags);
    struct sock *peer = s->peer;
    if (s->error && sock_is_tcp(s)) { /* a reset: reported once, without SIGPIPE */
        int e = s->error;
        s->error = 0;
        return -e;
    }
    if (s->shutdown & SHUT_WR_BIT)
        return broken_pipe(t, flags);
    if (!peer) {
        if (!sock_is_tcp(s))
            return broken_pipe(t, flags);
        /* A TCP peer that closed answers the first bytes sent to it with a
         * reset: the send succeeds and the connection is over. */
        if (len) {
            s->shutdown = SHUT_RD_BIT | SHUT_WR_BIT;
            sock_changed(s);
        }
        return (int64_t)len;
    }
    if (s->type == SOCK_SEQPACKET && len > (size_t)s->sndbuf)
        return -EMSGSIZE;
    if (s->type == SOCK_STREAM && len == 0 && !(anc && anc->nrights))
        return 0; /* nothing to queue: an empty piece would read as the end */
    size_t room = peer->rq_bytes < (size_t)peer->rcvbuf ? peer->rcvbuf - peer->rq_bytes : 0;
    if (room == 0 || (s->type == SOCK_SEQPACKET && len > room && peer->rq_count)) {
        if (nonblock || (flags & MSG_DONTWAIT))
            return -EAGAIN;
        t->wait_obj = peer;
        return -EBLOCK;
    }
    size_t n = s->type == SOCK_STREAM && len > room ? room : len;
    struct sock_msg *msg = sock_msg_alloc(t->machine, n);
    if (!msg)
        return -ENOBUFS;
    enqueue(t, peer, s, buf, n, anc, msg);
    return (int64_t)n;
}

static int64_t send_datagram(struct task *t, struct sock *s, const void *buf, size_t len,
                             const struct sock_addr *to, struct sock_anc *anc, int flags,
                             bool nonblock)
{
    struct sock *dst = s->peer;
    int err = 0;
    if (s->family != AF_UNIX && !to && s->state == SOCK_CONNECTED)
        to = &s->remote;
    if (to) {
        dst = sock_lookup(t, s, to, &err);
        if (err)
            return err;
    } else if (!dst) {
        if (s->peer_closed) {
            s->peer_closed = false;
            return -ECONNREFUSED;
        }
        return s->family == AF_UNIX ? -ENOTCONN : -EDESTADDRREQ;
    }
    size_t max = s->family == AF_UNIX ? (size_t)s->sndbuf - 32
                 : s->family == AF_INET ? 65507 : 65527;
    if (len > max || len > SOCK_IO_MAX)
        return -EMSGSIZE;
    if (s->family != AF_UNIX && !s->bound && (err = sock_autobind(s)) < 0)
        return err;
    if (!dst)
        return (int64_t)len; /* no one listens on that loopback port: lost */
    if (s->family == AF_UNIX) {
        if (dst->peer && dst->peer != s)
            return -EPERM;
        if (dst->rq_count > UNIX_DGRAM_QLEN) {
            if (nonblock || (flags & MSG_DONTWAIT))
                return -EAGAIN;
            t->wait_obj = dst;
            return -EBLOCK;
        }
    } else {
        struct sock_addr src = sock_source_name(s, dst);
        if (dst->rq_bytes + len > (size_t)dst->rcvbuf ||
            (dst->state == SOCK_CONNECTED && !sock_addr_equal(&dst->remote, &src)))
            return (int64_t)len; /* UDP drops what does not fit or is not for it */
    }
    struct sock_msg *msg = sock_msg_alloc(t->machine, len);
    if (!msg)
        return -ENOBUFS;
    enqueue(t, dst, s, buf, len, anc, msg);
    return (int64_t)len;
}

int64_t sock_send(struct task *t, struct sock *s, const void *buf, size_t len,
                  const struct sock_addr *to, struct sock_anc *anc, int flags, bool nonblock)
{
    if (s->family == AF_NETLINK)
        return netlink_send(t, s, buf, len);
    if (s->state == SOCK_LISTENING)
        return s->family == AF_UNIX ? -ENOTCONN : broken_pipe(t, flags);
    if (sock_connection_based(s)) {
        if (to && s->family == AF_UNIX)
            return s->state == SOCK_CONNECTED ? -EISCONN : -EOPNOTSUPP;
        return send_connected(t, s, buf, len, anc, flags, nonblock);
    }
    return send_datagram(t, s, buf, len, to, anc, flags, nonblock);
}

/* ---- receiving ---- */

static void take_ancillary(struct sock *s, struct sock_msg *msg, struct sock_anc *anc, bool peek)
{
    if (!anc)
        return;
    if (s->passcred) {
        anc->has_cred = true;
        anc->cred = msg->cred;
    }
    sock_pktinfo_take(s, msg, anc);
    if (msg->nrights && msg->off == 0) {
        anc->rights = msg->rights;
        anc->nrights = msg->nrights;
        if (peek) {
            for (unsigned i = 0; i < msg->nrights; i++)
                file_ref(msg->rights[i]);
            anc->rights = malloc(msg->nrights * sizeof *anc->rights);
            if (anc->rights)
                memcpy(anc->rights, msg->rights, msg->nrights * sizeof *anc->rights);
            else
                anc->nrights = 0;
        } else {
            msg->rights = NULL;
            msg->nrights = 0;
        }
    }
}

static void dequeue(struct sock *s)
{
    struct sock_msg *msg = s->rq_head;
    s->rq_head = msg->next;
    if (!s->rq_head)
        s->rq_tail = NULL;
    s->rq_count--;
    msg_free(s->machine, msg);
}

/* A stream reads across messages, but stops before one that carries files,
 * so the files arrive with the bytes sent with them. */
static size_t recv_stream(struct sock *s, uint8_t *buf, size_t len, int flags,
                          struct sock_anc *anc)
{
    size_t n = 0;
    bool peek = flags & MSG_PEEK;
    struct sock_msg *msg = s->rq_head;
    while (msg && n < len) {
        if (n && msg->nrights && msg->off == 0)
            break;
        take_ancillary(s, msg, anc, peek);
        size_t k = msg->len - msg->off < len - n ? msg->len - msg->off : len - n;
        memcpy(buf + n, msg->data + msg->off, k);
        n += k;
        if (peek) {
            msg = msg->next;
            continue;
        }
        msg->off += k;
        s->rq_bytes -= k;
        if (msg->off == msg->len) {
            dequeue(s);
            msg = s->rq_head;
        }
    }
    return n;
}

int64_t sock_recv(struct task *t, struct sock *s, void *buf, size_t len, int flags,
                  bool nonblock, struct sock_addr *from, struct sock_anc *anc, size_t *msglen)
{
    if (sock_connection_based(s) && s->state != SOCK_CONNECTED && !s->peer_closed &&
        !(s->shutdown & SHUT_RD_BIT)) {
        if (s->family == AF_UNIX && s->type == SOCK_STREAM)
            return -EINVAL;
        return -ENOTCONN;
    }
    if (!s->rq_head) {
        if (s->error) {
            int e = s->error;
            s->error = 0;
            return -e;
        }
        if (s->shutdown & SHUT_RD_BIT)
            return 0;
        if (nonblock || (flags & MSG_DONTWAIT))
            return -EAGAIN;
        t->wait_obj = s;
        return -EBLOCK;
    }
    if (s->type == SOCK_STREAM) {
        if (from) /* AF_UNIX names the sender; TCP's caller drops it */
            *from = s->rq_head->from;
        size_t n = recv_stream(s, buf, len, flags, anc);
        *msglen = n;
        if (!(flags & MSG_PEEK))
            sock_changed(s);
        return (int64_t)n;
    }
    struct sock_msg *msg = s->rq_head;
    size_t n = msg->len < len ? msg->len : len;
    memcpy(buf, msg->data, n);
    *msglen = msg->len;
    if (from)
        *from = msg->from;
    take_ancillary(s, msg, anc, flags & MSG_PEEK);
    if (!(flags & MSG_PEEK)) {
        s->rq_bytes -= msg->len;
        dequeue(s);
        sock_changed(s);
    }
    return (int64_t)n;
}

/* ---- connections ---- */

int sock_listen(struct task *t, struct sock *s, int backlog)
{
    if (!sock_connection_based(s))
        return -EOPNOTSUPP;
    if (s->state == SOCK_CONNECTED)
        return -EINVAL;
    if (!s->bound) {
        if (s->family == AF_UNIX)
            return -EINVAL;
        int err = sock_autobind(s);
        if (err < 0)
            return err;
    }
    if ((unsigned)backlog > SOCK_SOMAXCONN)
        backlog = SOCK_SOMAXCONN;
    s->backlog = backlog;
    s->state = SOCK_LISTENING;
    s->owner = current_cred(t); /* what connectors see as SO_PEERCRED */
    return 0;
}

/* A connection is established at once: the listener's child waits in its
 * accept queue already connected to s. */
static int64_t connect_stream(struct task *t, struct sock *s, const struct sock_addr *to,
                              bool nonblock)
{
    if (s->state == SOCK_CONNECTED) {
        if (s->connect_pending) {
            s->connect_pending = false;
            return 0;
        }
        return -EISCONN;
    }
    if (s->state == SOCK_LISTENING)
        return -EINVAL;
    int err;
    struct sock *l = sock_lookup(t, s, to, &err);
    if (!l) {
        if (err == -ECONNREFUSED && nonblock && s->family != AF_UNIX) {
            /* TCP reports a refused non-blocking connect later, in SO_ERROR. */
            s->error = ECONNREFUSED;
            s->shutdown = SHUT_RD_BIT | SHUT_WR_BIT;
            sock_changed(s);
            return -EINPROGRESS;
        }
        return err;
    }
    if (l->aq_count > l->backlog && !(nonblock && s->family != AF_UNIX)) {
        if (nonblock)
            return -EAGAIN;
        return sock_wait(t, l, 0, s->sndtimeo_ns);
    }
    if (!s->bound && (s->family != AF_UNIX || s->passcred) && (err = sock_autobind(s)) < 0)
        return err;
    struct sock *child = sock_new(t, l->family, l->type, l->protocol);
    if (!child)
        return -ENOMEM;
    child->sndbuf = l->sndbuf;
    child->rcvbuf = l->rcvbuf;
    child->passcred = l->passcred;
    child->nodelay = l->nodelay;
    child->keepalive = l->keepalive;
    child->v6only = l->v6only;
    /* SO_PEERCRED: the client sees the listener's creator at listen(), the
     * accepted end sees the connecting process. */
    child->owner = l->owner;
    sock_pair(s, child);
    child->peercred = current_cred(t);
    sock_connected_names(s, child, l, to);
    if (l->aq_tail)
        l->aq_tail->aq_next = child;
    else
        l->aq_head = child;
    l->aq_tail = child;
    l->aq_count++;
    sock_changed(l);
    sock_changed(s);
    if (nonblock && s->family != AF_UNIX) {
        s->connect_pending = true;
        return -EINPROGRESS;
    }
    return 0;
}

int64_t sock_connect(struct task *t, struct sock *s, const struct sock_addr *to, bool nonblock)
{
    if (sock_connection_based(s))
        return connect_stream(t, s, to, nonblock);
    if (s->family == AF_NETLINK) {
        /* Every request goes to the kernel, whatever the default destination. */
        if (!s->bound)
            netlink_autobind(t, s);
        s->remote = *to;
        return 0;
    }
    if (to->family == AF_UNSPEC) {
        s->peer = NULL;
        s->state = SOCK_UNCONNECTED;
        s->remote.len = 0;
        return 0;
    }
    int err;
    struct sock *dst = sock_lookup(t, s, to, &err);
    if (err)
        return err;
    if (s->family == AF_UNIX) {
        if (dst->peer && dst->peer != s)
            return -EPERM;
        s->peer = dst;
        s->remote = dst->local;
    } else {
        if (!s->bound && (err = sock_autobind(s)) < 0)
            return err;
        s->remote = *to;
        s->state = SOCK_CONNECTED;
    }
    s->peer_closed = false;
    return 0;
}

int64_t sock_accept(struct task *t, struct sock *s, bool nonblock, struct sock **child)
{
    if (!sock_connection_based(s))
        return -EOPNOTSUPP;
    if (s->state != SOCK_LISTENING)
        return -EINVAL;
    if (!s->aq_head) {
        if (nonblock)
            return -EAGAIN;
        return sock_wait(t, s, 0, s->rcvtimeo_ns);
    }
    *child = s->aq_head;
    s->aq_head = (*child)->aq_next;
    if (!s->aq_head)
        s->aq_tail = NULL;
    (*child)->aq_next = NULL;
    s->aq_count--;
    sock_changed(s);
    return 0;
}

int sock_shutdown(struct sock *s, int how)
{
    if (how < SHUT_RD || how > SHUT_RDWR)
        return -EINVAL;
    unsigned bits = how == SHUT_RD ? SHUT_RD_BIT : how == SHUT_WR ? SHUT_WR_BIT
                                                                  : SHUT_RD_BIT | SHUT_WR_BIT;
    if (s->family != AF_UNIX && s->state == SOCK_UNCONNECTED)
        return -ENOTCONN;
    s->shutdown |= bits;
    struct sock *peer = sock_connection_based(s) ? s->peer : NULL;
    if (peer) {
        /* The other end can no longer read what we will not write; AF_UNIX
         * also tells it we will not read. */
        if (bits & SHUT_WR_BIT)
            peer->shutdown |= SHUT_RD_BIT;
        if ((bits & SHUT_RD_BIT) && s->family == AF_UNIX)
            peer->shutdown |= SHUT_WR_BIT;
        sock_changed(peer);
    }
    sock_changed(s);
    return 0;
}

int sock_inq(const struct sock *s)
{
    if (s->state == SOCK_LISTENING)
        return 0;
    if (s->type == SOCK_DGRAM)
        return s->rq_head ? (int)s->rq_head->len : 0;
    return (int)s->rq_bytes;
}

/* ---- the file ---- */

static short sock_poll(struct task *t, struct file *f)
{
    (void)t;
    struct sock *s = f->priv;
    short mask = s->error ? POLLERR : 0;
    if (s->state == SOCK_LISTENING)
        return (short)(mask | (s->aq_head ? POLLIN : 0));
    if (s->shutdown == (SHUT_RD_BIT | SHUT_WR_BIT))
        mask |= POLLHUP;
    if (s->shutdown & SHUT_RD_BIT)
        mask |= POLLIN | POLLRDHUP;
    if (s->rq_head)
        mask |= POLLIN;
    if (sock_connection_based(s) && s->state == SOCK_UNCONNECTED)
        mask |= POLLHUP;
    struct sock *p = s->peer;
    bool full = p && (sock_connection_based(s) ? p->rq_bytes >= (size_t)p->rcvbuf
                                               : p->rq_count > UNIX_DGRAM_QLEN);
    if (!full || (s->shutdown & SHUT_WR_BIT))
        mask |= POLLOUT;
    return mask;
}

static int64_t sock_read(struct task *t, struct file *f, void *buf, size_t len)
{
    size_t msglen;
    return sock_recv(t, f->priv, buf, len, 0, f->flags & O_NONBLOCK, NULL, NULL, &msglen);
}

static int64_t sock_write(struct task *t, struct file *f, const void *buf, size_t len)
{
    return sock_send(t, f->priv, buf, len, NULL, NULL, 0, f->flags & O_NONBLOCK);
}

static int64_t sock_ioctl(struct task *t, struct file *f, unsigned long req, uint64_t arg)
{
    if (req != FIONREAD)
        return netif_ioctl(t, req, arg);
    int n = sock_inq(f->priv);
    return copy_to_guest(task_mm(t), arg, &n, sizeof n);
}

const struct file_ops sock_file_ops = {
    .name = "socket:",
    .read = sock_read,
    .write = sock_write,
    .poll = sock_poll,
    .ioctl = sock_ioctl,
    .fasync = true,
    .release = sock_release,
    .mode = S_IFSOCK | 0777,
};
