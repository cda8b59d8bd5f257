/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socket.h - sockets inside the machine: AF_UNIX, and AF_INET/AF_INET6 on
 * the machine's loopback. No guest socket ever becomes a host socket: a
 * connection is two receive queues in the emulator (docs/ipc.md). */
#ifndef ASYMU_SOCKET_H
#define ASYMU_SOCKET_H

#include "syscalls.h"

#include <linux/netlink.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

struct file;
struct file_ops;
struct machine;
struct task;

/* What Linux 5.15 reports for a fresh socket (net.core.[rw]mem_default, and
 * tcp_wmem[1]/tcp_rmem[1] for TCP); setsockopt doubles what it is given, up
 * to twice net.core.[rw]mem_max. */
#define SOCK_BUF_DEFAULT 212992
#define SOCK_BUF_MAX 212992
#define TCP_SNDBUF_DEFAULT 16384
#define TCP_RCVBUF_DEFAULT 131072
#define SOCK_MIN_SNDBUF 4608
#define SOCK_MIN_RCVBUF 2304
/* net.unix.max_dgram_qlen: datagrams an AF_UNIX receiver queues before
 * senders wait. */
#define UNIX_DGRAM_QLEN 10
/* somaxconn: listen() clamps its backlog to it. */
#define SOCK_SOMAXCONN 4096
/* The largest datagram, and the most a single send moves at once. */
#define SOCK_IO_MAX (256u * 1024)

/* A socket address as the guest passes it: the same layout on the host and
 * both guest ABIs (sockaddr_un, sockaddr_in, sockaddr_in6). */
struct sock_addr {
    socklen_t len; /* 0: none */
    union {
        sa_family_t family;
        struct sockaddr_un un;
        struct sockaddr_in in;
        struct sockaddr_in6 in6;
        struct sockaddr_nl nl;
        uint8_t raw[sizeof(struct sockaddr_storage)];
    };
};

/* A queued datagram, or a piece of a stream, with what rides along. */
struct sock_msg {
    struct sock_msg *next;
    size_t len, off;        /* bytes, and how many a stream reader took */
    struct sock_addr from;  /* the sender's name (datagrams) */
    struct ucred cred;      /* the sender's credentials (AF_UNIX) */
    int hoplimit, tclass;   /* IPv6: the packet's hop limit and traffic class */
    struct file **rights;   /* SCM_RIGHTS: files in flight, one reference each */
    unsigned nrights;
    uint8_t data[];
};

/* A message of len bytes, counted as the machine's kernel memory (kmem.h),
 * or NULL when there is none left (the send fails with ENOBUFS). */
struct sock_msg *sock_msg_alloc(struct machine *m, size_t len);

#define SHUT_RD_BIT 1
#define SHUT_WR_BIT 2

enum sock_state { SOCK_UNCONNECTED, SOCK_LISTENING, SOCK_CONNECTED };

struct sock {
    struct machine *machine;
    struct sock *next_all;  /* the machine's sockets (machine->socks) */
    int family, type, protocol;
    enum sock_state state;
    bool has_file;          /* an open file holds it (not a queued child) */
    uint64_t ino;           /* its file's inode number (/proc/net) */
    struct sock *peer;      /* the other end, or a datagram socket's default destination */
    struct sock_addr local, remote;
    bool bound;
    uint64_t host_dev, host_ino; /* AF_UNIX bound to a path: its host inode */
    unsigned shutdown;      /* SHUT_*_BIT: what this end can no longer do */
    bool peer_closed;       /* the other end of the connection is gone */
    bool connect_pending;   /* non-blocking TCP connect returned EINPROGRESS */
    int error;              /* SO_ERROR */
    /* receive queue */
    struct sock_msg *rq_head, *rq_tail;
    size_t rq_bytes;
    unsigned rq_count;
    /* a listener's accept queue: connected children without a file */
    struct sock *aq_head, *aq_tail, *aq_next;
    int backlog, aq_count;
    /* options */
    int sndbuf, rcvbuf;
    bool reuseaddr, reuseport, keepalive, nodelay, broadcast, passcred, v6only;
    int linger_onoff, linger_secs;
    uint64_t rcvtimeo_ns, sndtimeo_ns;
    struct ucred peercred;  /* SO_PEERCRED: the peer at connect time */
    struct ucred owner;     /* this socket's creator (the peer's SO_PEERCRED) */
    /* what datagrams carry and show (socket_pktinfo.c) */
    bool recv_hoplimit, recv_tclass; /* IPV6_RECVHOPLIMIT, IPV6_RECVTCLASS */
    int unicast_hops;       /* IPV6_UNICAST_HOPS; -1: the default, 64 */
    int tclass;             /* IPV6_TCLASS */
    int udplite_send_cscov, udplite_recv_cscov; /* UDPLITE_*_CSCOV */
};

extern const struct file_ops sock_file_ops;

/* ---- the socket object (socket.c) ---- */

/* A new socket of a family, type and protocol already checked; NULL if
 * memory runs out. */
struct sock *sock_new(struct task *t, int family, int type, int protocol);
/* Frees a socket without a file (a child never accepted, a failed create). */
void sock_destroy(struct sock *s);
/* The socket behind fd: NULL with *err = -EBADF or -ENOTSOCK. */
struct sock *sock_from_fd(struct task *t, int fd, struct file **f, int *err);
/* A file for s; NULL without memory. */
struct file *sock_file(struct sock *s, int flags);
/* Connects a and b to each other (socketpair, an accepted connection). */
void sock_pair(struct sock *a, struct sock *b);
/* The stream and seqpacket types carry connections. */
bool sock_connection_based(const struct sock *s);
/* AF_INET or AF_INET6 SOCK_STREAM. */
bool sock_is_tcp(const struct sock *s);
/* Wakes what waits on s (its readers, writers, acceptors, pollers). */
void sock_changed(struct sock *s);

/* Blocking: a handler that must wait calls sock_wait (with the bytes it has
 * moved so far); when woken, the handler runs again with sock_progress()
 * giving those bytes back. timeout_ns 0 waits without a deadline. */
int64_t sock_wait(struct task *t, const struct sock *obj, uint64_t done, uint64_t timeout_ns);
uint64_t sock_progress(struct task *t);
/* Frees the machine's socket I/O buffer (sys_socket.c), at shutdown. */
void sock_io_free(struct machine *m);

/* What sendmsg and recvmsg carry besides bytes. */
struct sock_anc {
    struct file **rights;   /* send: files to pass; recv: files received */
    unsigned nrights;
    bool has_cred;          /* send: explicit SCM_CREDENTIALS; recv: deliver them */
    struct ucred cred;
    /* IPv6 UDP: send: IPV6_HOPLIMIT / IPV6_TCLASS given; recv: deliver them */
    bool has_hoplimit, has_tclass;
    int hoplimit, tclass;
};

/* Sends len bytes (a whole datagram or part of a stream): bytes taken,
 * -EBLOCK with t->wait_obj set when it must wait (nothing was taken), or
 * -errno. `to` is the destination of an unconnected datagram socket. The
 * ancillary data goes with the first byte; its files are taken over. */
int64_t sock_send(struct task *t, struct sock *s, const void *buf, size_t len,
                  const struct sock_addr *to, struct sock_anc *anc, int flags, bool nonblock);
/* Receives up to len bytes: for a datagram its full length goes to
 * *msglen (MSG_TRUNC), the sender's name to *from. Returns bytes, 0 at end
 * of stream, -EBLOCK, or -errno. anc receives files and credentials. */
int64_t sock_recv(struct task *t, struct sock *s, void *buf, size_t len, int flags,
                  bool nonblock, struct sock_addr *from, struct sock_anc *anc, size_t *msglen);
/* Connects s to the listener or datagram socket `to` names. */
int64_t sock_connect(struct task *t, struct sock *s, const struct sock_addr *to, bool nonblock);
/* A connected child from a listener's queue, or -EBLOCK/-EAGAIN/-errno. */
int64_t sock_accept(struct task *t, struct sock *s, bool nonblock, struct sock **child);
int sock_listen(struct task *t, struct sock *s, int backlog);
int sock_shutdown(struct sock *s, int how);
/* Bytes waiting to be read (FIONREAD). */
int sock_inq(const struct sock *s);
/* Appends a message (from calloc, data and from filled) to s's receive queue. */
void sock_queue(struct sock *to, struct sock_msg *msg);

/* ---- per-packet IP information and its options (socket_pktinfo.c) ---- */

/* setsockopt/getsockopt of IPV6_RECVHOPLIMIT, IPV6_RECVTCLASS,
 * IPV6_UNICAST_HOPS, IPV6_TCLASS and UDPLITE_{SEND,RECV}_CSCOV: 0, -EINVAL,
 * or -ENOPROTOOPT for an option these are not. */
int sock_pktinfo_setopt(struct sock *s, int level, int name, const void *optval, size_t len);
int sock_pktinfo_getopt(const struct sock *s, int level, int name, int *val);
/* A control message given to sendmsg: IPV6_HOPLIMIT and IPV6_TCLASS on a
 * UDP v6 socket go to anc (-EINVAL when malformed); others are ignored. */
int sock_pktinfo_cmsg(const struct sock *s, int level, int type, const void *data, size_t len,
                      struct sock_anc *anc);
/* Gives a datagram its sender's hop limit and traffic class. */
void sock_pktinfo_stamp(const struct sock *from, const struct sock_anc *anc, struct sock_msg *msg);
/* What a receiver asked to see of a datagram's IPv6 header goes to anc. */
void sock_pktinfo_take(const struct sock *s, const struct sock_msg *msg, struct sock_anc *anc);

/* ---- AF_NETLINK, NETLINK_ROUTE: the machine's one interface (socket_netlink.c) ---- */

/* A request to the kernel: its answers go to s's own receive queue. */
int64_t netlink_send(struct task *t, struct sock *s, const void *buf, size_t len);
/* Gives s its port id (the process's pid for its first netlink socket). */
void netlink_autobind(struct task *t, struct sock *s);
/* SIOCGIFINDEX, SIOCGIFNAME, SIOCGIFFLAGS, SIOCGIFMTU on any socket;
 * -ENOTTY for other requests. */
int64_t netif_ioctl(struct task *t, unsigned long req, uint64_t arg);

/* ---- names: AF_UNIX paths and abstract names, loopback ports (socket_name.c) ---- */

/* Reads a guest sockaddr for s's family: 0 or -EINVAL/-EFAULT/-EAFNOSUPPORT. */
int sock_addr_from_guest(struct task *t, const struct sock *s, uint64_t uaddr, uint64_t len,
                         struct sock_addr *out);
/* Writes a name to a guest (addr, *addrlen) pair, truncating as Linux does. */
int sock_addr_to_guest(struct task *t, const struct sock_addr *a, uint64_t uaddr,
                       uint64_t ulen);
int sock_bind(struct task *t, struct sock *s, const struct sock_addr *a);
/* Gives an unbound socket a name: an abstract one for AF_UNIX, an
 * ephemeral port for AF_INET/6. */
int sock_autobind(struct sock *s);
/* The socket a destination names: a listener for connection types, a bound
 * datagram socket otherwise. NULL with *err set. */
struct sock *sock_lookup(struct task *t, const struct sock *from, const struct sock_addr *to,
                         int *err);
/* Names both ends of a new connection to dst through listener. */
void sock_connected_names(struct sock *client, struct sock *child, const struct sock *listener,
                          const struct sock_addr *dst);
/* The name a message from `from` carries to `to`: a wildcard address
 * becomes the loopback, in to's family. */
struct sock_addr sock_source_name(const struct sock *from, const struct sock *to);
bool sock_addr_equal(const struct sock_addr *a, const struct sock_addr *b);

/* ---- /proc/net (socket_proc.c) ---- */

/* The text of /proc/net/NAME (tcp, tcp6, udp, udp6, unix), malloc'ed. */
int sock_proc_net(struct machine *m, const char *name, char **data, size_t *size);

/* ---- syscalls (sys_socket.c) ---- */

SYSCALL_DECL(socket);
SYSCALL_DECL(socketpair);
SYSCALL_DECL(bind);
SYSCALL_DECL(listen);
SYSCALL_DECL(accept);
SYSCALL_DECL(accept4);
SYSCALL_DECL(connect);
SYSCALL_DECL(getsockname);
SYSCALL_DECL(getpeername);
SYSCALL_DECL(shutdown);
SYSCALL_DECL(send);
SYSCALL_DECL(sendto);
SYSCALL_DECL(recv);
SYSCALL_DECL(recvfrom);
SYSCALL_DECL(sendmsg);
SYSCALL_DECL(recvmsg);
SYSCALL_DECL(sendmmsg);
SYSCALL_DECL(recvmmsg);
SYSCALL_DECL(recvmmsg_time64);
SYSCALL_DECL(setsockopt);
SYSCALL_DECL(getsockopt);

#endif
