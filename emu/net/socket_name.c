/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socket_name.c - what sockets are called and how they are found: AF_UNIX
 * path names (a real socket node in the guest's file system, found again by
 * its host inode), abstract names and autobind, and AF_INET/AF_INET6 ports on
 * the machine's loopback (127.0.0.0/8, ::1), where anything else is
 * unreachable. */
#include "fs_calls.h"
#include "machine.h"
#include "mm.h"
#include "owner.h"
#include "socket.h"
#include "syscalls.h"
#include "task.h"
#include "vfs.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EPHEMERAL_FIRST 32768
#define EPHEMERAL_LAST 60999
#define SUN_PATH_OFFSET offsetof(struct sockaddr_un, sun_path)

/* ---- guest sockaddrs ---- */

int sock_addr_from_guest(struct task *t, const struct sock *s, uint64_t uaddr, uint64_t len,
                         struct sock_addr *out)
{
    memset(out, 0, sizeof *out);
    if (len < sizeof(sa_family_t) || len > sizeof out->raw)
        return -EINVAL;
    if (copy_from_guest(task_mm(t), out->raw, uaddr, (size_t)len) < 0)
        return -EFAULT;
    out->len = (socklen_t)len;
    if (out->family == AF_UNSPEC && s->type == SOCK_DGRAM)
        return 0; /* connect(AF_UNSPEC) dissolves a datagram association */
    switch (s->family) {
    case AF_UNIX:
        if (out->family != AF_UNIX)
            return -EINVAL;
        if (len > sizeof(sa_family_t) && out->un.sun_path[0])
            out->len = (socklen_t)(SUN_PATH_OFFSET +
                                   strnlen(out->un.sun_path, len - SUN_PATH_OFFSET) + 1);
        return 0;
    case AF_NETLINK:
        if (out->family != AF_NETLINK || len < sizeof out->nl)
            return -EINVAL;
        out->len = sizeof out->nl;
        return 0;
    case AF_INET:
        if (out->family != AF_INET)
            return -EAFNOSUPPORT;
        if (len < sizeof out->in)
            return -EINVAL;
        out->len = sizeof out->in;
        memset(out->in.sin_zero, 0, sizeof out->in.sin_zero);
        return 0;
    default:
        if (out->family != AF_INET6)
            return -EAFNOSUPPORT;
        if (len < 24 /* SIN6_LEN_RFC2133: without sin6_scope_id */)
            return -EINVAL;
        out->len = sizeof out->in6;
        return 0;
    }
}

int sock_addr_to_guest(struct task *t, const struct sock_addr *a, uint64_t uaddr, uint64_t ulen)
{
    int32_t room;
    if (copy_from_guest(task_mm(t), &room, ulen, sizeof room) < 0)
        return -EFAULT;
    if (room < 0)
        return -EINVAL;
    size_t n = a->len < (uint32_t)room ? a->len : (size_t)room;
    if (n && copy_to_guest(task_mm(t), uaddr, a->raw, n) < 0)
        return -EFAULT;
    int32_t full = (int32_t)a->len;
    return copy_to_guest(task_mm(t), ulen, &full, sizeof full);
}

/* ---- AF_INET and AF_INET6 on loopback ---- */

/* An address as IPv6 (IPv4 ones mapped, ::ffff:a.b.c.d) and a port. */
struct inet_key {
    struct in6_addr ip;
    uint16_t port; /* host order */
};

static struct inet_key inet_key(const struct sock_addr *a)
{
    struct inet_key k = {.port = 0};
    if (a->family == AF_INET) {
        k.ip.s6_addr[10] = k.ip.s6_addr[11] = 0xff;
        memcpy(&k.ip.s6_addr[12], &a->in.sin_addr, 4);
        k.port = ntohs(a->in.sin_port);
    } else if (a->family == AF_INET6) {
        k.ip = a->in6.sin6_addr;
        k.port = ntohs(a->in6.sin6_port);
    }
    return k;
}

static bool key_is_v4(const struct inet_key *k)
{
    return IN6_IS_ADDR_V4MAPPED(&k->ip);
}

static bool key_is_any(const struct inet_key *k)
{
    static const uint8_t v4any[16] = {[10] = 0xff, [11] = 0xff};
    return IN6_IS_ADDR_UNSPECIFIED(&k->ip) || memcmp(k->ip.s6_addr, v4any, 16) == 0;
}

static bool key_is_loopback(const struct inet_key *k)
{
    return key_is_v4(k) ? k->ip.s6_addr[12] == 127 : IN6_IS_ADDR_LOOPBACK(&k->ip);
}

/* A key as a sockaddr of `family` (a v6 socket shows IPv4 peers mapped). */
static struct sock_addr inet_name(int family, const struct inet_key *k)
{
    struct sock_addr a;
    memset(&a, 0, sizeof a);
    if (family == AF_INET) {
        a.len = sizeof a.in;
        a.in.sin_family = AF_INET;
        a.in.sin_port = htons(k->port);
        memcpy(&a.in.sin_addr, &k->ip.s6_addr[12], 4);
    } else {
        a.len = sizeof a.in6;
        a.in6.sin6_family = AF_INET6;
        a.in6.sin6_port = htons(k->port);
        a.in6.sin6_addr = k->ip;
    }
    return a;
}

/* The loopback source address for reaching k. */
static struct inet_key loopback_for(const struct inet_key *k)
{
    struct inet_key src = {.ip = in6addr_loopback, .port = 0};
    if (key_is_v4(k)) {
        memset(&src.ip, 0, sizeof src.ip);
        src.ip.s6_addr[10] = src.ip.s6_addr[11] = 0xff;
        src.ip.s6_addr[12] = 127;
        src.ip.s6_addr[15] = 1;
    }
    return src;
}

/* Whether a socket bound to `a` receives what is sent to `dst`. */
static bool inet_covers(const struct sock *s, const struct inet_key *dst)
{
    struct inet_key a = inet_key(&s->local);
    if (key_is_v4(dst) && s->family == AF_INET6 && s->v6only)
        return false;
    if (key_is_v4(dst) != key_is_v4(&a) && !(s->family == AF_INET6 && IN6_IS_ADDR_UNSPECIFIED(&a.ip)))
        return false;
    return key_is_any(&a) || memcmp(&a.ip, &dst->ip, sizeof a.ip) == 0;
}

/* Whether two bound names would receive some of the same packets. */
static bool inet_overlap(const struct sock *a, const struct sock *b)
{
    struct inet_key ka = inet_key(&a->local), kb = inet_key(&b->local);
    return inet_covers(a, &kb) || inet_covers(b, &ka) ||
           (key_is_any(&ka) && key_is_any(&kb) &&
            !(a->family == AF_INET6 && a->v6only) == !(b->family == AF_INET6 && b->v6only));
}

/* TCP, UDP and UDP-Lite each have their own ports. */
static bool same_protocol(const struct sock *a, const struct sock *b)
{
    return a->family != AF_UNIX && b->family != AF_UNIX && a->protocol == b->protocol;
}

/* EADDRINUSE unless SO_REUSEPORT on both, or SO_REUSEADDR on both and (for
 * TCP) neither listens. */
static int inet_conflict(const struct sock *s, uint16_t port)
{
    for (const struct sock *o = s->machine->socks; o; o = o->next_all) {
        if (o == s || !o->bound || !same_protocol(s, o) || inet_key(&o->local).port != port)
            continue;
        if (!inet_overlap(s, o))
            continue;
        if (s->reuseport && o->reuseport)
            continue;
        if (s->reuseaddr && o->reuseaddr &&
            (s->type == SOCK_DGRAM || (o->state != SOCK_LISTENING && s->state != SOCK_LISTENING)))
            continue;
        return -EADDRINUSE;
    }
    return 0;
}

static void set_port(struct sock *s, uint16_t port)
{
    if (s->family == AF_INET)
        s->local.in.sin_port = htons(port);
    else
        s->local.in6.sin6_port = htons(port);
}

/* The next free ephemeral port, in order from the last one handed out (Linux
 * starts at a random place; asymu's runs must repeat). */
static int inet_ephemeral(struct sock *s)
{
    struct machine *m = s->machine;
    unsigned span = EPHEMERAL_LAST - EPHEMERAL_FIRST + 1;
    for (unsigned i = 0; i < span; i++) {
        uint16_t port = (uint16_t)(EPHEMERAL_FIRST + (m->sock_next_port + i) % span);
        set_port(s, port);
        if (inet_conflict(s, port) == 0) {
            m->sock_next_port = (m->sock_next_port + i + 1) % span;
            return 0;
        }
    }
    return -EADDRINUSE;
}

static int inet_bind(struct sock *s, const struct sock_addr *a)
{
    struct inet_key k = inet_key(a);
    if (!key_is_any(&k) && !key_is_loopback(&k))
        return -EADDRNOTAVAIL;
    if (s->family == AF_INET6 && key_is_v4(&k) && s->v6only)
        return -EINVAL;
    s->local = *a;
    int err = k.port ? inet_conflict(s, k.port) : inet_ephemeral(s);
    if (err < 0) {
        memset(&s->local, 0, sizeof s->local);
        return err;
    }
    s->bound = true;
    return 0;
}

static struct sock *inet_lookup(const struct sock *from, const struct sock_addr *to, int *err)
{
    struct inet_key k = inet_key(to);
    *err = 0;
    if (key_is_any(&k)) /* connecting to "any" reaches the loopback */
        k.ip = loopback_for(&k).ip;
    if (!key_is_loopback(&k) || (key_is_v4(&k) && from->family == AF_INET6 && from->v6only)) {
        *err = -ENETUNREACH;
        return NULL;
    }
    struct sock *wild = NULL;
    for (struct sock *o = from->machine->socks; o; o = o->next_all) {
        if (!o->bound || !same_protocol(from, o) || inet_key(&o->local).port != k.port ||
            !inet_covers(o, &k))
            continue;
        if (from->type == SOCK_STREAM && o->state != SOCK_LISTENING)
            continue;
        struct inet_key ok = inet_key(&o->local);
        if (!key_is_any(&ok))
            return o;
        if (!wild)
            wild = o;
    }
    *err = wild || from->type == SOCK_DGRAM ? 0 : -ECONNREFUSED;
    return wild;
}

/* ---- AF_UNIX ---- */

static bool unix_abstract(const struct sock_addr *a)
{
    return a->len > SUN_PATH_OFFSET && a->un.sun_path[0] == '\0';
}

static bool unix_same_abstract(const struct sock_addr *a, const struct sock_addr *b)
{
    return unix_abstract(a) && a->len == b->len && memcmp(a->raw, b->raw, a->len) == 0;
}

static struct sock *unix_find_abstract(struct machine *m, const struct sock_addr *a, int type)
{
    for (struct sock *o = m->socks; o; o = o->next_all)
        if (o->family == AF_UNIX && o->bound && o->type == type &&
            unix_same_abstract(&o->local, a))
            return o;
    return NULL;
}

static int unix_autobind(struct sock *s)
{
    struct sock_addr a;
    do {
        memset(&a, 0, sizeof a);
        a.un.sun_family = AF_UNIX;
        char name[8];
        snprintf(name, sizeof name, "%05x", ++s->machine->sock_autobind & 0xfffff);
        memcpy(a.un.sun_path + 1, name, 5);
        a.len = SUN_PATH_OFFSET + 6;
    } while (unix_find_abstract(s->machine, &a, s->type));
    s->local = a;
    s->bound = true;
    return 0;
}

static int unix_path(struct task *t, const struct sock_addr *a, char *out, size_t len)
{
    return path_at(t, -100 /* AT_FDCWD */, a->un.sun_path, out, len);
}

/* Creates the socket node in the guest's file system, as Linux does: the
 * host sees a real (but dead) socket inode there, so stat, ls and unlink
 * work; connect finds the guest socket again by its host inode. */
static int unix_bind_path(struct task *t, struct sock *s, const struct sock_addr *a)
{
    char path[VFS_PATH_MAX], name[256];
    int err = unix_path(t, a, path, sizeof path);
    if (err < 0)
        return err;
    struct vfs_node node;
    err = vfs_lookup_virtual(&t->machine->vfs, t, path, &node);
    if (err != 0)
        return err > 0 ? -EADDRINUSE : err;
    int dfd = vfs_parent(&t->machine->vfs, path, true, name, sizeof name);
    if (dfd < 0)
        return dfd;
    struct stat st;
    /* The node is an entry of a size-limited /tmp (budget.h); a name there
     * already is EADDRINUSE first, as unix_bind's mknod says EEXIST. */
    struct vfs_budget *b = vfs_budget_of(&t->machine->vfs, path);
    err = b ? budget_create(b) : 0;
    if (err < 0) {
        b = NULL;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            err = -EEXIST;
    }
    if (err == 0)
        err = mknodat(dfd, name, S_IFSOCK | creation_mode(t, 0777), 0) < 0 ? -errno : 0;
    if (err < 0 && b)
        budget_uncreate(b);
    if (err == 0 && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        err = -errno;
    if (err == 0)
        owner_created_at(t, dfd, name);
    close(dfd);
    if (err < 0)
        return err == -EEXIST ? -EADDRINUSE : err;
    s->host_dev = st.st_dev;
    s->host_ino = st.st_ino;
    s->local = *a;
    s->bound = true;
    return 0;
}

static struct sock *unix_lookup(struct task *t, const struct sock *from, const struct sock_addr *to,
                                int *err)
{
    if (to->len <= SUN_PATH_OFFSET) {
        *err = -EINVAL;
        return NULL;
    }
    struct sock *o = NULL;
    if (unix_abstract(to)) {
        o = unix_find_abstract(t->machine, to, from->type);
    } else {
        char path[VFS_PATH_MAX];
        struct stat st;
        *err = unix_path(t, to, path, sizeof path);
        if (*err == 0)
            *err = vfs_stat(&t->machine->vfs, t, path, true, &st);
        if (*err < 0)
            return NULL;
        for (struct sock *c = t->machine->socks; c && S_ISSOCK(st.st_mode); c = c->next_all)
            if (c->family == AF_UNIX && c->bound && c->host_ino == (uint64_t)st.st_ino &&
                c->host_dev == (uint64_t)st.st_dev)
                o = c;
        if (o && o->type != from->type) {
            *err = -EPROTOTYPE;
            return NULL;
        }
    }
    if (!o || (sock_connection_based(from) && o->state != SOCK_LISTENING)) {
        *err = -ECONNREFUSED;
        return NULL;
    }
    *err = 0;
    return o;
}

/* ---- what the rest of the socket code calls ---- */

/* A netlink port id of the guest's choosing, or 0 for one of the kernel's. */
static int netlink_bind(struct task *t, struct sock *s, const struct sock_addr *a)
{
    if (s->bound)
        return a->nl.nl_pid == 0 || a->nl.nl_pid == s->local.nl.nl_pid ? 0 : -EINVAL;
    if (a->nl.nl_pid == 0) {
        netlink_autobind(t, s);
        return 0;
    }
    for (const struct sock *o = t->machine->socks; o; o = o->next_all)
        if (o->family == AF_NETLINK && o->bound && o->local.nl.nl_pid == a->nl.nl_pid)
            return -EADDRINUSE;
    s->local = *a;
    s->local.nl.nl_groups = 0; /* no multicast groups: nothing is ever announced */
    s->bound = true;
    return 0;
}

int sock_bind(struct task *t, struct sock *s, const struct sock_addr *a)
{
    if (s->family == AF_NETLINK)
        return netlink_bind(t, s, a);
    if (s->family == AF_UNIX && a->len == sizeof(sa_family_t) && s->bound)
        return 0; /* autobind of a named socket keeps its name */
    if (s->bound)
        return -EINVAL;
    if (s->family != AF_UNIX)
        return inet_bind(s, a);
    if (a->len == sizeof(sa_family_t))
        return unix_autobind(s);
    if (unix_abstract(a)) {
        if (unix_find_abstract(t->machine, a, s->type))
            return -EADDRINUSE;
        s->local = *a;
        s->bound = true;
        return 0;
    }
    return unix_bind_path(t, s, a);
}

int sock_autobind(struct sock *s)
{
    if (s->family == AF_UNIX)
        return unix_autobind(s);
    struct inet_key any = {.port = 0};
    if (s->family == AF_INET)
        any.ip.s6_addr[10] = any.ip.s6_addr[11] = 0xff;
    s->local = inet_name(s->family, &any);
    int err = inet_ephemeral(s);
    if (err == 0)
        s->bound = true;
    return err;
}

struct sock *sock_lookup(struct task *t, const struct sock *from, const struct sock_addr *to,
                         int *err)
{
    if (from->family == AF_UNIX)
        return unix_lookup(t, from, to, err);
    return inet_lookup(from, to, err);
}

void sock_connected_names(struct sock *client, struct sock *child, const struct sock *listener,
                          const struct sock_addr *dst)
{
    if (client->family == AF_UNIX) {
        child->local = listener->local;
        child->remote = client->local;
        client->remote = listener->local;
        return;
    }
    struct inet_key d = inet_key(dst);
    if (key_is_any(&d))
        d.ip = loopback_for(&d).ip;
    struct inet_key src = inet_key(&client->local);
    if (key_is_any(&src))
        src.ip = loopback_for(&d).ip;
    client->local = inet_name(client->family, &src);
    client->remote = inet_name(client->family, &d);
    child->local = inet_name(child->family, &d);
    child->remote = inet_name(child->family, &src);
    child->bound = true;
}

struct sock_addr sock_source_name(const struct sock *from, const struct sock *to)
{
    if (from->family == AF_UNIX)
        return from->local;
    struct inet_key src = inet_key(&from->local);
    if (key_is_any(&src)) {
        /* A v6 sender reaches a v4 socket through a mapped address. */
        struct inet_key v4 = {.ip = {.s6_addr = {[10] = 0xff, [11] = 0xff}}};
        bool as_v4 = from->family == AF_INET || to->family == AF_INET;
        src.ip = as_v4 ? loopback_for(&v4).ip : in6addr_loopback;
    }
    return inet_name(to->family, &src);
}

bool sock_addr_equal(const struct sock_addr *a, const struct sock_addr *b)
{
    return a->len == b->len && memcmp(a->raw, b->raw, a->len) == 0;
}
