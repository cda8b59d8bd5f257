/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socket_netlink.c - the machine's one network interface, `lo`, with
 * 127.0.0.1/8 and ::1/128, as programs ask for it: AF_NETLINK NETLINK_ROUTE
 * (enough of rtnetlink for glibc's getifaddrs() and if_nameindex()), and the
 * SIOCGIF* ioctls on any socket (if_nametoindex). A netlink request's
 * answers are queued on the asking socket as one datagram, from the kernel
 * (port 0). */
#include "machine.h"
#include "mm.h"
#include "socket.h"
#include "task.h"

#include <errno.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define LO_INDEX 1
#define LO_MTU 65536
#define REPLY_MAX 4096
/* Linux gives a process's first netlink socket its pid as port id, later
 * ones negative numbers from -4096 down. */
#define PORT_ID_FIRST_OTHER (-4096)

struct reply {
    uint8_t buf[REPLY_MAX];
    size_t len;
    uint32_t seq, port;
};

/* Starts a message; returns its header, or NULL when the reply is full. */
static struct nlmsghdr *msg_begin(struct reply *r, uint16_t type, uint16_t flags)
{
    if (r->len + NLMSG_HDRLEN > sizeof r->buf)
        return NULL;
    struct nlmsghdr *h = (struct nlmsghdr *)(r->buf + r->len);
    *h = (struct nlmsghdr){.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = type, .nlmsg_flags = flags,
                           .nlmsg_seq = r->seq, .nlmsg_pid = r->port};
    r->len += NLMSG_HDRLEN;
    return h;
}

/* Appends bytes (aligned) to the message h that ends the reply. */
static void msg_put(struct reply *r, struct nlmsghdr *h, const void *data, size_t len)
{
    size_t space = NLMSG_ALIGN(len);
    if (!h || r->len + space > sizeof r->buf)
        return;
    memset(r->buf + r->len, 0, space);
    memcpy(r->buf + r->len, data, len);
    r->len += space;
    h->nlmsg_len += (uint32_t)space;
}

static void attr_put(struct reply *r, struct nlmsghdr *h, uint16_t type, const void *data,
                     size_t len)
{
    struct rtattr a = {.rta_len = (unsigned short)RTA_LENGTH(len), .rta_type = type};
    uint8_t tmp[64];
    memcpy(tmp, &a, sizeof a);
    memcpy(tmp + RTA_LENGTH(0), data, len);
    msg_put(r, h, tmp, RTA_LENGTH(len));
}

static void put_link(struct reply *r)
{
    struct nlmsghdr *h = msg_begin(r, RTM_NEWLINK, NLM_F_MULTI);
    struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_type = ARPHRD_LOOPBACK,
                            .ifi_index = LO_INDEX,
                            .ifi_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING | IFF_LOWER_UP};
    msg_put(r, h, &ifi, sizeof ifi);
    static const uint8_t mac[6] = {0};
    uint32_t mtu = LO_MTU, txqlen = 1000;
    uint8_t operstate = IF_OPER_UNKNOWN;
    attr_put(r, h, IFLA_IFNAME, "lo", 3);
    attr_put(r, h, IFLA_TXQLEN, &txqlen, sizeof txqlen);
    attr_put(r, h, IFLA_OPERSTATE, &operstate, sizeof operstate);
    attr_put(r, h, IFLA_MTU, &mtu, sizeof mtu);
    attr_put(r, h, IFLA_ADDRESS, mac, sizeof mac);
    attr_put(r, h, IFLA_BROADCAST, mac, sizeof mac);
}

static void put_addr(struct reply *r, int family)
{
    struct nlmsghdr *h = msg_begin(r, RTM_NEWADDR, NLM_F_MULTI);
    bool v4 = family == AF_INET;
    struct ifaddrmsg ifa = {.ifa_family = (uint8_t)family, .ifa_prefixlen = v4 ? 8 : 128,
                            .ifa_flags = IFA_F_PERMANENT, .ifa_scope = RT_SCOPE_HOST,
                            .ifa_index = LO_INDEX};
    msg_put(r, h, &ifa, sizeof ifa);
    uint8_t ip[16] = {0};
    if (v4) {
        ip[0] = 127;
        ip[3] = 1;
    } else {
        ip[15] = 1;
    }
    attr_put(r, h, IFA_ADDRESS, ip, v4 ? 4 : 16);
    if (v4) {
        attr_put(r, h, IFA_LOCAL, ip, 4);
        attr_put(r, h, IFA_LABEL, "lo", 3);
    }
}

static void put_done(struct reply *r, int error, const struct nlmsghdr *req)
{
    if (error == 0) {
        int32_t zero = 0;
        msg_put(r, msg_begin(r, NLMSG_DONE, NLM_F_MULTI), &zero, sizeof zero);
        return;
    }
    struct nlmsgerr e = {.error = error, .msg = *req};
    msg_put(r, msg_begin(r, NLMSG_ERROR, 0), &e, sizeof e);
}

/* Answers one request: a dump of links or addresses, or EOPNOTSUPP. */
static void answer(struct reply *r, const struct nlmsghdr *req, size_t len)
{
    r->seq = req->nlmsg_seq;
    uint8_t family = len > NLMSG_HDRLEN ? *((const uint8_t *)req + NLMSG_HDRLEN) : AF_UNSPEC;
    bool dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
    if (dump && req->nlmsg_type == RTM_GETLINK) {
        put_link(r);
    } else if (dump && req->nlmsg_type == RTM_GETADDR) {
        if (family == AF_UNSPEC || family == AF_INET)
            put_addr(r, AF_INET);
        if (family == AF_UNSPEC || family == AF_INET6)
            put_addr(r, AF_INET6);
    } else {
        put_done(r, -EOPNOTSUPP, req);
        return;
    }
    put_done(r, 0, req);
}

void netlink_autobind(struct task *t, struct sock *s)
{
    int32_t port = t->proc->pid;
    for (bool taken = true; taken;) {
        taken = false;
        for (const struct sock *o = t->machine->socks; o && !taken; o = o->next_all)
            taken = o != s && o->family == AF_NETLINK && o->bound &&
                    (int32_t)o->local.nl.nl_pid == port;
        if (taken)
            port = port > 0 ? PORT_ID_FIRST_OTHER : port - 1;
    }
    memset(&s->local, 0, sizeof s->local);
    s->local.len = sizeof s->local.nl;
    s->local.nl.nl_family = AF_NETLINK;
    s->local.nl.nl_pid = (uint32_t)port;
    s->bound = true;
}

int64_t netlink_send(struct task *t, struct sock *s, const void *buf, size_t len)
{
    if (!s->bound)
        netlink_autobind(t, s);
    struct reply r;
    r.len = 0;
    r.port = s->local.nl.nl_pid;
    const uint8_t *p = buf;
    for (size_t off = 0; off + NLMSG_HDRLEN <= len;) {
        struct nlmsghdr req;
        memcpy(&req, p + off, sizeof req);
        if (req.nlmsg_len < NLMSG_HDRLEN || req.nlmsg_len > len - off)
            break;
        if (req.nlmsg_flags & NLM_F_REQUEST)
            answer(&r, (const struct nlmsghdr *)(p + off), req.nlmsg_len);
        off += NLMSG_ALIGN(req.nlmsg_len);
    }
    if (r.len) {
        struct sock_msg *msg = sock_msg_alloc(s->machine, r.len);
        if (!msg)
            return -ENOBUFS;
        memcpy(msg->data, r.buf, r.len);
        msg->len = r.len;
        msg->from.len = sizeof msg->from.nl;
        msg->from.nl.nl_family = AF_NETLINK;
        sock_queue(s, msg);
    }
    return (int64_t)len;
}

/* struct ifreq begins with the name; the index, flags or MTU follow it at
 * the same offset on both ABIs. */
#define IFREQ_VALUE IFNAMSIZ

int64_t netif_ioctl(struct task *t, unsigned long req, uint64_t arg)
{
    if (req != SIOCGIFINDEX && req != SIOCGIFNAME && req != SIOCGIFFLAGS && req != SIOCGIFMTU)
        return -ENOTTY;
    struct mm *mm = task_mm(t);
    if (req == SIOCGIFNAME) {
        int32_t index;
        if (copy_from_guest(mm, &index, arg + IFREQ_VALUE, sizeof index) < 0)
            return -EFAULT;
        char name[IFNAMSIZ] = "lo";
        return index != LO_INDEX ? -ENODEV : copy_to_guest(mm, arg, name, sizeof name);
    }
    char name[IFNAMSIZ];
    if (copy_from_guest(mm, name, arg, sizeof name) < 0)
        return -EFAULT;
    if (strncmp(name, "lo", sizeof name) != 0)
        return -ENODEV;
    int32_t v = req == SIOCGIFINDEX ? LO_INDEX : req == SIOCGIFMTU ? LO_MTU
                                                 : IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
    return copy_to_guest(mm, arg + IFREQ_VALUE, &v, req == SIOCGIFFLAGS ? 2 : sizeof v);
}
