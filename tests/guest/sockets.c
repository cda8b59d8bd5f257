/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sockets.c - sockets between guest processes: `sockets CMD`, where CMD is
 * one of the functions named in the table at the end. Each prints exact
 * results (bytes, errno names, addresses) so the output is the same on
 * Linux (qemu-user) and under asymu, except where a comment says why not. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define DIR "/tmp/socktest-" ISA
/* UDP-Lite's options (linux/udp.h, which the cross toolchains lack). */
#define UDPLITE_SEND_CSCOV 10
#define UDPLITE_RECV_CSCOV 11

static void die(const char *what)
{
    printf("%s: %s\n", what, err_name(errno));
    exit(1);
}

/* Prints "what = r" or "what = ENAME". */
static long show(const char *what, long r)
{
    if (r < 0)
        printf("%s = %s\n", what, err_name(errno));
    else
        printf("%s = %ld\n", what, r);
    return r;
}

static int must(const char *what, int r)
{
    if (r < 0)
        die(what);
    return r;
}

static void wait_child(pid_t pid)
{
    int st;
    fflush(stdout);
    if (waitpid(pid, &st, 0) != pid)
        die("waitpid");
    if (WIFSIGNALED(st))
        printf("child killed by %s\n", sigabbrev_np(WTERMSIG(st)));
    else if (WEXITSTATUS(st))
        printf("child exited %d\n", WEXITSTATUS(st));
}

static pid_t fork_child(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    return pid;
}

static struct sockaddr_un unix_addr(const char *path, socklen_t *len)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strcpy(a.sun_path, path);
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path) + 1);
    return a;
}

static const char *pollbits(short r)
{
    static char buf[128];
    buf[0] = '\0';
    static const struct {
        short bit;
        const char *name;
    } b[] = {{POLLIN, "IN"}, {POLLOUT, "OUT"}, {POLLERR, "ERR"}, {POLLHUP, "HUP"},
             {POLLRDHUP, "RDHUP"}, {POLLNVAL, "NVAL"}};
    for (size_t i = 0; i < sizeof b / sizeof *b; i++)
        if (r & b[i].bit)
            strcat(strcat(buf, buf[0] ? "|" : ""), b[i].name);
    return buf[0] ? buf : "0";
}

static void show_poll(const char *what, int fd)
{
    struct pollfd p = {fd, POLLIN | POLLOUT | POLLRDHUP, 0};
    poll(&p, 1, 0);
    printf("%s poll: %s\n", what, pollbits(p.revents));
}

static void show_recv(const char *what, int fd, int flags)
{
    char buf[64];
    ssize_t n = recv(fd, buf, sizeof buf - 1, flags);
    if (n < 0) {
        printf("%s = %s\n", what, err_name(errno));
        return;
    }
    buf[n] = '\0';
    printf("%s = %zd \"%s\"\n", what, n, buf);
}

static void clean_dir(void)
{
    static const char *names[] = {"s.sock", "d.sock", "c.sock", "plain", "nolisten.sock",
                                  "q.sock"};
    mkdir(DIR, 0777);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", DIR, names[i]);
        unlink(p);
    }
}

/* ---- AF_UNIX stream through a path ---- */

static int unix_stream(void)
{
    clean_dir();
    socklen_t len;
    struct sockaddr_un a = unix_addr(DIR "/s.sock", &len);
    int l = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    show("bind", bind(l, (struct sockaddr *)&a, len));
    struct stat st;
    must("stat", stat(DIR "/s.sock", &st));
    printf("path is a socket: %s, mode %o\n", S_ISSOCK(st.st_mode) ? "yes" : "no",
           st.st_mode & 0777);
    int again = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    show("bind to the same path", bind(again, (struct sockaddr *)&a, len));
    show("connect before listen", connect(again, (struct sockaddr *)&a, len));
    show("listen", listen(l, 4));
    struct sockaddr_un got;
    socklen_t glen = sizeof got;
    must("getsockname", getsockname(l, (struct sockaddr *)&got, &glen));
    printf("getsockname: path %s, len %s\n", strcmp(got.sun_path, DIR "/s.sock") ? "?" : "DIR/s.sock",
           glen == len ? "as bound" : "?");

    pid_t pid = fork_child();
    if (pid == 0) {
        int c = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
        must("connect", connect(c, (struct sockaddr *)&a, len));
        show("child send", send(c, "hello", 5, 0));
        show_recv("child recv", c, 0);
        /* Two pieces the parent reads at once with MSG_WAITALL. */
        send(c, "abc", 3, 0);
        usleep(1000);
        send(c, "defgh", 5, 0);
        shutdown(c, SHUT_WR);
        show_recv("child recv after its shutdown", c, 0);
        close(c);
        exit(0);
    }
    int s = must("accept", accept(l, NULL, NULL));
    glen = sizeof got;
    must("getpeername", getpeername(s, (struct sockaddr *)&got, &glen));
    printf("peer: len %u family %d\n", (unsigned)glen, got.sun_family);
    struct stat fst;
    fstat(s, &fst);
    printf("fstat: socket %s\n", S_ISSOCK(fst.st_mode) ? "yes" : "no");
    char link[64], proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", s);
    ssize_t n = readlink(proc, link, sizeof link - 1);
    link[n > 0 ? n : 0] = '\0';
    printf("fd link starts with socket:[ %s\n", strncmp(link, "socket:[", 8) == 0 ? "yes" : link);
    show_recv("parent peek", s, MSG_PEEK);
    int avail = -1;
    ioctl(s, FIONREAD, &avail);
    printf("FIONREAD = %d\n", avail);
    show_recv("parent recv", s, 0);
    show("parent write", write(s, "world", 5));
    char buf[16] = {0};
    show("parent recv MSG_WAITALL 8", recv(s, buf, 8, MSG_WAITALL));
    printf("got \"%s\"\n", buf);
    show("parent read at end", read(s, buf, sizeof buf));
    show_poll("parent after peer shutdown", s);
    shutdown(s, SHUT_WR);
    wait_child(pid);
    show_poll("parent after peer close", s);
    close(s);
    close(l);
    show("unlink", unlink(DIR "/s.sock"));
    show("connect to the removed path", connect(again, (struct sockaddr *)&a, len));
    int f = must("creat", open(DIR "/plain", O_CREAT | O_WRONLY, 0644));
    close(f);
    struct sockaddr_un p = unix_addr(DIR "/plain", &len);
    show("connect to a plain file", connect(again, (struct sockaddr *)&p, len));
    unlink(DIR "/plain");
    return 0;
}

/* ---- socketpair, all three types ---- */

static int pair(void)
{
    int sv[2];
    show("socketpair stream", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    show_poll("fresh pair", sv[0]);
    struct iovec out[2] = {{"ab", 2}, {"cde", 3}};
    show("writev", writev(sv[0], out, 2));
    char x[2], y[8] = {0};
    struct iovec in[2] = {{x, 2}, {y, sizeof y - 1}};
    show("readv", readv(sv[1], in, 2));
    printf("readv got \"%.2s\" \"%s\"\n", x, y);
    show("nonblocking read of nothing", recv(sv[1], y, 1, MSG_DONTWAIT));
    show("shutdown bad how", shutdown(sv[0], 7));
    shutdown(sv[0], SHUT_WR);
    show_poll("after own SHUT_WR", sv[0]);
    show_poll("after peer SHUT_WR", sv[1]);
    show("send after SHUT_WR", send(sv[0], "z", 1, MSG_NOSIGNAL));
    show("read after peer SHUT_WR", read(sv[1], y, 1));
    close(sv[0]);
    show_poll("after peer close", sv[1]);
    close(sv[1]);

    for (int type = SOCK_DGRAM; type <= SOCK_SEQPACKET; type += SOCK_SEQPACKET - SOCK_DGRAM) {
        const char *name = type == SOCK_DGRAM ? "dgram" : "seqpacket";
        printf("-- %s pair\n", name);
        must("socketpair", socketpair(AF_UNIX, type, 0, sv));
        send(sv[0], "one", 3, 0);
        send(sv[0], "three", 5, 0);
        send(sv[0], "", 0, 0);
        int avail = -1;
        ioctl(sv[1], FIONREAD, &avail);
        printf("FIONREAD = %d\n", avail);
        show_recv("recv", sv[1], 0);
        char small[3];
        struct iovec iov = {small, sizeof small};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
        long n = recvmsg(sv[1], &m, 0);
        printf("recvmsg into 3 bytes = %ld \"%.3s\" flags%s\n", n, small,
               (m.msg_flags & MSG_TRUNC) ? " MSG_TRUNC" : "");
        show("empty datagram", recv(sv[1], small, sizeof small, 0));
        send(sv[0], "fourteen bytes", 14, 0);
        show("recv MSG_TRUNC into 3", recv(sv[1], small, sizeof small, MSG_TRUNC));
        close(sv[0]);
        /* A datagram socket does not see its peer go: it would wait. */
        show("recv after peer close", recv(sv[1], small, sizeof small, MSG_DONTWAIT));
        close(sv[1]);
    }
    return 0;
}

/* ---- sendmmsg and recvmmsg: struct mmsghdr of the ABI ---- */

static int mmsg(void)
{
    int sv[2];
    must("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
    static const char *const words[] = {"alpha", "be", "gamma-delta"};
    struct iovec out[3];
    struct mmsghdr m[4];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 3; i++) {
        out[i] = (struct iovec){(void *)words[i], strlen(words[i])};
        m[i].msg_hdr.msg_iov = &out[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    show("sendmmsg", sendmmsg(sv[0], m, 3, 0));
    printf("msg_len: %u %u %u\n", m[0].msg_len, m[1].msg_len, m[2].msg_len);
    char buf[4][8];
    struct iovec in[4];
    memset(m, 0, sizeof m);
    for (int i = 0; i < 4; i++) {
        in[i] = (struct iovec){buf[i], sizeof buf[i]};
        m[i].msg_hdr.msg_iov = &in[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    show("recvmmsg of 4, 3 waiting", recvmmsg(sv[1], m, 4, MSG_DONTWAIT, NULL));
    for (int i = 0; i < 3; i++)
        printf("message %d: %u bytes \"%.*s\"%s\n", i, m[i].msg_len, (int)m[i].msg_len,
               buf[i], (m[i].msg_hdr.msg_flags & MSG_TRUNC) ? " MSG_TRUNC" : "");
    show("recvmmsg with nothing", recvmmsg(sv[1], m, 4, MSG_DONTWAIT, NULL));
    return 0;
}

/* ---- AF_UNIX datagrams between named sockets ---- */

static int unix_dgram(void)
{
    clean_dir();
    socklen_t slen, clen;
    struct sockaddr_un sa = unix_addr(DIR "/d.sock", &slen), ca = unix_addr(DIR "/c.sock", &clen);
    int s = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    must("bind", bind(s, (struct sockaddr *)&sa, slen));
    int c = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    show("send unconnected", send(c, "x", 1, 0));
    show("sendto from unbound", sendto(c, "anon", 4, 0, (struct sockaddr *)&sa, slen));
    /* Linux names the sender as it is when the datagram is read. */
    for (int i = 0; i < 2; i++) {
        if (i)
            must("bind", bind(c, (struct sockaddr *)&ca, clen)),
                show("sendto from bound", sendto(c, "named", 5, 0, (struct sockaddr *)&sa, slen));
        char buf[16] = {0};
        struct sockaddr_un from;
        socklen_t flen = sizeof from;
        memset(&from, 0, sizeof from);
        long n = recvfrom(s, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen);
        printf("recvfrom = %ld \"%s\" from len %u \"%s\"\n", n, buf, (unsigned)flen,
               flen > 2 ? from.sun_path : "");
    }
    show("connect", connect(c, (struct sockaddr *)&sa, slen));
    int sent = 0;
    while (send(c, "m", 1, MSG_DONTWAIT) == 1)
        sent++;
    printf("queued %d datagrams, then %s\n", sent, err_name(errno));
    show_poll("sender with a full peer", c);
    char b;
    recv(s, &b, 1, 0);
    show_poll("sender after one is read", c);
    int other = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    show("connect to a socket connected elsewhere... sendto",
         sendto(other, "y", 1, 0, (struct sockaddr *)&ca, clen));
    close(s);
    show("send to a closed peer", send(c, "z", 1, 0));
    show("send again", send(c, "z", 1, 0));
    return 0;
}

/* ---- SOCK_SEQPACKET with a listener ---- */

static int seqpacket(void)
{
    clean_dir();
    socklen_t len;
    struct sockaddr_un a = unix_addr(DIR "/q.sock", &len);
    int l = must("socket", socket(AF_UNIX, SOCK_SEQPACKET, 0));
    must("bind", bind(l, (struct sockaddr *)&a, len));
    must("listen", listen(l, 1));
    pid_t pid = fork_child();
    if (pid == 0) {
        int c = must("socket", socket(AF_UNIX, SOCK_SEQPACKET, 0));
        must("connect", connect(c, (struct sockaddr *)&a, len));
        send(c, "first", 5, 0);
        send(c, "second message", 14, 0);
        close(c);
        exit(0);
    }
    int s = must("accept", accept(l, NULL, NULL));
    wait_child(pid);
    show_recv("recv", s, 0);
    char small[6];
    struct iovec iov = {small, sizeof small};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    long n = recvmsg(s, &m, 0);
    printf("recvmsg into 6 = %ld \"%.6s\" flags%s\n", n, small,
           (m.msg_flags & MSG_TRUNC) ? " MSG_TRUNC" : "");
    show("recv at end", recv(s, small, sizeof small, 0));
    int d = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    show("dgram connect to a seqpacket listener", connect(d, (struct sockaddr *)&a, len));
    show("listen on a dgram socket", listen(d, 1));
    show("accept on a dgram socket", accept(d, NULL, NULL));
    return 0;
}

/* ---- abstract names and autobind ---- */

static void show_name(const char *what, int fd)
{
    struct sockaddr_un a;
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    int n = (int)len - (int)offsetof(struct sockaddr_un, sun_path);
    printf("%s: len %u name %s%.*s\n", what, (unsigned)len, n > 0 && !a.sun_path[0] ? "@" : "",
           n > 0 ? n - !a.sun_path[0] : 0, a.sun_path + (n > 0 && !a.sun_path[0]));
}

static int abstract(void)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, "\0asymu-abstract", 15);
    socklen_t len = offsetof(struct sockaddr_un, sun_path) + 15;
    int l = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    int c = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    show("connect before bind", connect(c, (struct sockaddr *)&a, len));
    show("bind", bind(l, (struct sockaddr *)&a, len));
    show_name("bound", l);
    int dup = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    show("bind the same name", bind(dup, (struct sockaddr *)&a, len));
    int dg = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    show("bind the same name, another type", bind(dg, (struct sockaddr *)&a, len));
    must("listen", listen(l, 1));
    show("connect", connect(c, (struct sockaddr *)&a, len));
    show_name("unnamed client", c);
    int s = must("accept", accept(l, NULL, NULL));
    show_name("accepted", s);
    int ab = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    struct sockaddr_un fam = {.sun_family = AF_UNIX};
    show("autobind", bind(ab, (struct sockaddr *)&fam, sizeof(sa_family_t)));
    struct sockaddr_un got;
    socklen_t glen = sizeof got;
    getsockname(ab, (struct sockaddr *)&got, &glen);
    /* Linux's first autobind name is @00001 at boot; a host has used many. */
    printf("autobind: len %u, abstract %s, 5 hex digits %s\n", (unsigned)glen,
           got.sun_path[0] == '\0' ? "yes" : "no",
           strspn(got.sun_path + 1, "0123456789abcdef") == 5 ? "yes" : "no");
    show("bind again", bind(ab, (struct sockaddr *)&fam, sizeof(sa_family_t)));
    return 0;
}

/* ---- SCM_RIGHTS and SCM_CREDENTIALS ---- */

static int send_fds(int sock, const int *fds, int n)
{
    char ctl[CMSG_SPACE(sizeof(int) * 4)] = {0};
    struct iovec iov = {"F", 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                       .msg_controllen = CMSG_SPACE(sizeof(int) * n)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * n);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
    return (int)sendmsg(sock, &m, 0);
}

static int scm_rights(void)
{
    int sv[2], p[2];
    must("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    must("pipe", pipe(p));
    pid_t pid = fork_child();
    if (pid == 0) {
        close(sv[0]);
        close(p[0]);
        close(p[1]);
        char ctl[CMSG_SPACE(sizeof(int))], b;
        struct iovec iov = {&b, 1};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                           .msg_controllen = sizeof ctl};
        show("child recvmsg", recvmsg(sv[1], &m, 0));
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        if (!c)
            die("no control message");
        int fd;
        memcpy(&fd, CMSG_DATA(c), sizeof fd);
        printf("child got level %d type %d len %zu fd %d, flags %d\n", c->cmsg_level,
               c->cmsg_type, (size_t)c->cmsg_len, fd, m.msg_flags);
        char buf[32] = {0};
        show("child read from the passed pipe", read(fd, buf, sizeof buf - 1));
        printf("child read \"%s\"\n", buf);
        /* Two files, room for one: one installed, the other closed. */
        m.msg_controllen = CMSG_LEN(sizeof(int));
        show("child recvmsg short control", recvmsg(sv[1], &m, 0));
        c = CMSG_FIRSTHDR(&m);
        if (!c)
            die("no control message");
        printf("child got %zu bytes of fds, flags%s\n", (size_t)c->cmsg_len - CMSG_LEN(0),
               (m.msg_flags & MSG_CTRUNC) ? " MSG_CTRUNC" : "");
        exit(0);
    }
    close(sv[1]);
    /* The parent prints after the child, so the order is Linux's too. */
    long one = send_fds(sv[0], &p[0], 1);
    close(p[0]);
    write(p[1], "through a passed fd", 19);
    int two[2] = {p[1], p[1]}, bad = 999;
    long both = send_fds(sv[0], two, 2);
    long closed = send_fds(sv[0], &bad, 1);
    int closed_errno = errno;
    wait_child(pid);
    show("send the pipe's read end", one);
    show("send two fds", both);
    errno = closed_errno;
    show("send a closed fd", closed);

    /* SCM_CREDENTIALS: the receiver asks with SO_PASSCRED. */
    must("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
    int on = 1;
    must("SO_PASSCRED", setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof on));
    pid = fork_child();
    if (pid == 0) {
        send(sv[0], "c", 1, 0);
        exit(0);
    }
    wait_child(pid);
    char ctl[CMSG_SPACE(sizeof(struct ucred))], b;
    struct iovec iov = {&b, 1};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                       .msg_controllen = sizeof ctl};
    show("recvmsg with SO_PASSCRED", recvmsg(sv[1], &m, 0));
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (!c)
        die("no control message");
    struct ucred cr;
    memcpy(&cr, CMSG_DATA(c), sizeof cr);
    printf("credentials: type %s, pid is the child %s, uid %d, gid %d\n",
           c->cmsg_type == SCM_CREDENTIALS ? "SCM_CREDENTIALS" : "?", cr.pid == pid ? "yes" : "no",
           (int)cr.uid, (int)cr.gid);
    return 0;
}

/* ---- SO_PEERCRED ---- */

static int peercred(void)
{
    int sv[2];
    must("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    struct ucred cr;
    socklen_t len = sizeof cr;
    must("SO_PEERCRED", getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cr, &len));
    printf("pair: len %u, pid is mine %s, uid %d\n", (unsigned)len,
           cr.pid == getpid() ? "yes" : "no", (int)cr.uid);
    int u = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    len = sizeof cr;
    getsockopt(u, SOL_SOCKET, SO_PEERCRED, &cr, &len);
    printf("unconnected: pid %d uid %d gid %d\n", cr.pid, (int)cr.uid, (int)cr.gid);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, "\0asymu-peercred", 15);
    socklen_t alen = offsetof(struct sockaddr_un, sun_path) + 15;
    must("bind", bind(u, (struct sockaddr *)&a, alen));
    must("listen", listen(u, 1));
    pid_t parent = getpid();
    pid_t pid = fork_child();
    if (pid == 0) {
        int c = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
        must("connect", connect(c, (struct sockaddr *)&a, alen));
        len = sizeof cr;
        getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len);
        printf("child: the peer is the parent %s\n", cr.pid == parent ? "yes" : "no");
        exit(0);
    }
    int s = must("accept", accept(u, NULL, NULL));
    wait_child(pid);
    len = sizeof cr;
    getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &len);
    printf("parent: the peer is the child %s\n", cr.pid == pid ? "yes" : "no");
    return 0;
}

/* ---- TCP and UDP on the loopback ---- */

static const char *inet_name(const struct sockaddr *sa)
{
    static char buf[INET6_ADDRSTRLEN + 16];
    char ip[INET6_ADDRSTRLEN];
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
        snprintf(buf, sizeof buf, "%s", ip);
    } else {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip);
        snprintf(buf, sizeof buf, "[%s]", ip);
    }
    return buf;
}

static int port_of(const struct sockaddr_storage *ss)
{
    return ntohs(ss->ss_family == AF_INET ? ((const struct sockaddr_in *)ss)->sin_port
                                          : ((const struct sockaddr_in6 *)ss)->sin6_port);
}

static int local_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &len);
    return port_of(&ss);
}

/* Ports differ between runs on Linux; the tests print their relations. */
static void show_ends(const char *what, int fd, int client_port, int server_port)
{
    struct sockaddr_storage me, peer;
    socklen_t ml = sizeof me, pl = sizeof peer;
    getsockname(fd, (struct sockaddr *)&me, &ml);
    getpeername(fd, (struct sockaddr *)&peer, &pl);
    char mine[64];
    snprintf(mine, sizeof mine, "%s", inet_name((struct sockaddr *)&me));
    printf("%s: local %s port %s, peer %s port %s (lengths %u %u)\n", what, mine,
           port_of(&me) == server_port ? "server" : port_of(&me) == client_port ? "client" : "?",
           inet_name((struct sockaddr *)&peer),
           port_of(&peer) == server_port ? "server" : port_of(&peer) == client_port ? "client" : "?",
           (unsigned)ml, (unsigned)pl);
}

static int tcp_listener(int family, const char *ip)
{
    int l = must("socket", socket(family, SOCK_STREAM, 0));
    struct sockaddr_storage ss = {0};
    socklen_t len;
    if (family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&ss;
        in->sin_family = AF_INET;
        inet_pton(AF_INET, ip, &in->sin_addr);
        len = sizeof *in;
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
        in6->sin6_family = AF_INET6;
        inet_pton(AF_INET6, ip, &in6->sin6_addr);
        len = sizeof *in6;
    }
    must("bind", bind(l, (struct sockaddr *)&ss, len));
    must("listen", listen(l, 8));
    return l;
}

static int tcp_connect(int family, const char *ip, int port, int flags)
{
    int c = must("socket", socket(family, SOCK_STREAM | flags, 0));
    struct sockaddr_storage ss = {0};
    socklen_t len;
    if (family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&ss;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)port);
        inet_pton(AF_INET, ip, &in->sin_addr);
        len = sizeof *in;
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        inet_pton(AF_INET6, ip, &in6->sin6_addr);
        len = sizeof *in6;
    }
    if (connect(c, (struct sockaddr *)&ss, len) < 0) {
        int e = errno;
        close(c);
        errno = e;
        return -1;
    }
    return c;
}

static int tcp(void)
{
    int l = tcp_listener(AF_INET, "127.0.0.1");
    int port = local_port(l);
    printf("listener port is ephemeral: %s\n", port >= 32768 && port <= 60999 ? "yes" : "no");
    pid_t pid = fork_child();
    if (pid == 0) {
        int c = tcp_connect(AF_INET, "127.0.0.1", port, 0);
        if (c < 0)
            die("connect");
        show_ends("client", c, local_port(c), port);
        char buf[1000];
        memset(buf, 'x', sizeof buf);
        long total = 0;
        for (int i = 0; i < 300; i++)
            total += send(c, buf, sizeof buf, 0);
        printf("client sent %ld\n", total);
        show_recv("client recv", c, 0);
        close(c);
        exit(0);
    }
    int s = must("accept", accept(l, NULL, NULL));
    static char big[300000];
    long n = recv(s, big, sizeof big, MSG_WAITALL);
    long sent = send(s, "thanks", 6, 0);
    wait_child(pid);
    printf("server received %ld with MSG_WAITALL\n", n);
    show("server send", sent);
    struct sockaddr_storage peer;
    socklen_t pl = sizeof peer;
    getpeername(s, (struct sockaddr *)&peer, &pl);
    show_ends("server", s, port_of(&peer), port);
    show("server recv at end", recv(s, big, 10, 0));

    /* The same port again: refused unless SO_REUSEADDR on both and the
     * other is not listening, or SO_REUSEPORT on both. */
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int b = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    show("bind 0.0.0.0 to a port a listener has", bind(b, (struct sockaddr *)&a, sizeof a));
    int on = 1;
    setsockopt(b, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    show("... with SO_REUSEADDR on both", bind(b, (struct sockaddr *)&a, sizeof a));
    close(l);
    show("... after the listener closed", bind(b, (struct sockaddr *)&a, sizeof a));
    int r1 = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    int r2 = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    setsockopt(r1, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
    setsockopt(r2, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
    a.sin_port = 0;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    must("bind", bind(r1, (struct sockaddr *)&a, sizeof a));
    a.sin_port = htons((uint16_t)local_port(r1));
    show("bind with SO_REUSEPORT on both", bind(r2, (struct sockaddr *)&a, sizeof a));
    show("listen on both", listen(r1, 1) + listen(r2, 1));
    a.sin_addr.s_addr = htonl(0x0a000001);
    a.sin_port = 0;
    int x = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    show("bind 10.0.0.1", bind(x, (struct sockaddr *)&a, sizeof a));
    a.sin_addr.s_addr = htonl(0x7f000002);
    show("bind 127.0.0.2", bind(x, (struct sockaddr *)&a, sizeof a));
    show("bind twice", bind(x, (struct sockaddr *)&a, sizeof a));
    return 0;
}

static int tcp6(void)
{
    int l = tcp_listener(AF_INET6, "::");
    int port = local_port(l);
    int c4 = tcp_connect(AF_INET, "127.0.0.1", port, 0);
    show("v4 connect to a dual-stack listener", c4 < 0 ? -1 : 0);
    int s4 = must("accept", accept(l, NULL, NULL));
    show_ends("accepted v4", s4, local_port(c4), port);
    int c6 = tcp_connect(AF_INET6, "::1", port, 0);
    show("v6 connect", c6 < 0 ? -1 : 0);
    int s6 = must("accept", accept(l, NULL, NULL));
    show_ends("accepted v6", s6, local_port(c6), port);
    show("v6 send", send(c6, "six", 3, 0));
    show_recv("v6 recv", s6, 0);

    int only = must("socket", socket(AF_INET6, SOCK_STREAM, 0));
    int on = 1, v = -1;
    socklen_t len = sizeof v;
    getsockopt(only, IPPROTO_IPV6, IPV6_V6ONLY, &v, &len);
    printf("IPV6_V6ONLY default %d\n", v);
    show("IPV6_V6ONLY", setsockopt(only, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on));
    struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = in6addr_loopback};
    must("bind", bind(only, (struct sockaddr *)&a, sizeof a));
    show("IPV6_V6ONLY once bound", setsockopt(only, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on));
    must("listen", listen(only, 1));
    int p6 = local_port(only);
    show("v4 connect to a v6-only port", tcp_connect(AF_INET, "127.0.0.1", p6, 0));
    int ok = tcp_connect(AF_INET6, "::1", p6, 0);
    show("v6 connect to it", ok < 0 ? -1 : 0);
    int v4sock = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    show("IPV6_V6ONLY on a v4 socket",
         setsockopt(v4sock, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on));
    return 0;
}

static int udp(void)
{
    int s = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    must("bind", bind(s, (struct sockaddr *)&a, sizeof a));
    int port = local_port(s);
    a.sin_port = htons((uint16_t)port);
    int c = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    show("send unconnected", send(c, "x", 1, 0));
    show("sendto", sendto(c, "datagram one", 12, 0, (struct sockaddr *)&a, sizeof a));
    show("sendto", sendto(c, "two", 3, 0, (struct sockaddr *)&a, sizeof a));
    int avail = -1;
    ioctl(s, FIONREAD, &avail);
    printf("FIONREAD = %d\n", avail);
    char buf[8];
    struct sockaddr_storage from;
    socklen_t fl = sizeof from;
    long n = recvfrom(s, buf, sizeof buf, MSG_TRUNC, (struct sockaddr *)&from, &fl);
    printf("recvfrom MSG_TRUNC into 8 = %ld, from %s port %s, len %u\n", n,
           inet_name((struct sockaddr *)&from), port_of(&from) == local_port(c) ? "client" : "?",
           (unsigned)fl);
    show_recv("recv", s, 0);
    show("connect", connect(c, (struct sockaddr *)&a, sizeof a));
    show("send connected", send(c, "three", 5, 0));
    show_recv("recv", s, 0);
    struct sockaddr_in other = a;
    other.sin_port = htons(9);
    show("sendto a port no one has", sendto(c, "lost", 4, 0, (struct sockaddr *)&other,
                                            sizeof other));
    show("recv nothing", recv(s, buf, sizeof buf, MSG_DONTWAIT));
    show("shutdown unconnected", shutdown(s, SHUT_RD));
    struct sockaddr_in6 six = {.sin6_family = AF_INET6};
    show("v4 sendto a v6 address", sendto(c, "x", 1, 0, (struct sockaddr *)&six, sizeof six));
    return 0;
}

/* ---- non-blocking connect, refusals, unreachable networks ---- */

static int nonblock_connect(void)
{
    int l = tcp_listener(AF_INET, "127.0.0.1");
    int port = local_port(l);
    int c = must("socket", socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0));
    show_poll("fresh TCP socket", c);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    show("connect", connect(c, (struct sockaddr *)&a, sizeof a));
    struct pollfd p = {c, POLLOUT, 0};
    show("poll for POLLOUT", poll(&p, 1, 1000));
    int e = -1;
    socklen_t len = sizeof e;
    getsockopt(c, SOL_SOCKET, SO_ERROR, &e, &len);
    printf("SO_ERROR = %d\n", e);
    show("connect again", connect(c, (struct sockaddr *)&a, sizeof a));
    show("connect a third time", connect(c, (struct sockaddr *)&a, sizeof a));
    int s = must("accept", accept(l, NULL, NULL));
    show_poll("accepted", s);
    fcntl(l, F_SETFL, O_NONBLOCK);
    show("accept with nothing waiting", accept(l, NULL, NULL));
    int s2 = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    show("accept4 bad flags", accept4(l, NULL, NULL, 1));
    show("accept on a connected socket", accept(s2, NULL, NULL));

    close(l);
    int r = must("socket", socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0));
    show("non-blocking connect to a closed port", connect(r, (struct sockaddr *)&a, sizeof a));
    p = (struct pollfd){r, POLLIN | POLLOUT | POLLRDHUP, 0};
    poll(&p, 1, 1000);
    printf("poll: %s\n", pollbits(p.revents));
    getsockopt(r, SOL_SOCKET, SO_ERROR, &e, &len);
    printf("SO_ERROR = %s\n", err_name(e));
    getsockopt(r, SOL_SOCKET, SO_ERROR, &e, &len);
    printf("SO_ERROR again = %d\n", e);
    return 0;
}

static int refused(void)
{
    clean_dir();
    int l = tcp_listener(AF_INET, "127.0.0.1");
    int port = local_port(l);
    close(l);
    show("TCP connect to a closed port", tcp_connect(AF_INET, "127.0.0.1", port, 0));
    show("TCP6 connect to a closed port", tcp_connect(AF_INET6, "::1", port, 0));
    int u = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    socklen_t len;
    struct sockaddr_un a = unix_addr(DIR "/nolisten.sock", &len);
    show("unix connect to a missing path", connect(u, (struct sockaddr *)&a, len));
    int b = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    must("bind", bind(b, (struct sockaddr *)&a, len));
    show("unix connect to a path nobody listens on", connect(u, (struct sockaddr *)&a, len));
    struct sockaddr_un ab = {.sun_family = AF_UNIX};
    memcpy(ab.sun_path, "\0nobody", 7);
    show("unix connect to an abstract name nobody has",
         connect(u, (struct sockaddr *)&ab, offsetof(struct sockaddr_un, sun_path) + 7));
    struct sockaddr_un ro = unix_addr("/proc/x.sock", &len);
    show("bind in /proc", bind(u, (struct sockaddr *)&ro, len));
    show("socket(AF_UNIX, SOCK_RAW... 9)", socket(AF_UNIX, 9, 0));
    show("socket(AF_INET, SOCK_STREAM, UDP)", socket(AF_INET, SOCK_STREAM, IPPROTO_UDP));
    /* qemu-user drops the unknown flag; Linux refuses it. */
    show("socket bad flags", socket(AF_UNIX, SOCK_STREAM | 0x100, 0));
    show("socketpair(AF_INET)", socketpair(AF_INET, SOCK_STREAM, 0, (int[2]){0}));
    show("bind on a pipe", bind(0, (struct sockaddr *)&a, len));
    show("bind on a bad fd", bind(99, (struct sockaddr *)&a, len));
    show("bind with a short address", bind(u, (struct sockaddr *)&a, 1));
    show("getsockname with a bad pointer", getsockname(u, (struct sockaddr *)8, &len));
    return 0;
}

/* asymu only: a host would reach these networks, or time out trying. */
static int netunreach(void)
{
    show("TCP connect to 10.0.0.1:80", tcp_connect(AF_INET, "10.0.0.1", 80, 0));
    show("TCP6 connect to [2001:db8::1]:80", tcp_connect(AF_INET6, "2001:db8::1", 80, 0));
    int u = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(53)};
    inet_pton(AF_INET, "8.8.8.8", &a.sin_addr);
    show("UDP sendto 8.8.8.8:53", sendto(u, "q", 1, 0, (struct sockaddr *)&a, sizeof a));
    show("UDP connect 8.8.8.8:53", connect(u, (struct sockaddr *)&a, sizeof a));
    show("socket(AF_PACKET)", socket(17 /* AF_PACKET */, SOCK_RAW, 0));
    show("socket(AF_NETLINK, NETLINK_GENERIC)", socket(AF_NETLINK, SOCK_RAW, 16));
    return 0;
}

/* asymu only: a host has more interfaces than the machine's `lo`. */
static int ifaddrs(void)
{
    struct ifaddrs *list;
    must("getifaddrs", getifaddrs(&list));
    for (struct ifaddrs *i = list; i; i = i->ifa_next) {
        int family = i->ifa_addr ? i->ifa_addr->sa_family : -1;
        char addr[INET6_ADDRSTRLEN] = "-", mask[INET6_ADDRSTRLEN] = "-";
        if (family == AF_INET || family == AF_INET6) {
            size_t off = family == AF_INET ? offsetof(struct sockaddr_in, sin_addr)
                                           : offsetof(struct sockaddr_in6, sin6_addr);
            inet_ntop(family, (char *)i->ifa_addr + off, addr, sizeof addr);
            inet_ntop(family, (char *)i->ifa_netmask + off, mask, sizeof mask);
        }
        printf("%s %s %s netmask %s flags%s%s%s\n", i->ifa_name,
               family == AF_INET ? "inet" : family == AF_INET6 ? "inet6"
               : family == AF_PACKET ? "packet" : "?", addr, mask,
               i->ifa_flags & IFF_UP ? " UP" : "", i->ifa_flags & IFF_LOOPBACK ? " LOOPBACK" : "",
               i->ifa_flags & IFF_RUNNING ? " RUNNING" : "");
    }
    freeifaddrs(list);
    struct if_nameindex *names = if_nameindex();
    for (struct if_nameindex *n = names; n && n->if_index; n++)
        printf("if_nameindex: %u %s\n", n->if_index, n->if_name);
    if_freenameindex(names);
    printf("if_nametoindex(lo) = %u\n", if_nametoindex("lo"));

    /* A request rtnetlink does not have here: an error message comes back. */
    int nl = must("socket", socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
    struct sockaddr_nl me = {.nl_family = AF_NETLINK};
    socklen_t len = sizeof me;
    must("bind", bind(nl, (struct sockaddr *)&me, sizeof me));
    getsockname(nl, (struct sockaddr *)&me, &len);
    printf("netlink port id is my pid: %s (len %u)\n", (pid_t)me.nl_pid == getpid() ? "yes" : "no",
           (unsigned)len);
    struct {
        struct nlmsghdr h;
        struct rtgenmsg g;
    } req = {{sizeof req, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_DUMP, 7, 0}, {AF_UNSPEC}};
    req.h.nlmsg_type = 99; /* no such message type */
    show("send", send(nl, &req, sizeof req, 0));
    union {
        struct nlmsghdr h;
        char buf[256];
    } reply;
    long n = recv(nl, &reply, sizeof reply, 0);
    struct nlmsgerr *e = NLMSG_DATA(&reply.h);
    printf("reply: %ld bytes, type %s, seq %u, error %s\n", n,
           reply.h.nlmsg_type == NLMSG_ERROR ? "NLMSG_ERROR" : "?", reply.h.nlmsg_seq,
           err_name(-e->error));
    return 0;
}

static void cat(const char *path)
{
    char buf[4096];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die(path);
    printf("== %s\n", path);
    fflush(stdout);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        fwrite(buf, 1, (size_t)n, stdout);
    close(fd);
}

/* asymu only: a host has sockets of its own, and other ports and inodes. */
static int procnet(void)
{
    clean_dir();
    int l = tcp_listener(AF_INET, "127.0.0.1");
    int c = tcp_connect(AF_INET, "127.0.0.1", local_port(l), 0);
    send(c, "12345", 5, 0);
    int l6 = tcp_listener(AF_INET6, "::1");
    int u = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    must("bind", bind(u, (struct sockaddr *)&a, sizeof a));
    int u6 = must("socket", socket(AF_INET6, SOCK_DGRAM, 0));
    struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
    must("bind", bind(u6, (struct sockaddr *)&a6, sizeof a6));
    socklen_t len;
    struct sockaddr_un p = unix_addr(DIR "/s.sock", &len);
    int ul = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    must("bind", bind(ul, (struct sockaddr *)&p, len));
    must("listen", listen(ul, 1));
    int sv[2];
    must("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
    struct sockaddr_un ab = {.sun_family = AF_UNIX};
    memcpy(ab.sun_path, "\0abs\0tract", 10);
    must("bind", bind(sv[0], (struct sockaddr *)&ab, offsetof(struct sockaddr_un, sun_path) + 10));
    struct stat st;
    fstat(l, &st);
    printf("listener inode %lu\n", (unsigned long)st.st_ino);
    cat("/proc/net/tcp");
    cat("/proc/net/tcp6");
    cat("/proc/net/udp");
    cat("/proc/net/udp6");
    cat("/proc/net/unix");
    (void)l6;
    return 0;
}

/* asymu only: the sysroot is read-only without --rw (a host's / is not). */
static int readonly(void)
{
    int u = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    socklen_t len;
    struct sockaddr_un a = unix_addr("/asymu-test.sock", &len);
    show("bind in the read-only root", bind(u, (struct sockaddr *)&a, len));
    a = unix_addr("/no/such/dir/x.sock", &len);
    show("bind in a missing directory", bind(u, (struct sockaddr *)&a, len));
    return 0;
}

/* ---- SIGPIPE ---- */

static int sigpipe(void)
{
    int sv[2];
    must("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    close(sv[1]);
    pid_t pid = fork_child();
    if (pid == 0) {
        write(sv[0], "x", 1);
        printf("child survived the write\n");
        exit(0);
    }
    wait_child(pid);
    show("send MSG_NOSIGNAL", send(sv[0], "x", 1, MSG_NOSIGNAL));
    signal(SIGPIPE, SIG_IGN);
    show("write with SIGPIPE ignored", write(sv[0], "x", 1));
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    signal(SIGPIPE, SIG_DFL);
    sigprocmask(SIG_BLOCK, &set, NULL);
    show("sendto with SIGPIPE blocked", sendto(sv[0], "x", 1, 0, NULL, 0));
    sigpending(&set);
    printf("SIGPIPE pending: %s\n", sigismember(&set, SIGPIPE) ? "yes" : "no");
    int t = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    show("send on an unconnected TCP socket", send(t, "x", 1, MSG_NOSIGNAL));
    show("recv on an unconnected TCP socket", recv(t, &t, 1, 0));
    int u = must("socket", socket(AF_UNIX, SOCK_STREAM, 0));
    show("send on an unconnected unix socket", send(u, "x", 1, 0));
    show("recv on an unconnected unix socket", recv(u, &t, 1, 0));
    return 0;
}

/* ---- options ---- */

static void show_int_opt(const char *what, int fd, int level, int name)
{
    int v = -1;
    socklen_t len = sizeof v;
    if (getsockopt(fd, level, name, &v, &len) < 0)
        printf("%s = %s\n", what, err_name(errno));
    else
        printf("%s = %d (len %u)\n", what, v, (unsigned)len);
}

static int options(void)
{
    int t = must("socket", socket(AF_INET, SOCK_STREAM, 0));
    int u = must("socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    int d = must("socket", socket(AF_INET6, SOCK_DGRAM, 0));
    show_int_opt("tcp SO_TYPE", t, SOL_SOCKET, SO_TYPE);
    show_int_opt("tcp SO_DOMAIN", t, SOL_SOCKET, SO_DOMAIN);
    show_int_opt("tcp SO_PROTOCOL", t, SOL_SOCKET, SO_PROTOCOL);
    show_int_opt("udp6 SO_PROTOCOL", d, SOL_SOCKET, SO_PROTOCOL);
    show_int_opt("unix SO_PROTOCOL", u, SOL_SOCKET, SO_PROTOCOL);
    show_int_opt("unix SO_TYPE", u, SOL_SOCKET, SO_TYPE);
    show_int_opt("tcp SO_SNDBUF", t, SOL_SOCKET, SO_SNDBUF);
    show_int_opt("tcp SO_RCVBUF", t, SOL_SOCKET, SO_RCVBUF);
    show_int_opt("unix SO_SNDBUF", u, SOL_SOCKET, SO_SNDBUF);
    show_int_opt("udp6 SO_RCVBUF", d, SOL_SOCKET, SO_RCVBUF);
    int v = 4096;
    setsockopt(t, SOL_SOCKET, SO_SNDBUF, &v, sizeof v);
    show_int_opt("tcp SO_SNDBUF after 4096", t, SOL_SOCKET, SO_SNDBUF);
    /* Linux caps at twice net.core.rmem_max, 212992 unless a host raised it. */
    v = 10000000;
    setsockopt(t, SOL_SOCKET, SO_RCVBUF, &v, sizeof v);
    show_int_opt("tcp SO_RCVBUF after 10000000", t, SOL_SOCKET, SO_RCVBUF);
    show_int_opt("SO_ACCEPTCONN", t, SOL_SOCKET, SO_ACCEPTCONN);
    listen(t, 1);
    show_int_opt("SO_ACCEPTCONN listening", t, SOL_SOCKET, SO_ACCEPTCONN);
    v = 1;
    show("SO_KEEPALIVE", setsockopt(t, SOL_SOCKET, SO_KEEPALIVE, &v, sizeof v));
    show_int_opt("SO_KEEPALIVE", t, SOL_SOCKET, SO_KEEPALIVE);
    show_int_opt("TCP_NODELAY", t, IPPROTO_TCP, TCP_NODELAY);
    show("TCP_NODELAY", setsockopt(t, IPPROTO_TCP, TCP_NODELAY, &v, sizeof v));
    show_int_opt("TCP_NODELAY", t, IPPROTO_TCP, TCP_NODELAY);
    show("TCP_NODELAY on unix", setsockopt(u, IPPROTO_TCP, TCP_NODELAY, &v, sizeof v));
    show("SO_BROADCAST", setsockopt(d, SOL_SOCKET, SO_BROADCAST, &v, sizeof v));
    show_int_opt("SO_BROADCAST", d, SOL_SOCKET, SO_BROADCAST);
    show("SO_REUSEPORT on unix", setsockopt(u, SOL_SOCKET, SO_REUSEPORT, &v, sizeof v));
    show("short optlen", setsockopt(t, SOL_SOCKET, SO_KEEPALIVE, &v, 2));
    show("unknown SOL_SOCKET option", setsockopt(t, SOL_SOCKET, 9999, &v, sizeof v));
    show("unknown TCP option", setsockopt(t, IPPROTO_TCP, 9999, &v, sizeof v));
    show_int_opt("unknown get", t, SOL_SOCKET, 9999);
    show("set SO_TYPE", setsockopt(t, SOL_SOCKET, SO_TYPE, &v, sizeof v));
    struct linger lg = {1, 5};
    show("SO_LINGER", setsockopt(t, SOL_SOCKET, SO_LINGER, &lg, sizeof lg));
    memset(&lg, 0, sizeof lg);
    socklen_t len = sizeof lg;
    getsockopt(t, SOL_SOCKET, SO_LINGER, &lg, &len);
    printf("SO_LINGER = {%d, %d} (len %u)\n", lg.l_onoff, lg.l_linger, (unsigned)len);
    int small = 0;
    len = 2;
    getsockopt(t, SOL_SOCKET, SO_TYPE, &small, &len);
    printf("SO_TYPE into 2 bytes: len %u\n", (unsigned)len);

    struct timeval tv = {0, 250000};
    show("SO_RCVTIMEO", setsockopt(u, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv));
    memset(&tv, 0, sizeof tv);
    len = sizeof tv;
    getsockopt(u, SOL_SOCKET, SO_RCVTIMEO, &tv, &len);
    /* Linux counts in ticks of 4 ms (HZ=250): 250 ms reads back as 252. */
    printf("SO_RCVTIMEO = %ld.%06ld (len %s)\n", (long)tv.tv_sec, (long)tv.tv_usec,
           len == sizeof tv ? "sizeof(struct timeval)" : "?");
    struct sockaddr_un fam = {.sun_family = AF_UNIX};
    bind(u, (struct sockaddr *)&fam, sizeof(sa_family_t));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char b;
    show("recv with a 250 ms timeout", recv(u, &b, 1, 0));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    printf("waited at least 250 ms: %s\n", ms >= 250 ? "yes" : "no");
    tv.tv_usec = 1000000;
    show("SO_RCVTIMEO usec out of range", setsockopt(u, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv));
    return 0;
}

/* ---- TCP after the peer closed, UDP-Lite, IPv6 per-packet values ---- */

static void show_int_opt(const char *what, int fd, int level, int name);

/* A TCP peer's close only ends the stream's read side: the first send
 * still succeeds (the closed peer answers it with a reset), the next one
 * is EPIPE. An AF_UNIX stream refuses at once. */
static int tcp_peer_closed(void)
{
    int l = tcp_listener(AF_INET, "127.0.0.1");
    int c = tcp_connect(AF_INET, "127.0.0.1", local_port(l), 0);
    if (c < 0)
        die("connect");
    int s = must("accept", accept(l, NULL, NULL));
    close(c);
    show_poll("after the peer closed", s);
    char b;
    show("recv", recv(s, &b, 1, 0));
    show("send of 0 bytes", send(s, "", 0, MSG_NOSIGNAL));
    show("first send", send(s, "late", 4, MSG_NOSIGNAL));
    show("second send", send(s, "x", 1, MSG_NOSIGNAL));
    show_poll("after the reset", s);
    show_int_opt("SO_ERROR", s, SOL_SOCKET, SO_ERROR);
    show("recv", recv(s, &b, 1, 0));
    int sv[2];
    must("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    close(sv[1]);
    show("AF_UNIX send after the peer closed", send(sv[0], "x", 1, MSG_NOSIGNAL));
    return 0;
}

/* A TCP close resets the connection instead when SO_LINGER has a zero
 * timeout or unread data would be lost: the other end reads what came,
 * then ECONNRESET once, then the end; it is no longer connected. */
static int tcp_reset(void)
{
    int l = tcp_listener(AF_INET, "127.0.0.1");
    int c = tcp_connect(AF_INET, "127.0.0.1", local_port(l), 0);
    if (c < 0)
        die("connect");
    int s = must("accept", accept(l, NULL, NULL));
    struct linger lg = {1, 0};
    show("SO_LINGER 0", setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg));
    show("send", send(c, "data", 4, 0));
    close(c);
    show_poll("after the reset", s);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    show("getpeername", getpeername(s, (struct sockaddr *)&ss, &len));
    show_recv("recv", s, 0);
    show_recv("recv", s, 0);
    show_recv("recv", s, 0);
    show("send", send(s, "x", 1, MSG_NOSIGNAL));

    c = tcp_connect(AF_INET, "127.0.0.1", local_port(l), 0);
    s = must("accept", accept(l, NULL, NULL));
    show("send", send(s, "unread", 6, 0));
    close(c);
    show("send to a peer that closed with unread data", send(s, "x", 1, MSG_NOSIGNAL));
    show_int_opt("SO_ERROR", s, SOL_SOCKET, SO_ERROR);
    show("send", send(s, "x", 1, MSG_NOSIGNAL));

    c = tcp_connect(AF_INET, "127.0.0.1", local_port(l), 0);
    close(l);
    show_int_opt("SO_ERROR when the listener closed before accepting", c, SOL_SOCKET, SO_ERROR);
    show_recv("recv", c, 0);
    return 0;
}

static struct sockaddr_in loopback4(int port)
{
    return (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
}

static void show_cscov(const char *what, int fd, int name, int val)
{
    char line[96];
    snprintf(line, sizeof line, "%s %d", what, val);
    if (show(line, setsockopt(fd, IPPROTO_UDPLITE, name, &val, sizeof val)) == 0)
        show_int_opt("  reads back", fd, IPPROTO_UDPLITE, name);
}

/* UDP-Lite: datagrams like UDP, on ports of its own. */
static int udplite(void)
{
    int lite = must("socket", socket(AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE));
    show_int_opt("SO_PROTOCOL", lite, SOL_SOCKET, SO_PROTOCOL);
    struct sockaddr_in a = loopback4(0);
    must("bind", bind(lite, (struct sockaddr *)&a, sizeof a));
    a = loopback4(local_port(lite));
    int udp = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    show("UDP bind to the UDP-Lite port", bind(udp, (struct sockaddr *)&a, sizeof a));
    int lite2 = must("socket", socket(AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE));
    show("UDP-Lite bind to it", bind(lite2, (struct sockaddr *)&a, sizeof a));
    show("UDP-Lite sendto", sendto(lite2, "lite", 4, 0, (struct sockaddr *)&a, sizeof a));
    int c = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    show("UDP sendto", sendto(c, "plain", 5, 0, (struct sockaddr *)&a, sizeof a));
    show_recv("UDP-Lite recv", lite, MSG_DONTWAIT);
    show_recv("UDP-Lite recv again", lite, MSG_DONTWAIT);
    show_recv("UDP recv", udp, MSG_DONTWAIT);
    int six = socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDPLITE);
    show("AF_INET6 UDP-Lite socket", six < 0 ? -1 : 0);
    show("SOCK_STREAM UDP-Lite socket", socket(AF_INET, SOCK_STREAM, IPPROTO_UDPLITE));
    show_int_opt("UDPLITE_SEND_CSCOV default", lite, IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV);
    show_cscov("UDPLITE_SEND_CSCOV", lite, UDPLITE_SEND_CSCOV, 5);
    show_cscov("UDPLITE_SEND_CSCOV", lite, UDPLITE_SEND_CSCOV, 100000);
    show_cscov("UDPLITE_RECV_CSCOV", lite, UDPLITE_RECV_CSCOV, 20);
    show_cscov("UDPLITE_RECV_CSCOV", lite, UDPLITE_RECV_CSCOV, -3);
    show_cscov("UDPLITE_RECV_CSCOV", lite, UDPLITE_RECV_CSCOV, 0);
    show_cscov("UDPLITE_SEND_CSCOV on AF_INET6", six, UDPLITE_SEND_CSCOV, 12);
    int v = 9;
    show("UDPLITE_SEND_CSCOV at level SOL_UDP",
         setsockopt(lite, IPPROTO_UDP, UDPLITE_SEND_CSCOV, &v, sizeof v));
    show_int_opt("  reads back", lite, IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV);
    show("UDPLITE_SEND_CSCOV with optlen 2",
         setsockopt(lite, IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV, &v, 2));
    show("UDPLITE_SEND_CSCOV on UDP with optlen 2",
         setsockopt(udp, IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV, &v, 2));
    show_cscov("UDPLITE_SEND_CSCOV on UDP", udp, UDPLITE_SEND_CSCOV, 8);
    show_int_opt("UDPLITE_SEND_CSCOV read on UDP", udp, IPPROTO_UDPLITE, UDPLITE_SEND_CSCOV);
    return 0;
}

static const char *ipv6_cmsg_name(const struct cmsghdr *h)
{
    if (h->cmsg_level != IPPROTO_IPV6)
        return "?";
    return h->cmsg_type == IPV6_HOPLIMIT ? "IPV6_HOPLIMIT"
           : h->cmsg_type == IPV6_TCLASS ? "IPV6_TCLASS"
                                         : "IPV6_?";
}

/* Receives one datagram with `room` bytes of control buffer (none when
 * room is 0) and prints what came: flags, msg_controllen, each message's
 * data length and value (the bytes that came of it). */
static void recv_cmsgs(const char *what, int fd, size_t room)
{
    union {
        char buf[256];
        struct cmsghdr align;
    } ctl;
    memset(ctl.buf, 0, sizeof ctl.buf);
    char data[16];
    struct iovec iov = {data, sizeof data};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = room ? ctl.buf : NULL,
                       .msg_controllen = room};
    ssize_t n = recvmsg(fd, &m, MSG_DONTWAIT);
    if (n < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    printf("%s: %zd bytes, flags %s, controllen %zu\n", what, n,
           m.msg_flags & MSG_CTRUNC ? "CTRUNC" : "0", (size_t)m.msg_controllen);
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
        size_t dlen = h->cmsg_len - CMSG_LEN(0);
        int v = 0;
        memcpy(&v, CMSG_DATA(h), dlen < sizeof v ? dlen : sizeof v);
        printf("  %s, %zu data bytes, value %d\n", ipv6_cmsg_name(h), dlen, v);
    }
}

/* sendmsg to `to` with IPPROTO_IPV6 control messages: n of (type, value),
 * each of `size` data bytes. */
static long send_cmsgs(int fd, const struct sockaddr_in6 *to, int n, const int *types,
                       const int *vals, size_t size)
{
    union {
        char buf[128];
        struct cmsghdr align;
    } ctl;
    memset(ctl.buf, 0, sizeof ctl.buf);
    struct iovec iov = {"m", 1};
    struct msghdr m = {.msg_name = (void *)to, .msg_namelen = sizeof *to, .msg_iov = &iov,
                       .msg_iovlen = 1, .msg_control = ctl.buf,
                       .msg_controllen = n * CMSG_SPACE(size)};
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    for (int i = 0; i < n; i++, h = CMSG_NXTHDR(&m, h)) {
        h->cmsg_level = IPPROTO_IPV6;
        h->cmsg_type = types[i];
        h->cmsg_len = CMSG_LEN(size);
        memcpy(CMSG_DATA(h), &vals[i], sizeof vals[i]);
    }
    return sendmsg(fd, &m, 0);
}

static void set_int(const char *what, int fd, int level, int name, int val)
{
    char line[96];
    snprintf(line, sizeof line, "%s %d", what, val);
    show(line, setsockopt(fd, level, name, &val, sizeof val));
}

/* RFC 3542: a receiver asks for each datagram's hop limit and traffic
 * class; a sender sets them per socket or per message. Control buffers too
 * short for them are truncated as Linux's put_cmsg does. */
static int ipv6_cmsg(void)
{
    int r = must("socket", socket(AF_INET6, SOCK_DGRAM, 0));
    struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = in6addr_loopback};
    must("bind", bind(r, (struct sockaddr *)&a, sizeof a));
    a.sin6_port = htons((uint16_t)local_port(r));
    int c = must("socket", socket(AF_INET6, SOCK_DGRAM, 0));
    show_int_opt("IPV6_RECVHOPLIMIT", r, IPPROTO_IPV6, IPV6_RECVHOPLIMIT);
    show_int_opt("IPV6_RECVTCLASS", r, IPPROTO_IPV6, IPV6_RECVTCLASS);
    show_int_opt("IPV6_UNICAST_HOPS", c, IPPROTO_IPV6, IPV6_UNICAST_HOPS);
    show_int_opt("IPV6_TCLASS", c, IPPROTO_IPV6, IPV6_TCLASS);
    set_int("IPV6_UNICAST_HOPS", c, IPPROTO_IPV6, IPV6_UNICAST_HOPS, 256);
    set_int("IPV6_UNICAST_HOPS", c, IPPROTO_IPV6, IPV6_UNICAST_HOPS, -2);
    set_int("IPV6_TCLASS", c, IPPROTO_IPV6, IPV6_TCLASS, 256);
    set_int("IPV6_TCLASS", c, IPPROTO_IPV6, IPV6_TCLASS, -1);
    show_int_opt("  reads back", c, IPPROTO_IPV6, IPV6_TCLASS);
    int one = 1;
    show("IPV6_RECVHOPLIMIT with optlen 2",
         setsockopt(r, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, &one, 2));
    int four = must("socket", socket(AF_INET, SOCK_DGRAM, 0));
    set_int("IPV6_TCLASS on AF_INET", four, IPPROTO_IPV6, IPV6_TCLASS, 1);
    int tcp6 = must("socket", socket(AF_INET6, SOCK_STREAM, 0));
    set_int("TCP IPV6_TCLASS", tcp6, IPPROTO_IPV6, IPV6_TCLASS, 0x2b);
    show_int_opt("  reads back (no ECN bits)", tcp6, IPPROTO_IPV6, IPV6_TCLASS);

    sendto(c, "a", 1, 0, (struct sockaddr *)&a, sizeof a);
    recv_cmsgs("not asked", r, 64);
    set_int("IPV6_RECVHOPLIMIT", r, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1);
    set_int("IPV6_RECVTCLASS", r, IPPROTO_IPV6, IPV6_RECVTCLASS, 1);
    sendto(c, "b", 1, 0, (struct sockaddr *)&a, sizeof a);
    recv_cmsgs("defaults", r, 64);
    set_int("IPV6_UNICAST_HOPS", c, IPPROTO_IPV6, IPV6_UNICAST_HOPS, 7);
    set_int("IPV6_TCLASS", c, IPPROTO_IPV6, IPV6_TCLASS, 0x28);
    show_int_opt("  IPV6_UNICAST_HOPS reads back", c, IPPROTO_IPV6, IPV6_UNICAST_HOPS);
    sendto(c, "c", 1, 0, (struct sockaddr *)&a, sizeof a);
    recv_cmsgs("socket options", r, 64);
    int both[] = {IPV6_HOPLIMIT, IPV6_TCLASS};
    show("sendmsg with IPV6_HOPLIMIT 2, IPV6_TCLASS 4",
         send_cmsgs(c, &a, 2, both, (int[]){2, 4}, sizeof(int)));
    recv_cmsgs("per message", r, 64);
    show("sendmsg with IPV6_HOPLIMIT -1, IPV6_TCLASS -1",
         send_cmsgs(c, &a, 2, both, (int[]){-1, -1}, sizeof(int)));
    recv_cmsgs("-1: the socket's", r, 64);
    show("sendmsg with IPV6_HOPLIMIT 256", send_cmsgs(c, &a, 1, both, (int[]){256}, sizeof(int)));
    show("sendmsg with a 5-byte IPV6_TCLASS",
         send_cmsgs(c, &a, 1, both + 1, (int[]){0}, sizeof(int) + 1));
    recv_cmsgs("nothing sent", r, 64);

    static const struct {
        const char *what;
        size_t room;
    } sizes[] = {
        {"no buffer", 0},
        {"CMSG_LEN(0) - 1", CMSG_LEN(0) - 1},
        {"CMSG_LEN(0)", CMSG_LEN(0)},
        {"CMSG_LEN(4) - 1", CMSG_LEN(sizeof(int)) - 1},
        {"CMSG_SPACE(4)", CMSG_SPACE(sizeof(int))},
        {"CMSG_SPACE(4) + 1", CMSG_SPACE(sizeof(int)) + 1},
        {"CMSG_SPACE(4) + CMSG_LEN(4) - 1", CMSG_SPACE(sizeof(int)) + CMSG_LEN(sizeof(int)) - 1},
        {"2 * CMSG_SPACE(4)", 2 * CMSG_SPACE(sizeof(int))},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        sendto(c, "t", 1, 0, (struct sockaddr *)&a, sizeof a);
        recv_cmsgs(sizes[i].what, r, sizes[i].room);
    }

    /* An IPv4 datagram on a dual-stack socket has no IPv6 header. */
    int dual = must("socket", socket(AF_INET6, SOCK_DGRAM, 0));
    struct sockaddr_in6 any = {.sin6_family = AF_INET6};
    must("bind", bind(dual, (struct sockaddr *)&any, sizeof any));
    set_int("IPV6_RECVHOPLIMIT", dual, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1);
    struct sockaddr_in to4 = loopback4(local_port(dual));
    sendto(four, "4", 1, 0, (struct sockaddr *)&to4, sizeof to4);
    recv_cmsgs("from IPv4", dual, 64);
    return 0;
}

static const struct {
    const char *name;
    int (*fn)(void);
} commands[] = {
    {"unix-stream", unix_stream}, {"pair", pair},         {"mmsg", mmsg},         {"unix-dgram", unix_dgram},
    {"seqpacket", seqpacket},     {"abstract", abstract}, {"scm-rights", scm_rights},
    {"peercred", peercred},       {"tcp", tcp},           {"tcp6", tcp6},
    {"udp", udp},                 {"nonblock-connect", nonblock_connect},
    {"refused", refused},         {"netunreach", netunreach}, {"readonly", readonly},
    {"ifaddrs", ifaddrs},         {"procnet", procnet},
    {"sigpipe", sigpipe},
    {"options", options},
    {"tcp-peer-closed", tcp_peer_closed}, {"tcp-reset", tcp_reset},
    {"udplite", udplite},         {"ipv6-cmsg", ipv6_cmsg},
};

static pid_t main_pid;

/* Leaves no socket nodes behind in a host's /tmp (under qemu-user). */
static void remove_dir(void)
{
    if (getpid() != main_pid)
        return;
    clean_dir();
    rmdir(DIR);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    main_pid = getpid();
    atexit(remove_dir);
    for (size_t i = 0; argc > 1 && i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn();
    fprintf(stderr, "usage: sockets COMMAND\n");
    return 2;
}
