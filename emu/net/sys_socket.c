/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_socket.c - the socket syscalls: descriptors, guest sockaddrs, and the
 * guest's msghdr, iovec, cmsghdr and mmsghdr layouts, which follow the ABI's
 * word (8 bytes on arm64, 4 on armhf). The socket itself is socket.c's. */
#include "abi_user.h"
#include "cred.h"
#include "file.h"
#include "iovec.h"
#include "machine.h"
#include "mm.h"
#include "socket.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#define GUEST_SOCK_NONBLOCK 04000
#define GUEST_SOCK_CLOEXEC 02000000
#define GUEST_MSG_CMSG_CLOEXEC 0x40000000
#define SCM_MAX_FD 253
#define OPTMEM_MAX 20480

/* The machine's bounce buffer between guest iovecs and socket queues:
 * SOCK_IO_MAX bytes, made on the first send or receive and freed with the
 * machine (sock_io_free); NULL if it cannot be made. */
static uint8_t *io_buf(struct machine *m)
{
    if (!m->sock_io_buf)
        m->sock_io_buf = malloc(SOCK_IO_MAX);
    return m->sock_io_buf;
}

void sock_io_free(struct machine *m)
{
    free(m->sock_io_buf);
    m->sock_io_buf = NULL;
}

/* ---- descriptors ---- */

static int install(struct task *t, struct sock *s, int flags)
{
    struct file *f = sock_file(s, flags & GUEST_SOCK_NONBLOCK ? O_NONBLOCK : 0);
    if (!f) {
        sock_destroy(s);
        return -ENOMEM;
    }
    return fd_install_new(t, f, flags & GUEST_SOCK_CLOEXEC);
}

static int check_create(int family, int type, int protocol)
{
    if (family == AF_NETLINK) {
        if (type != SOCK_RAW && type != SOCK_DGRAM)
            return -ESOCKTNOSUPPORT;
        return protocol == NETLINK_ROUTE ? 0 : -EPROTONOSUPPORT;
    }
    if (family != AF_UNIX && family != AF_INET && family != AF_INET6)
        return -EAFNOSUPPORT;
    if (family == AF_UNIX) {
        if (type != SOCK_STREAM && type != SOCK_DGRAM && type != SOCK_SEQPACKET)
            return -ESOCKTNOSUPPORT;
        return protocol == 0 || protocol == AF_UNIX ? 0 : -EPROTONOSUPPORT;
    }
    if (type == SOCK_STREAM)
        return protocol == 0 || protocol == IPPROTO_TCP ? 0 : -EPROTONOSUPPORT;
    if (type == SOCK_DGRAM)
        return protocol == 0 || protocol == IPPROTO_UDP || protocol == IPPROTO_UDPLITE
                   ? 0
                   : -EPROTONOSUPPORT;
    return -ESOCKTNOSUPPORT;
}

/* A new socket from socket()'s arguments (family, type with flags,
 * protocol), or NULL with *err set. */
static struct sock *create(struct task *t, const uint64_t a[3], int *err)
{
    int family = (int)a[0], type = (int)a[1] & 0xf, protocol = (int)a[2];
    if ((int)a[1] & ~(0xf | GUEST_SOCK_NONBLOCK | GUEST_SOCK_CLOEXEC)) {
        *err = -EINVAL;
        return NULL;
    }
    if ((*err = check_create(family, type, protocol)) < 0)
        return NULL;
    if ((family == AF_INET || family == AF_INET6) && protocol == 0)
        protocol = type == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP;
    struct sock *s = sock_new(t, family, type, family == AF_UNIX ? 0 : protocol);
    if (!s)
        *err = -ENOMEM;
    return s;
}

SYSCALL_DECL(socket)
{
    int err;
    struct sock *s = create(t, a, &err);
    return s ? install(t, s, (int)a[1]) : err;
}

SYSCALL_DECL(socketpair)
{
    int err;
    if ((int)a[0] != AF_UNIX) /* only AF_UNIX makes pairs */
        return (int)a[0] == AF_INET || (int)a[0] == AF_INET6 ? -EOPNOTSUPP : -EAFNOSUPPORT;
    struct sock *x = create(t, a, &err);
    if (!x)
        return err;
    struct sock *y = create(t, a, &err);
    if (!y) {
        sock_destroy(x);
        return err;
    }
    sock_pair(x, y);
    int fds[2];
    fds[0] = install(t, x, (int)a[1]);
    if (fds[0] < 0) {
        sock_destroy(y);
        return fds[0];
    }
    fds[1] = install(t, y, (int)a[1]);
    if (fds[1] < 0) {
        fd_close(t, fds[0]);
        return fds[1];
    }
    if (copy_to_guest(task_mm(t), a[3], fds, sizeof fds) < 0) {
        fd_close(t, fds[0]);
        fd_close(t, fds[1]);
        return -EFAULT;
    }
    return 0;
}

/* ---- names and connections ---- */

SYSCALL_DECL(bind)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    if (!s)
        return err;
    struct sock_addr addr;
    if ((err = sock_addr_from_guest(t, s, a[1], a[2], &addr)) < 0)
        return err;
    if (addr.family == AF_UNSPEC && s->family != AF_UNIX)
        return -EAFNOSUPPORT;
    return sock_bind(t, s, &addr);
}

SYSCALL_DECL(listen)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    return s ? sock_listen(t, s, (int)a[1]) : err;
}

SYSCALL_DECL(connect)
{
    int err;
    struct file *f;
    struct sock *s = sock_from_fd(t, (int)a[0], &f, &err);
    if (!s)
        return err;
    struct sock_addr addr;
    if ((err = sock_addr_from_guest(t, s, a[1], a[2], &addr)) < 0)
        return err;
    return sock_connect(t, s, &addr, f->flags & O_NONBLOCK);
}

/* A socket's name, or just its family when it has none. */
static struct sock_addr name_or_family(const struct sock *s, const struct sock_addr *a)
{
    struct sock_addr n = *a;
    if (n.len == 0) {
        memset(&n, 0, sizeof n);
        n.family = (sa_family_t)s->family;
        n.len = s->family == AF_UNIX      ? sizeof(sa_family_t)
                : s->family == AF_INET    ? sizeof n.in
                : s->family == AF_NETLINK ? sizeof n.nl
                                          : sizeof n.in6;
    }
    return n;
}

static int64_t do_accept(struct task *t, const uint64_t a[6], int flags)
{
    if (flags & ~(GUEST_SOCK_NONBLOCK | GUEST_SOCK_CLOEXEC))
        return -EINVAL;
    int err;
    struct file *f;
    struct sock *s = sock_from_fd(t, (int)a[0], &f, &err);
    if (!s)
        return err;
    struct sock *child = NULL;
    int64_t r = sock_accept(t, s, f->flags & O_NONBLOCK, &child);
    if (r < 0)
        return r;
    int fd = install(t, child, flags);
    if (fd < 0)
        return fd;
    if (a[1]) {
        struct sock_addr peer = name_or_family(child, &child->remote);
        if ((err = sock_addr_to_guest(t, &peer, a[1], a[2])) < 0) {
            fd_close(t, fd);
            return err;
        }
    }
    return fd;
}

SYSCALL_DECL(accept)
{
    return do_accept(t, a, 0);
}

SYSCALL_DECL(accept4)
{
    return do_accept(t, a, (int)a[3]);
}

SYSCALL_DECL(getsockname)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    if (!s)
        return err;
    struct sock_addr n = name_or_family(s, &s->local);
    return sock_addr_to_guest(t, &n, a[1], a[2]);
}

SYSCALL_DECL(getpeername)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    if (!s)
        return err;
    bool connected = s->state == SOCK_CONNECTED || (s->peer && !sock_connection_based(s));
    if (!connected)
        return -ENOTCONN;
    struct sock_addr n = name_or_family(s, &s->remote);
    return sock_addr_to_guest(t, &n, a[1], a[2]);
}

SYSCALL_DECL(shutdown)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    return s ? sock_shutdown(s, (int)a[1]) : err;
}

/* ---- the guest's msghdr and iovecs ---- */

struct guest_msghdr {
    uint64_t name, iov, iovlen, control, controllen;
    uint32_t namelen;
    int32_t flags;
};

/* msghdr fields: name, namelen, iov, iovlen, control, controllen, flags,
 * each in a slot of the ABI's long (the pointers and size_t are longs,
 * namelen and flags ints at their slot's start): 28 bytes on armhf, 56 on
 * arm64. */
static size_t msghdr_size(struct task *t)
{
    return abi_longs_size(t, 7);
}

static int msghdr_from_guest(struct task *t, uint64_t addr, struct guest_msghdr *m)
{
    uint8_t raw[56];
    if (copy_from_guest(task_mm(t), raw, addr, msghdr_size(t)) < 0)
        return -EFAULT;
    uint64_t v[7] = {0};
    for (unsigned i = 0; i < 7; i++) {
        const uint8_t *slot = raw + abi_longs_size(t, i);
        if (i == 1 || i == 6)
            memcpy(&v[i], slot, 4);
        else
            v[i] = abi_ulong_at(t, slot);
    }
    *m = (struct guest_msghdr){.name = v[0], .namelen = (uint32_t)v[1], .iov = v[2],
                               .iovlen = v[3], .control = v[4], .controllen = v[5],
                               .flags = (int32_t)v[6]};
    return 0;
}

/* recvmsg writes back msg_namelen, msg_controllen and msg_flags. */
static int msghdr_to_guest(struct task *t, uint64_t addr, const struct guest_msghdr *m)
{
    struct mm *mm = task_mm(t);
    if (copy_to_guest(mm, addr + abi_longs_size(t, 1), &m->namelen, 4) < 0 ||
        put_user_longs(t, addr + abi_longs_size(t, 5), (const int64_t[]){(int64_t)m->controllen},
                       1) < 0 ||
        copy_to_guest(mm, addr + abi_longs_size(t, 6), &m->flags, 4) < 0)
        return -EFAULT;
    return 0;
}

static int iov_from_guest(struct task *t, uint64_t uiov, uint64_t cnt, struct iov_list *l)
{
    return cnt > UIO_MAXIOV ? -EMSGSIZE : iov_import(t, uiov, cnt, l);
}

/* Fills l with the one buffer of send, sendto, recv and recvfrom (cut to
 * MAX_RW_COUNT, as import_single_range): l. */
static struct iov_list *one_iov(struct iov_list *l, uint64_t base, uint64_t len)
{
    if (len > MAX_RW_COUNT)
        len = MAX_RW_COUNT;
    l->n = 1;
    l->v[0].base = base;
    l->v[0].len = len;
    l->total = len;
    return l;
}

/* Copies len bytes at offset `off` of the iovecs out of (or into) guest
 * memory. */
static int iov_copy(struct task *t, const struct iov_list *l, uint64_t off, void *buf, size_t len,
                    bool to_guest)
{
    uint8_t *p = buf;
    for (unsigned i = 0; i < l->n && len; i++) {
        if (off >= l->v[i].len) {
            off -= l->v[i].len;
            continue;
        }
        size_t k = l->v[i].len - off < len ? (size_t)(l->v[i].len - off) : len;
        int err = to_guest ? copy_to_guest(task_mm(t), l->v[i].base + off, p, k)
                           : copy_from_guest(task_mm(t), p, l->v[i].base + off, k);
        if (err < 0)
            return err;
        p += k;
        len -= k;
        off = 0;
    }
    return 0;
}

/* ---- control messages: struct cmsghdr {size_t len; int level, type;} ---- */

/* CMSG_ALIGN: to the ABI's long, whose size is long_size. */
static size_t cmsg_align(size_t n, size_t long_size)
{
    return (n + long_size - 1) & ~(long_size - 1);
}

static size_t cmsg_hdr(size_t long_size)
{
    return cmsg_align(long_size + 8, long_size);
}

static void anc_release(struct sock_anc *anc)
{
    for (unsigned i = 0; i < anc->nrights; i++)
        file_put(anc->rights[i]);
    free(anc->rights);
    anc->rights = NULL;
    anc->nrights = 0;
}

static int anc_add_rights(struct task *t, struct sock_anc *anc, const uint8_t *data, size_t len)
{
    unsigned n = (unsigned)(len / 4);
    if (n == 0)
        return 0;
    if (anc->nrights + n > SCM_MAX_FD)
        return -EINVAL;
    struct file **r = realloc(anc->rights, (anc->nrights + n) * sizeof *r);
    if (!r)
        return -ENOMEM;
    anc->rights = r;
    for (unsigned i = 0; i < n; i++) {
        int32_t fd;
        memcpy(&fd, data + i * 4, 4);
        struct file *f = file_get(t, fd);
        if (!f)
            return -EBADF;
        file_ref(f);
        anc->rights[anc->nrights++] = f;
    }
    return 0;
}

/* scm_check_creds(): credentials a sender gives must be its own pid (or
 * CAP_SYS_ADMIN), one of its uids (or CAP_SETUID) and gids (or CAP_SETGID). */
static bool scm_creds_ok(struct task *t, const struct ucred *u)
{
    const struct cred *c = &t->proc->cred;
    bool pid = u->pid == t->proc->pid || capable(t, CAP_SYS_ADMIN);
    bool uid = u->uid == c->u.real || u->uid == c->u.eff || u->uid == c->u.saved ||
               capable(t, CAP_SETUID);
    bool gid = u->gid == c->g.real || u->gid == c->g.eff || u->gid == c->g.saved ||
               capable(t, CAP_SETGID);
    return pid && uid && gid;
}

/* Reads sendmsg's control messages: SCM_RIGHTS and SCM_CREDENTIALS for
 * AF_UNIX, IPv6's per-packet values for UDP; other levels are ignored, as
 * Linux ignores them. */
static int anc_from_guest(struct task *t, const struct sock *s, const struct guest_msghdr *m,
                          struct sock_anc *anc)
{
    uint8_t ctl[OPTMEM_MAX];
    size_t long_size = abi_longs_size(t, 1);
    size_t hdr = cmsg_hdr(long_size), len = (size_t)m->controllen;
    if (len == 0)
        return 0;
    if (len > sizeof ctl)
        return -ENOBUFS;
    if (copy_from_guest(task_mm(t), ctl, m->control, len) < 0)
        return -EFAULT;
    for (size_t off = 0; off + hdr <= len;) {
        uint64_t clen = abi_ulong_at(t, ctl + off);
        int32_t level, type;
        memcpy(&level, ctl + off + long_size, 4);
        memcpy(&type, ctl + off + long_size + 4, 4);
        if (clen < hdr || clen > len - off)
            return -EINVAL;
        const uint8_t *data = ctl + off + hdr;
        size_t dlen = (size_t)clen - hdr;
        int err = 0;
        if (level == SOL_SOCKET) {
            if (s->family != AF_UNIX)
                err = -EINVAL;
            else if (type == SCM_RIGHTS)
                err = anc_add_rights(t, anc, data, dlen);
            else if (type == SCM_CREDENTIALS && dlen == sizeof anc->cred) {
                memcpy(&anc->cred, data, sizeof anc->cred);
                anc->has_cred = true;
                if (!scm_creds_ok(t, &anc->cred))
                    err = -EPERM;
                else if (!process_find(t->machine, anc->cred.pid))
                    err = -ESRCH;
            } else
                err = -EINVAL;
        } else {
            err = sock_pktinfo_cmsg(s, level, type, data, dlen, anc);
        }
        if (err < 0)
            return err;
        off += cmsg_align((size_t)clen, long_size);
    }
    return 0;
}

struct cmsg_out {
    uint64_t addr;  /* guest control buffer */
    size_t room, used;
    int flags;      /* MSG_CTRUNC */
};

/* Appends one control message, truncated to what fits (as put_cmsg). */
static int cmsg_put(struct task *t, struct cmsg_out *o, int level, int type, const void *data,
                    size_t len)
{
    size_t long_size = abi_longs_size(t, 1);
    size_t hdr = cmsg_hdr(long_size), left = o->room - o->used;
    if (left < hdr) {
        o->flags |= MSG_CTRUNC;
        return 0;
    }
    size_t clen = hdr + len;
    if (clen > left) {
        o->flags |= MSG_CTRUNC;
        clen = left;
    }
    uint8_t h[16] = {0};
    uint64_t clen64 = clen;
    memcpy(h, &clen64, long_size); /* cmsg_len, a size_t: its low bytes */
    memcpy(h + long_size, &level, 4);
    memcpy(h + long_size + 4, &type, 4);
    if (copy_to_guest(task_mm(t), o->addr + o->used, h, hdr) < 0 ||
        copy_to_guest(task_mm(t), o->addr + o->used + hdr, data, clen - hdr) < 0)
        return -EFAULT;
    size_t space = cmsg_align(clen, long_size);
    o->used += space < left ? space : left;
    return 0;
}

/* Writes the control messages, in Linux's order: credentials, an IPv6
 * datagram's hop limit and traffic class, then the received files,
 * installed as descriptors as many as the buffer holds (the rest are closed
 * and MSG_CTRUNC is set). */
static int anc_to_guest(struct task *t, struct sock_anc *anc, struct cmsg_out *o, bool cloexec)
{
    int err = 0;
    if (anc->has_cred)
        err = cmsg_put(t, o, SOL_SOCKET, SCM_CREDENTIALS, &anc->cred, sizeof anc->cred);
    if (err == 0 && anc->has_hoplimit)
        err = cmsg_put(t, o, IPPROTO_IPV6, IPV6_HOPLIMIT, &anc->hoplimit, sizeof(int));
    if (err == 0 && anc->has_tclass)
        err = cmsg_put(t, o, IPPROTO_IPV6, IPV6_TCLASS, &anc->tclass, sizeof(int));
    if (err < 0 || !anc->nrights)
        return err;
    size_t hdr = cmsg_hdr(abi_longs_size(t, 1)), left = o->room - o->used;
    unsigned fit = left > hdr ? (unsigned)((left - hdr) / 4) : 0, n = 0;
    int32_t fds[SCM_MAX_FD];
    for (; n < anc->nrights && n < fit; n++) {
        fds[n] = fd_install(t, anc->rights[n], 0, cloexec);
        if (fds[n] < 0)
            break;
        anc->rights[n] = NULL;
    }
    if (n < anc->nrights)
        o->flags |= MSG_CTRUNC;
    if (n)
        err = cmsg_put(t, o, SOL_SOCKET, SCM_RIGHTS, fds, n * 4);
    anc_release(anc);
    return err;
}

/* ---- sending ---- */

/* Sends the iovecs' bytes; a blocking stream send waits until all are
 * taken, so it resumes after what it has moved. */
static int64_t send_iov(struct task *t, struct sock *s, bool nonblock, const struct iov_list *l,
                        const struct sock_addr *to, struct sock_anc *anc, int flags)
{
    bool stream = s->type == SOCK_STREAM;
    if (!stream && l->total > SOCK_IO_MAX)
        return -EMSGSIZE;
    uint64_t done = sock_progress(t);
    uint8_t *buf = io_buf(t->machine);
    if (!buf)
        return done ? (int64_t)done : -ENOMEM;
    do {
        size_t want = l->total - done < SOCK_IO_MAX ? (size_t)(l->total - done) : SOCK_IO_MAX;
        if (iov_copy(t, l, done, buf, want, false) < 0)
            return done ? (int64_t)done : -EFAULT;
        int64_t n = sock_send(t, s, buf, want, to, anc, flags, nonblock);
        if (n == -EBLOCK)
            return sock_wait(t, t->wait_obj, done, s->sndtimeo_ns);
        if (n < 0)
            return done ? (int64_t)done : n;
        done += (uint64_t)n;
    } while (stream && done < l->total);
    return (int64_t)done;
}

static int64_t do_send(struct task *t, int fd, const struct iov_list *l, uint64_t uaddr,
                       uint64_t addrlen, const struct guest_msghdr *m, int flags)
{
    int err;
    struct file *f;
    struct sock *s = sock_from_fd(t, fd, &f, &err);
    if (!s)
        return err;
    struct sock_addr to, *top = NULL;
    /* An empty name is none for sendmsg (and AF_UNIX's sendto); UDP's sendto
     * refuses it. msg_namelen is clamped to a sockaddr_storage. */
    if (uaddr && addrlen == 0 && (m || s->family == AF_UNIX))
        uaddr = 0;
    if (m && addrlen > sizeof to.raw)
        addrlen = sizeof to.raw;
    if (uaddr) {
        if ((err = sock_addr_from_guest(t, s, uaddr, addrlen, &to)) < 0)
            return err;
        top = &to;
    }
    struct sock_anc anc = {0};
    if (m && (err = anc_from_guest(t, s, m, &anc)) < 0) {
        anc_release(&anc);
        return err;
    }
    int64_t r = send_iov(t, s, f->flags & O_NONBLOCK, l, top, &anc, flags);
    anc_release(&anc);
    return r;
}

SYSCALL_DECL(sendto)
{
    struct iov_list l;
    return do_send(t, (int)a[0], one_iov(&l, a[1], a[2]), a[4], a[5], NULL, (int)a[3]);
}

SYSCALL_DECL(send)
{
    struct iov_list l;
    return do_send(t, (int)a[0], one_iov(&l, a[1], a[2]), 0, 0, NULL, (int)a[3]);
}

/* A guest msghdr and its iovecs (into one list: a call reads one message
 * at a time). */
static int msg_from_guest(struct task *t, uint64_t umsg, struct guest_msghdr *m,
                          struct iov_list *l)
{
    int err = msghdr_from_guest(t, umsg, m);
    return err < 0 ? err : iov_from_guest(t, m->iov, m->iovlen, l);
}

static int64_t sendmsg_one(struct task *t, int fd, uint64_t umsg, int flags)
{
    struct iov_list l;
    struct guest_msghdr m;
    int err = msg_from_guest(t, umsg, &m, &l);
    return err < 0 ? err : do_send(t, fd, &l, m.name, m.namelen, &m, flags);
}

SYSCALL_DECL(sendmsg)
{
    return sendmsg_one(t, (int)a[0], a[1], (int)a[2]);
}

/* ---- receiving ---- */

struct recv_out {
    struct sock_addr from;
    struct sock_anc anc;
    int flags; /* MSG_TRUNC */
};

static int64_t recv_iov(struct task *t, struct sock *s, bool nonblock, const struct iov_list *l,
                        int flags, struct recv_out *out)
{
    uint64_t done = sock_progress(t);
    bool stream = s->type == SOCK_STREAM;
    uint8_t *buf = io_buf(t->machine);
    if (!buf)
        return done ? (int64_t)done : -ENOMEM;
    do {
        size_t want = l->total - done < SOCK_IO_MAX ? (size_t)(l->total - done) : SOCK_IO_MAX;
        size_t msglen = 0;
        int64_t n = sock_recv(t, s, buf, want, flags, nonblock || done, &out->from,
                              done ? NULL : &out->anc, &msglen);
        if (n == -EBLOCK)
            return sock_wait(t, s, done, s->rcvtimeo_ns);
        if (n == -EAGAIN && done && (flags & MSG_WAITALL) && !nonblock &&
            !(flags & MSG_DONTWAIT))
            return sock_wait(t, s, done, s->rcvtimeo_ns);
        if (n < 0)
            return done ? (int64_t)done : n;
        if (iov_copy(t, l, done, buf, (size_t)n, true) < 0)
            return done ? (int64_t)done : -EFAULT;
        done += (uint64_t)n;
        if (!stream) {
            if (msglen > (size_t)n)
                out->flags |= MSG_TRUNC;
            return (int64_t)((flags & MSG_TRUNC) ? msglen : done);
        }
        if (n == 0 || (flags & MSG_PEEK))
            break;
        /* Files ride with their own bytes: they start the next read. */
        if (s->rq_head && s->rq_head->nrights && s->rq_head->off == 0)
            break;
    } while (done < l->total && (s->rq_head || (flags & MSG_WAITALL)));
    return (int64_t)done;
}

/* recv/recvfrom/recvmsg: m is NULL for recvfrom, whose name goes to
 * (uaddr, ulen). */
static int64_t do_recv(struct task *t, int fd, const struct iov_list *l, uint64_t uaddr,
                       uint64_t ulen, struct guest_msghdr *m, int flags)
{
    int err;
    struct file *f;
    struct sock *s = sock_from_fd(t, fd, &f, &err);
    if (!s)
        return err;
    struct recv_out out;
    memset(&out, 0, sizeof out);
    int64_t r = recv_iov(t, s, f->flags & O_NONBLOCK, l, flags, &out);
    if (r < 0) {
        anc_release(&out.anc);
        return r;
    }
    /* A TCP stream has no per-message sender. */
    if (sock_is_tcp(s))
        out.from.len = 0;
    if (!m) {
        anc_release(&out.anc);
        if (uaddr && ulen && (err = sock_addr_to_guest(t, &out.from, uaddr, ulen)) < 0)
            return err;
        return r;
    }
    if (m->name) {
        size_t n = out.from.len < m->namelen ? out.from.len : m->namelen;
        if (n && copy_to_guest(task_mm(t), m->name, out.from.raw, n) < 0)
            return -EFAULT;
    }
    m->namelen = m->name ? out.from.len : 0;
    struct cmsg_out co = {.addr = m->control, .room = (size_t)m->controllen};
    if (!m->control)
        co.room = 0;
    err = anc_to_guest(t, &out.anc, &co, flags & GUEST_MSG_CMSG_CLOEXEC);
    if (err < 0)
        return err;
    m->controllen = co.used;
    m->flags = out.flags | co.flags;
    return r;
}

SYSCALL_DECL(recvfrom)
{
    struct iov_list l;
    return do_recv(t, (int)a[0], one_iov(&l, a[1], a[2]), a[4], a[5], NULL, (int)a[3]);
}

SYSCALL_DECL(recv)
{
    struct iov_list l;
    return do_recv(t, (int)a[0], one_iov(&l, a[1], a[2]), 0, 0, NULL, (int)a[3]);
}

static int64_t recvmsg_one(struct task *t, int fd, uint64_t umsg, int flags)
{
    struct iov_list l;
    struct guest_msghdr m;
    int err = msg_from_guest(t, umsg, &m, &l);
    if (err < 0)
        return err;
    int64_t r = do_recv(t, fd, &l, 0, 0, &m, flags);
    if (r >= 0 && (err = msghdr_to_guest(t, umsg, &m)) < 0)
        return err;
    return r;
}

SYSCALL_DECL(recvmsg)
{
    return recvmsg_one(t, (int)a[0], a[1], (int)a[2]);
}

/* ---- several messages at once: struct mmsghdr {msghdr; unsigned len;} ---- */

/* The first message may block; the rest are taken only if they are ready
 * (as with MSG_WAITFORONE). */
static int64_t do_mmsg(struct task *t, const uint64_t a[6], bool is_send)
{
    /* struct mmsghdr: the msghdr, then msg_len, padded to the long */
    unsigned stride = (unsigned)cmsg_align(msghdr_size(t) + 4, abi_longs_size(t, 1));
    unsigned vlen = a[2] > UIO_MAXIOV ? UIO_MAXIOV : (unsigned)a[2];
    int flags = (int)a[3];
    unsigned i = 0;
    for (; i < vlen; i++) {
        uint64_t um = a[1] + (uint64_t)i * stride;
        int f = i ? flags | MSG_DONTWAIT : flags;
        int64_t r = is_send ? sendmsg_one(t, (int)a[0], um, f) : recvmsg_one(t, (int)a[0], um, f);
        if (r == -EBLOCK)
            return r;
        if (r < 0)
            return i ? (int64_t)i : r;
        uint32_t len = (uint32_t)r;
        if (copy_to_guest(task_mm(t), um + msghdr_size(t), &len, 4) < 0)
            return i ? (int64_t)i : -EFAULT;
    }
    return i;
}

SYSCALL_DECL(sendmmsg)
{
    return do_mmsg(t, a, true);
}

static int64_t recvmmsg_timeout(struct task *t, const uint64_t a[6], unsigned field)
{
    if (a[4]) {
        int64_t ns = timespec_from_guest(t, a[4], field);
        if (ns < 0)
            return ns;
    }
    return do_mmsg(t, a, false);
}

SYSCALL_DECL(recvmmsg)
{
    return recvmmsg_timeout(t, a, abi_time_field(t));
}

SYSCALL_DECL(recvmmsg_time64)
{
    return recvmmsg_timeout(t, a, 8);
}
