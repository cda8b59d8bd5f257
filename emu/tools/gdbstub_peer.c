/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub_peer.c - who may use the gdb stub (issue 24 item 5): only the
 * user asymu runs as. A TCP connection carries no credentials (SO_PEERCRED
 * is for Unix sockets), so the stub finds the client's own socket in the
 * host's /proc/net/tcp (tcp6 for a v4-mapped client): the line whose local
 * address is the connection's remote end and whose remote address is the
 * stub's end. Its uid column is the user who made that socket; its inode is
 * 0 for a socket no process holds any longer (TIME_WAIT, an orphan), whose
 * uid Linux prints as 0: such a connection is refused too, or a client
 * could close at once and pass as root.
 *
 * The files are opened at start: the sandbox lets asymu open no host path
 * later, and an open file keeps the network namespace it was opened in.
 * Each check reads them again from offset 0 (fresh contents, as
 * /proc/meminfo in hostmem.c). */
#include "gdbstub_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int gdb_peer_open(struct gdbstub *gs)
{
    gs->tcp_fd = open("/proc/net/tcp", O_RDONLY | O_CLOEXEC);
    if (gs->tcp_fd < 0)
        return -errno;
    gs->tcp6_fd = open("/proc/net/tcp6", O_RDONLY | O_CLOEXEC); /* no IPv6: none */
    return 0;
}

void gdb_peer_close(struct gdbstub *gs)
{
    if (gs->tcp_fd >= 0)
        close(gs->tcp_fd);
    if (gs->tcp6_fd >= 0)
        close(gs->tcp6_fd);
    gs->tcp_fd = gs->tcp6_fd = -1;
}

/* One line of the table: when its local and remote addresses are `local`
 * and `remote` (as the file prints them), its uid and whether a process
 * holds the socket. */
static bool line_matches(const char *line, const char *local, const char *remote, unsigned *uid,
                         bool *held)
{
    char l[64], r[64];
    unsigned u;
    unsigned long inode;
    if (sscanf(line, " %*s %63s %63s %*s %*s %*s %*s %u %*s %lu", l, r, &u, &inode) != 4)
        return false;
    if (strcmp(l, local) != 0 || strcmp(r, remote) != 0)
        return false;
    *uid = u;
    *held = inode != 0;
    return true;
}

/* Searches the table in fd: 1 found (uid, held set), 0 not, -1 unreadable. */
static int search(int fd, const char *local, const char *remote, unsigned *uid, bool *held)
{
    if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0)
        return -1;
    char buf[8192];
    size_t have = 0;
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        have += (size_t)n;
        buf[have] = '\0';
        char *start = buf, *nl;
        while ((nl = strchr(start, '\n'))) {
            *nl = '\0';
            if (line_matches(start, local, remote, uid, held))
                return 1;
            start = nl + 1;
        }
        size_t rest = have - (size_t)(start - buf);
        if (n == 0)
            return rest && line_matches(start, local, remote, uid, held) ? 1 : 0;
        if (rest == sizeof buf - 1)
            rest = 0; /* a line longer than the buffer: not one of the table's */
        memmove(buf, buf + have - rest, rest);
        have = rest;
    }
}

bool gdb_peer_allowed(struct gdbstub *gs, const struct sockaddr_in *peer, char *why, size_t len)
{
    /* The file prints an IPv4 address as the 32-bit word in host order and
     * a port in hex; tcp6 prints four such words. */
    char local[64], remote[64], local6[64], remote6[64];
    uint32_t paddr = peer->sin_addr.s_addr, saddr = gs->addr.sin_addr.s_addr;
    unsigned pport = ntohs(peer->sin_port), sport = ntohs(gs->addr.sin_port);
    snprintf(local, sizeof local, "%08X:%04X", paddr, pport);
    snprintf(remote, sizeof remote, "%08X:%04X", saddr, sport);
    const uint8_t mapped_bytes[4] = {0, 0, 0xff, 0xff}; /* ::ffff:a.b.c.d's third word */
    uint32_t mapped;
    memcpy(&mapped, mapped_bytes, 4);
    snprintf(local6, sizeof local6, "0000000000000000%08X%08X:%04X", mapped, paddr, pport);
    snprintf(remote6, sizeof remote6, "0000000000000000%08X%08X:%04X", mapped, saddr, sport);
    unsigned uid = 0;
    bool held = false;
    int found = search(gs->tcp_fd, local, remote, &uid, &held);
    if (found <= 0 && gs->tcp6_fd >= 0) {
        int found6 = search(gs->tcp6_fd, local6, remote6, &uid, &held);
        found = found6 > 0 ? found6 : found;
    }
    if (found < 0) {
        snprintf(why, len, "its user cannot be told (/proc/net/tcp unreadable)");
        return false;
    }
    if (found == 0 || !held) {
        snprintf(why, len, "no process holds its socket any longer");
        return false;
    }
    if (uid != (unsigned)geteuid()) {
        snprintf(why, len, "it is uid %u's, and only uid %u may debug", uid, (unsigned)geteuid());
        return false;
    }
    return true;
}
