/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socket_pktinfo.c - what an IP datagram carries besides its bytes, and the
 * options that set and show it: IPv6's hop limit and traffic class
 * (IPV6_UNICAST_HOPS, IPV6_TCLASS, and the IPV6_HOPLIMIT / IPV6_TCLASS
 * control messages of RFC 3542 with IPV6_RECVHOPLIMIT / IPV6_RECVTCLASS),
 * and UDP-Lite's checksum coverage. Nothing routes a packet, so the values
 * only travel from sender to receiver. */
#include "socket.h"

#include <errno.h>
#include <string.h>

#ifndef SOL_UDPLITE
#define SOL_UDPLITE 136
#endif
#define UDPLITE_SEND_CSCOV 10
#define UDPLITE_RECV_CSCOV 11
/* net.ipv6.conf.all.hop_limit: the hop limit a packet leaves with when the
 * socket sets none. */
#define IPV6_DEFAULT_HOPS 64
/* The two ECN bits of the traffic class, which TCP keeps for itself. */
#define INET_ECN_MASK 3

static int hop_limit(const struct sock *s)
{
    return s->unicast_hops >= 0 ? s->unicast_hops : IPV6_DEFAULT_HOPS;
}

/* ---- options ---- */

static bool is_udplite_level(const struct sock *s, int level)
{
    return (level == SOL_UDPLITE || level == IPPROTO_UDP) && s->type == SOCK_DGRAM;
}

/* UDP-Lite's coverage: 0 (the whole datagram) or 8..65535 bytes. */
static int cscov(int val)
{
    return val != 0 && val < 8 ? 8 : val > 0xffff ? 0xffff : val;
}

int sock_pktinfo_setopt(struct sock *s, int level, int name, const void *optval, size_t len)
{
    int val = 0;
    if (len >= sizeof val)
        memcpy(&val, optval, sizeof val);
    if (is_udplite_level(s, level) && (name == UDPLITE_SEND_CSCOV || name == UDPLITE_RECV_CSCOV)) {
        if (len < sizeof val)
            return -EINVAL;
        if (s->protocol != IPPROTO_UDPLITE)
            return -ENOPROTOOPT;
        *(name == UDPLITE_SEND_CSCOV ? &s->udplite_send_cscov : &s->udplite_recv_cscov) =
            cscov(val);
        return 0;
    }
    if (level != IPPROTO_IPV6 || s->family != AF_INET6)
        return -ENOPROTOOPT;
    switch (name) {
    case IPV6_RECVHOPLIMIT:
    case IPV6_RECVTCLASS:
        if (len < sizeof val)
            return -EINVAL;
        *(name == IPV6_RECVHOPLIMIT ? &s->recv_hoplimit : &s->recv_tclass) = val != 0;
        return 0;
    case IPV6_UNICAST_HOPS:
        if (len < sizeof val || val < -1 || val > 0xff)
            return -EINVAL;
        s->unicast_hops = val;
        return 0;
    case IPV6_TCLASS:
        if (len < sizeof val || val < -1 || val > 0xff)
            return -EINVAL;
        if (val == -1)
            val = 0;
        if (s->type == SOCK_STREAM)
            val = (val & ~INET_ECN_MASK) | (s->tclass & INET_ECN_MASK);
        s->tclass = val;
        return 0;
    default:
        return -ENOPROTOOPT;
    }
}

int sock_pktinfo_getopt(const struct sock *s, int level, int name, int *val)
{
    /* Linux reads the coverage back on plain UDP sockets too: 0. */
    if (is_udplite_level(s, level) && (name == UDPLITE_SEND_CSCOV || name == UDPLITE_RECV_CSCOV)) {
        *val = name == UDPLITE_SEND_CSCOV ? s->udplite_send_cscov : s->udplite_recv_cscov;
        return 0;
    }
    if (level != IPPROTO_IPV6 || s->family != AF_INET6)
        return -ENOPROTOOPT;
    switch (name) {
    case IPV6_RECVHOPLIMIT: *val = s->recv_hoplimit; return 0;
    case IPV6_RECVTCLASS: *val = s->recv_tclass; return 0;
    case IPV6_UNICAST_HOPS: *val = hop_limit(s); return 0;
    case IPV6_TCLASS: *val = s->tclass; return 0;
    default: return -ENOPROTOOPT;
    }
}

/* ---- control messages ---- */

int sock_pktinfo_cmsg(const struct sock *s, int level, int type, const void *data, size_t len,
                      struct sock_anc *anc)
{
    /* Only UDP over IPv6 reads IPPROTO_IPV6 control messages (TCP ignores
     * them), and asymu knows two of them: the others are ignored. */
    if (level != IPPROTO_IPV6 || s->family != AF_INET6 || s->type != SOCK_DGRAM ||
        (type != IPV6_HOPLIMIT && type != IPV6_TCLASS))
        return 0;
    int val;
    if (len != sizeof val)
        return -EINVAL;
    memcpy(&val, data, sizeof val);
    if (val < -1 || val > 0xff)
        return -EINVAL;
    if (val == -1) /* the socket's own value */
        return 0;
    if (type == IPV6_HOPLIMIT) {
        anc->has_hoplimit = true;
        anc->hoplimit = val;
    } else {
        anc->has_tclass = true;
        anc->tclass = val;
    }
    return 0;
}

void sock_pktinfo_stamp(const struct sock *from, const struct sock_anc *anc, struct sock_msg *msg)
{
    msg->hoplimit = anc && anc->has_hoplimit ? anc->hoplimit : hop_limit(from);
    msg->tclass = anc && anc->has_tclass ? anc->tclass : from->tclass;
}

void sock_pktinfo_take(const struct sock *s, const struct sock_msg *msg, struct sock_anc *anc)
{
    /* An IPv4 datagram on a dual-stack socket (a v4-mapped sender) carries
     * no IPv6 header to report. */
    if (s->family != AF_INET6 || s->type != SOCK_DGRAM || msg->from.family != AF_INET6 ||
        IN6_IS_ADDR_V4MAPPED(&msg->from.in6.sin6_addr))
        return;
    if (s->recv_hoplimit) {
        anc->has_hoplimit = true;
        anc->hoplimit = msg->hoplimit;
    }
    if (s->recv_tclass) {
        anc->has_tclass = true;
        anc->tclass = msg->tclass;
    }
}
