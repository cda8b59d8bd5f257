/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_sockopt.c - setsockopt and getsockopt: the SOL_SOCKET options,
 * TCP_NODELAY and IPV6_V6ONLY, and socket_pktinfo.c's IPv6 and UDP-Lite
 * ones. Everything else fails with ENOPROTOOPT (or
 * EOPNOTSUPP below SOL_SOCKET on AF_UNIX), as Linux does for an option it
 * does not know. */
#include "abi_user.h"
#include "mm.h"
#include "socket.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <limits.h>
#include <netinet/tcp.h>
#include <string.h>

#define GUEST_SO_RCVTIMEO_OLD 20
#define GUEST_SO_SNDTIMEO_OLD 21
#define GUEST_SO_RCVTIMEO_NEW 66
#define GUEST_SO_SNDTIMEO_NEW 67
#define NSEC_PER_USEC 1000
#define NSEC_PER_SEC 1000000000ull
/* Linux keeps socket timeouts in jiffies (CONFIG_HZ=250 on Debian's arm64
 * kernels): a timeout is rounded up to a whole tick, and reads back so. */
#define NSEC_PER_TICK 4000000ull

/* An option's value as the guest sees it: a few ints, or a struct. */
struct optval {
    uint8_t bytes[16];
    size_t len;
};

/* The timeval of SO_RCVTIMEO/SO_SNDTIMEO: two longs (4 bytes each on
 * armhf for the _OLD options), or two 64-bit fields for the _NEW ones. */
static unsigned timeval_field(struct task *t, int name)
{
    return name == GUEST_SO_RCVTIMEO_NEW || name == GUEST_SO_SNDTIMEO_NEW ? 8 : abi_time_field(t);
}

static int timeout_set(struct task *t, int name, const struct optval *v, uint64_t *ns)
{
    unsigned field = timeval_field(t, name);
    if (v->len < 2 * field)
        return -EINVAL;
    int64_t sec = 0, usec = 0;
    memcpy(&sec, v->bytes, field);
    memcpy(&usec, v->bytes + field, field);
    if (field == 4) {
        sec = (int32_t)sec;
        usec = (int32_t)usec;
    }
    if (usec < 0 || usec >= 1000000)
        return -EDOM;
    /* A negative time is the shortest wait; zero means none at all. */
    uint64_t usec_ns = ((uint64_t)usec * NSEC_PER_USEC + NSEC_PER_TICK - 1) / NSEC_PER_TICK *
                       NSEC_PER_TICK;
    *ns = sec < 0 ? 1 : (uint64_t)sec * NSEC_PER_SEC + usec_ns;
    return 0;
}

static void timeout_get(struct task *t, int name, uint64_t ns, struct optval *v)
{
    unsigned field = timeval_field(t, name);
    int64_t sec = (int64_t)(ns / NSEC_PER_SEC), usec = (int64_t)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
    memcpy(v->bytes, &sec, field);
    memcpy(v->bytes + field, &usec, field);
    v->len = 2 * field;
}

/* Linux's sock_setsockopt: SO_SNDBUF and SO_RCVBUF clamp the value as an
 * unsigned number to net.core.[wr]mem_max (a negative one is huge: the
 * maximum); SO_SNDBUFFORCE and SO_RCVBUFFORCE, for CAP_NET_ADMIN, skip
 * that clamp but take a negative value as 0. __sock_set_[sr]cvbuf then
 * clamp to INT_MAX / 2 and double, at least the minimum. A large buffer
 * only lets a queue grow: what it holds is counted as the machine's
 * kernel memory (kmem.h) and bounded there. */
static int buffer_size(int val, bool force, int min)
{
    uint32_t v = force ? (uint32_t)(val < 0 ? 0 : val)
                       : ((uint32_t)val > SOCK_BUF_MAX ? SOCK_BUF_MAX : (uint32_t)val);
    if (v > INT_MAX / 2)
        v = INT_MAX / 2;
    return (int)v * 2 > min ? (int)v * 2 : min;
}

static bool *flag_option(struct sock *s, int name)
{
    switch (name) {
    case SO_REUSEADDR: return &s->reuseaddr;
    case SO_KEEPALIVE: return &s->keepalive;
    case SO_BROADCAST: return &s->broadcast;
    case SO_PASSCRED: return &s->passcred;
    case SO_REUSEPORT: return s->family == AF_UNIX ? NULL : &s->reuseport;
    default: return NULL;
    }
}

static int set_socket_level(struct task *t, struct sock *s, int name, const struct optval *v)
{
    if (name == GUEST_SO_RCVTIMEO_OLD || name == GUEST_SO_RCVTIMEO_NEW)
        return timeout_set(t, name, v, &s->rcvtimeo_ns);
    if (name == GUEST_SO_SNDTIMEO_OLD || name == GUEST_SO_SNDTIMEO_NEW)
        return timeout_set(t, name, v, &s->sndtimeo_ns);
    if (v->len < sizeof(int))
        return -EINVAL;
    int val;
    memcpy(&val, v->bytes, sizeof val);
    bool *flag = flag_option(s, name);
    if (flag) {
        *flag = val != 0;
        return 0;
    }
    switch (name) {
    case SO_REUSEPORT:
        return -EOPNOTSUPP;
    case SO_SNDBUFFORCE:
    case SO_RCVBUFFORCE:
        if (!capable(t, CAP_NET_ADMIN))
            return -EPERM;
        /* fall through */
    case SO_SNDBUF:
    case SO_RCVBUF: {
        bool force = name == SO_SNDBUFFORCE || name == SO_RCVBUFFORCE;
        if (name == SO_SNDBUF || name == SO_SNDBUFFORCE)
            s->sndbuf = buffer_size(val, force, SOCK_MIN_SNDBUF);
        else
            s->rcvbuf = buffer_size(val, force, SOCK_MIN_RCVBUF);
        sock_changed(s);
        return 0;
    }
    case SO_LINGER:
        if (v->len < 2 * sizeof(int))
            return -EINVAL;
        s->linger_onoff = val != 0;
        memcpy(&s->linger_secs, v->bytes + sizeof(int), sizeof(int));
        return 0;
    default:
        return -ENOPROTOOPT;
    }
}

static int get_socket_level(struct task *t, struct sock *s, int name, struct optval *v)
{
    if (name == GUEST_SO_RCVTIMEO_OLD || name == GUEST_SO_RCVTIMEO_NEW) {
        timeout_get(t, name, s->rcvtimeo_ns, v);
        return 0;
    }
    if (name == GUEST_SO_SNDTIMEO_OLD || name == GUEST_SO_SNDTIMEO_NEW) {
        timeout_get(t, name, s->sndtimeo_ns, v);
        return 0;
    }
    int val;
    bool *flag = flag_option(s, name);
    switch (name) {
    case SO_TYPE: val = s->type; break;
    case SO_DOMAIN: val = s->family; break;
    case SO_PROTOCOL: val = s->protocol; break;
    case SO_ACCEPTCONN: val = s->state == SOCK_LISTENING; break;
    case SO_SNDBUF: val = s->sndbuf; break;
    case SO_RCVBUF: val = s->rcvbuf; break;
    case SO_ERROR:
        val = s->error;
        s->error = 0;
        break;
    case SO_LINGER: {
        int l[2] = {s->linger_onoff, s->linger_secs};
        memcpy(v->bytes, l, sizeof l);
        v->len = sizeof l;
        return 0;
    }
    case SO_PEERCRED:
        memcpy(v->bytes, &s->peercred, sizeof s->peercred);
        v->len = sizeof s->peercred;
        return 0;
    default:
        if (!flag)
            return name == SO_REUSEPORT ? -EOPNOTSUPP : -ENOPROTOOPT;
        val = *flag;
    }
    memcpy(v->bytes, &val, sizeof val);
    v->len = sizeof val;
    return 0;
}

/* The protocol levels: TCP_NODELAY on TCP, IPV6_V6ONLY on AF_INET6. */
static bool *protocol_option(struct sock *s, int level, int name)
{
    if (level == IPPROTO_TCP && s->type == SOCK_STREAM && name == TCP_NODELAY)
        return &s->nodelay;
    if (level == IPPROTO_IPV6 && s->family == AF_INET6 && name == IPV6_V6ONLY)
        return &s->v6only;
    return NULL;
}

SYSCALL_DECL(setsockopt)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    if (!s)
        return err;
    int level = (int)a[1], name = (int)a[2];
    if ((int32_t)a[4] < 0)
        return -EINVAL;
    struct optval v = {.len = (size_t)(uint32_t)a[4]};
    size_t n = v.len < sizeof v.bytes ? v.len : sizeof v.bytes;
    if (n && copy_from_guest(task_mm(t), v.bytes, a[3], n) < 0)
        return -EFAULT;
    if (level == SOL_SOCKET)
        return set_socket_level(t, s, name, &v);
    if (s->family == AF_UNIX)
        return -EOPNOTSUPP;
    if ((err = sock_pktinfo_setopt(s, level, name, v.bytes, v.len)) != -ENOPROTOOPT)
        return err;
    bool *flag = protocol_option(s, level, name);
    if (!flag)
        return -ENOPROTOOPT;
    if (v.len < sizeof(int))
        return -EINVAL;
    if (flag == &s->v6only && s->bound)
        return -EINVAL;
    int val;
    memcpy(&val, v.bytes, sizeof val);
    *flag = val != 0;
    return 0;
}

SYSCALL_DECL(getsockopt)
{
    int err;
    struct sock *s = sock_from_fd(t, (int)a[0], NULL, &err);
    if (!s)
        return err;
    int level = (int)a[1], name = (int)a[2];
    int32_t len;
    if (copy_from_guest(task_mm(t), &len, a[4], sizeof len) < 0)
        return -EFAULT;
    if (len < 0)
        return -EINVAL;
    struct optval v = {.len = 0};
    if (level == SOL_SOCKET) {
        err = get_socket_level(t, s, name, &v);
    } else if (s->family == AF_UNIX) {
        err = -EOPNOTSUPP;
    } else {
        bool *flag = protocol_option(s, level, name);
        int val = flag && *flag;
        err = flag ? 0 : sock_pktinfo_getopt(s, level, name, &val);
        memcpy(v.bytes, &val, sizeof val);
        v.len = sizeof val;
    }
    if (err < 0)
        return err;
    size_t n = (size_t)len < v.len ? (size_t)len : v.len;
    int32_t out = (int32_t)n;
    if (copy_to_guest(task_mm(t), a[3], v.bytes, n) < 0 ||
        copy_to_guest(task_mm(t), a[4], &out, sizeof out) < 0)
        return -EFAULT;
    return 0;
}
