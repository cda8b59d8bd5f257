/* SPDX-License-Identifier: GPL-2.0-or-later */
/* owners.c - file owners in /tmp: a created file, directory, symlink, fifo
 * and socket node belong to the creating process's fsuid and fsgid (the
 * directory's group under a set-group-ID directory); chown, lchown, fchown
 * and fchownat give any owner as root (stat, lstat, fstat and statx report
 * it), -1 keeps an id, and a non-directory loses its set-user-ID bit and
 * its set-group-ID bit when group-executable. Without CAP_CHOWN (fsuid not
 * 0) a process may only give its own file a group it is in: anything else
 * is EPERM. /proc/self/status shows the ids and groups. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>

static void show(const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        printf("%s: %s\n", path, err_name(errno));
    else
        printf("%s: uid %u gid %u mode %04o\n", path, st.st_uid, st.st_gid, st.st_mode & 07777);
}

static void check(const char *what, int r)
{
    printf("%s: %s\n", what, r == 0 ? "0" : err_name(errno));
}

static void show_status_ids(void)
{
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        if (!strncmp(line, "Uid:", 4) || !strncmp(line, "Gid:", 4) || !strncmp(line, "Groups:", 7) ||
            !strncmp(line, "Umask:", 6))
            printf("status %s\n", line);
}

int main(void)
{
    umask(022);
    gid_t groups[] = {20, 5};
    check("setgroups", setgroups(2, groups));
    check("setresgid 30 31 32", setresgid(30, 31, 32));
    show_status_ids();

    /* Created things belong to fsuid 0, fsgid 31. */
    close(open("/tmp/file", O_CREAT | O_WRONLY, 0644));
    mkdir("/tmp/dir", 0755);
    symlink("file", "/tmp/link");
    mkfifo("/tmp/fifo", 0600);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sun = {.sun_family = AF_UNIX, .sun_path = "/tmp/sock"};
    bind(s, (struct sockaddr *)&sun, sizeof sun);
    show("/tmp/file");
    show("/tmp/dir");
    show("/tmp/link");
    show("/tmp/fifo");
    show("/tmp/sock");
    /* An existing file opened with O_CREAT keeps its owner. */
    check("chown file 7 8", chown("/tmp/file", 7, 8));
    close(open("/tmp/file", O_CREAT | O_WRONLY, 0644));
    show("/tmp/file");

    /* Root gives any owner; -1 keeps one; the link itself with lchown. */
    check("chown file 2147483648 -1", chown("/tmp/file", 2147483648u, (gid_t)-1));
    show("/tmp/file");
    check("lchown link 9 10", lchown("/tmp/link", 9, 10));
    show("/tmp/link");
    show("/tmp/file");
    check("chown through the link 11 12", chown("/tmp/link", 11, 12));
    show("/tmp/link");
    show("/tmp/file");
    int fd = open("/tmp/file", O_RDONLY);
    check("fchown 13 14", fchown(fd, 13, 14));
    struct stat st;
    fstat(fd, &st);
    printf("fstat: uid %u gid %u\n", st.st_uid, st.st_gid);
    struct statx sx;
    statx(AT_FDCWD, "/tmp/file", 0, STATX_BASIC_STATS, &sx);
    printf("statx: uid %u gid %u\n", sx.stx_uid, sx.stx_gid);
    check("fchownat dir 15 16", fchownat(AT_FDCWD, "/tmp/dir", 15, 16, 0));
    show("/tmp/dir");

    /* chown clears set-user-ID, and set-group-ID with group execute. */
    chmod("/tmp/file", 06755);
    check("chown setuid file -1 -1", chown("/tmp/file", (uid_t)-1, (gid_t)-1));
    show("/tmp/file");
    chmod("/tmp/file", 02745);
    check("chown setgid file without group x", chown("/tmp/file", 0, 0));
    show("/tmp/file");
    chmod("/tmp/dir", 06755);
    check("chown setuid dir", chown("/tmp/dir", 0, 0));
    show("/tmp/dir");

    /* A set-group-ID directory gives its group to what is made in it. */
    chmod("/tmp/dir", 02775);
    chown("/tmp/dir", 0, 44);
    close(open("/tmp/dir/inner", O_CREAT | O_WRONLY, 0644));
    mkdir("/tmp/dir/sub", 0755);
    show("/tmp/dir/inner");
    show("/tmp/dir/sub");

    /* A fsuid of 1000 has no CAP_CHOWN. (Without set-group-ID bits: Linux
     * 6.x drops S_ISGID in more cases than 5.15 did.) */
    chmod("/tmp/file", 0644);
    chown("/tmp/file", 1000, 0);
    setfsuid(1000);
    check("fsuid 1000: chown own file to group 20 (a supplementary one)", chown("/tmp/file", -1, 20));
    check("fsuid 1000: chown own file to group 31 (fsgid)", chown("/tmp/file", -1, 31));
    check("fsuid 1000: chown own file to group 99", chown("/tmp/file", -1, 99));
    check("fsuid 1000: chown own file to uid 1000", chown("/tmp/file", 1000, -1));
    check("fsuid 1000: chown own file to uid 0", chown("/tmp/file", 0, -1));
    check("fsuid 1000: chown another's file", chown("/tmp/dir", -1, 31));
    close(open("/tmp/made-by-1000", O_CREAT | O_WRONLY, 0644));
    setfsuid(0);
    show("/tmp/file");
    show("/tmp/made-by-1000");

    /* asymu's read-only root: EROFS. Never on a host, where it would
     * really give the host's /etc/passwd away. */
    struct utsname u;
    if (uname(&u) == 0 && strstr(u.release, "asymu"))
        check("chown /etc/passwd", chown("/etc/passwd", 1, 1));
    return 0;
}
