/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socket_proc.c - /proc/net/tcp, tcp6, udp, udp6 and unix: the machine's
 * sockets in the kernel's formats (net/ipv4/tcp_ipv4.c get_tcp4_sock,
 * net/ipv6/tcp_ipv6.c get_tcp6_sock, net/ipv4/udp.c udp4_format_sock,
 * net/ipv6/datagram.c __ip6_dgram_sock_seq_show, net/unix/af_unix.c
 * unix_seq_show). Kernel pointers read as zeros, as for an unprivileged
 * reader; timers and congestion fields are the values of an idle loopback
 * connection. */
#include "machine.h"
#include "socket.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TCP_ESTABLISHED 0x01
#define TCP_CLOSE_WAIT 0x08
#define TCP_CLOSE 0x07
#define TCP_LISTEN 0x0a
#define SO_ACCEPTCON_FLAG 0x10000
#define SS_UNCONNECTED_STATE 1
#define SS_CONNECTING_STATE 2
#define SS_CONNECTED_STATE 3
#define TCP4_LINE 149 /* seq_setwidth(TMPSZ - 1) */
#define UDP4_LINE 127

/* The sockets in the order they were made (the machine's list is newest
 * first): n of them into out, which the caller frees. */
static struct sock **in_order(struct machine *m, size_t *n)
{
    *n = 0;
    for (struct sock *s = m->socks; s; s = s->next_all)
        (*n)++;
    struct sock **v = calloc(*n ? *n : 1, sizeof *v);
    if (!v)
        return NULL;
    size_t i = *n;
    for (struct sock *s = m->socks; s; s = s->next_all)
        v[--i] = s;
    return v;
}

/* Ends a line padded with spaces to `width` (0: no padding). */
static void end_line(FILE *f, long start, int width)
{
    long len = ftell(f) - start;
    if (width && len < width)
        fprintf(f, "%*s", (int)(width - len), "");
    fputc('\n', f);
}

static void put_addr(FILE *f, const struct sock_addr *a)
{
    if (a->family == AF_INET) {
        fprintf(f, "%08X:%04X", a->in.sin_addr.s_addr, ntohs(a->in.sin_port));
        return;
    }
    uint32_t w[4] = {0};
    if (a->family == AF_INET6)
        memcpy(w, &a->in6.sin6_addr, sizeof w);
    fprintf(f, "%08X%08X%08X%08X:%04X", w[0], w[1], w[2], w[3],
            a->family == AF_INET6 ? ntohs(a->in6.sin6_port) : 0);
}

static int tcp_state(const struct sock *s)
{
    if (s->state == SOCK_LISTENING)
        return TCP_LISTEN;
    return s->peer_closed ? TCP_CLOSE_WAIT : TCP_ESTABLISHED;
}

static void inet_rows(FILE *f, struct sock **v, size_t n, int family, int type)
{
    bool v4 = family == AF_INET, tcp = type == SOCK_STREAM;
    int row = 0;
    /* Listeners come first, as the kernel walks its listening hash first. */
    for (int pass = tcp ? 0 : 1; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            const struct sock *s = v[i];
            /* UDP-Lite sockets belong in /proc/net/udplite, which asymu lacks. */
            if (s->family != family || s->type != type || !s->bound ||
                s->protocol == IPPROTO_UDPLITE)
                continue;
            if (tcp && ((pass == 0) != (s->state == SOCK_LISTENING) ||
                        s->state == SOCK_UNCONNECTED))
                continue;
            long start = ftell(f);
            fprintf(f, tcp ? "%4d: " : "%5d: ", row++);
            put_addr(f, &s->local);
            fputc(' ', f);
            struct sock_addr none = {.len = 0};
            none.family = (sa_family_t)family;
            put_addr(f, s->state == SOCK_CONNECTED ? &s->remote : &none);
            int st = tcp ? tcp_state(s) : s->state == SOCK_CONNECTED ? TCP_ESTABLISHED : TCP_CLOSE;
            unsigned rx = s->state == SOCK_LISTENING ? (unsigned)s->aq_count : (unsigned)s->rq_bytes;
            fprintf(f, " %02X %08X:%08X 00:00000000 00000000 %5u %8d %llu ", st, 0u, rx, 0u, 0,
                    (unsigned long long)s->ino);
            if (tcp)
                fprintf(f, "1 0000000000000000 %s",
                        st == TCP_LISTEN ? "100 0 0 10 0" : "20 4 30 10 -1");
            else
                fprintf(f, "2 0000000000000000 0");
            end_line(f, start, v4 ? (tcp ? TCP4_LINE : UDP4_LINE) : 0);
        }
    }
}

static void unix_rows(FILE *f, struct sock **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct sock *s = v[i];
        if (s->family != AF_UNIX)
            continue;
        int st = !s->has_file ? SS_CONNECTING_STATE
                 : s->state == SOCK_CONNECTED || s->peer ? SS_CONNECTED_STATE
                                                         : SS_UNCONNECTED_STATE;
        fprintf(f, "0000000000000000: %08X %08X %08X %04X %02X %5llu", 2u, 0u,
                s->state == SOCK_LISTENING ? SO_ACCEPTCON_FLAG : 0, s->type, st,
                (unsigned long long)s->ino);
        size_t len = s->local.len > sizeof(sa_family_t) ? s->local.len - sizeof(sa_family_t) : 0;
        if (len) {
            const char *p = s->local.un.sun_path;
            bool abstract = p[0] == '\0';
            fputc(' ', f);
            /* An abstract name shows its NULs as '@'; a path ends at its NUL. */
            for (size_t k = 0; k < len && (abstract || p[k]); k++)
                fputc(p[k] ? p[k] : '@', f);
        }
        fputc('\n', f);
    }
}

int sock_proc_net(struct machine *m, const char *name, char **data, size_t *size)
{
    static const char tcp4_head[] = "  sl  local_address rem_address   st tx_queue rx_queue tr "
                                    "tm->when retrnsmt   uid  timeout inode";
    static const char udp4_head[] = "   sl  local_address rem_address   st tx_queue rx_queue tr "
                                    "tm->when retrnsmt   uid  timeout inode ref pointer drops";
    static const char v6_head[] = "  sl  local_address                         remote_address    "
                                  "                    st tx_queue rx_queue tr tm->when retrnsmt"
                                  "   uid  timeout inode";
    size_t n;
    struct sock **v = in_order(m, &n);
    FILE *f = v ? open_memstream(data, size) : NULL;
    if (!f) {
        free(v);
        return -ENOMEM;
    }
    long start = 0;
    if (strcmp(name, "tcp") == 0) {
        fputs(tcp4_head, f);
        end_line(f, start, TCP4_LINE);
        inet_rows(f, v, n, AF_INET, SOCK_STREAM);
    } else if (strcmp(name, "udp") == 0) {
        fputs(udp4_head, f);
        end_line(f, start, UDP4_LINE);
        inet_rows(f, v, n, AF_INET, SOCK_DGRAM);
    } else if (strcmp(name, "tcp6") == 0 || strcmp(name, "udp6") == 0) {
        bool tcp = name[0] == 't';
        fprintf(f, "%s%s\n", v6_head, tcp ? "" : " ref pointer drops");
        inet_rows(f, v, n, AF_INET6, tcp ? SOCK_STREAM : SOCK_DGRAM);
    } else {
        fputs("Num       RefCount Protocol Flags    Type St Inode Path\n", f);
        unix_rows(f, v, n);
    }
    fclose(f);
    free(v);
    return 0;
}
