/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs-symlinks.c - symlinks in the guest's private /tmp, whose targets are
 * guest paths: absolute ones, relative ones, ones leaving /tmp, dangling
 * ones, chains and loops, through every call that follows or does not
 * (e2e-fs-symlinks-*). Prints one line per check. */
#define _GNU_SOURCE
#include "guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define D "/tmp/fs-symlinks"

static void say(const char *what, long r)
{
    if (r < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static const char *kind(mode_t m)
{
    return S_ISLNK(m) ? "link" : S_ISDIR(m) ? "dir" : S_ISREG(m) ? "file" : "other";
}

static void stat_both(const char *path)
{
    struct stat st;
    int r = lstat(path, &st);
    printf("lstat %s: %s\n", path + sizeof D, r < 0 ? err_name(errno) : kind(st.st_mode));
    r = stat(path, &st);
    printf("stat %s: %s\n", path + sizeof D, r < 0 ? err_name(errno) : kind(st.st_mode));
}

static void read_file(const char *path, int flags)
{
    char buf[32] = "";
    int fd = open(path, O_RDONLY | flags);
    if (fd < 0) {
        printf("open %s: %s\n", path + sizeof D, err_name(errno));
        return;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    printf("open %s: read %zd \"%s\"\n", path + sizeof D, n, n > 0 ? buf : "");
    close(fd);
}

int main(void)
{
    char buf[256];
    if (mkdir(D, 0755) < 0 || mkdir(D "/sub", 0755) < 0)
        return 1;
    int fd = open(D "/sub/f", O_WRONLY | O_CREAT, 0644);
    if (fd < 0 || write(fd, "data", 4) != 4)
        return 1;
    close(fd);
    say("symlink abs", symlink(D "/sub", D "/abs"));
    say("symlink rel", symlink("sub", D "/rel"));
    say("symlink broken", symlink("nowhere", D "/broken"));
    say("symlink broken-abs", symlink(D "/new", D "/broken-abs"));
    say("symlink up", symlink("../../..", D "/up")); /* leaves /tmp: the guest's / */
    say("symlink chain", symlink(D "/abs/f", D "/chain"));
    say("symlink loop", symlink(D "/loop", D "/loop"));

    ssize_t n = readlink(D "/abs", buf, sizeof buf);
    printf("readlink abs: %zd %.*s\n", n, (int)(n > 0 ? n : 0), buf);
    n = readlink(D "/sub/f", buf, sizeof buf);
    say("readlink of a file", n);

    stat_both(D "/abs");
    stat_both(D "/rel");
    stat_both(D "/broken");
    stat_both(D "/chain");
    stat_both(D "/loop");
    stat_both(D "/abs/");
    stat_both(D "/up/tmp/fs-symlinks/sub");

    read_file(D "/abs/f", 0);
    read_file(D "/rel/f", 0);
    read_file(D "/chain", 0);
    read_file(D "/chain", O_NOFOLLOW);
    read_file(D "/up/tmp/fs-symlinks/abs/f", 0);
    read_file(D "/abs/../sub/f", 0);

    fd = open(D "/chain", O_PATH | O_NOFOLLOW);
    struct stat st;
    printf("O_PATH|O_NOFOLLOW chain: fstat %s\n",
           fd >= 0 && fstat(fd, &st) == 0 ? kind(st.st_mode) : err_name(errno));
    close(fd);
    int dfd = open(D, O_RDONLY | O_DIRECTORY);
    say("fstatat abs AT_SYMLINK_NOFOLLOW",
        fstatat(dfd, "abs", &st, AT_SYMLINK_NOFOLLOW) == 0 ? (long)S_ISLNK(st.st_mode) : -1);
    say("fstatat abs/f via dirfd", fstatat(dfd, "abs/f", &st, 0) == 0 ? (long)st.st_size : -1);

    /* Creating through a dangling absolute link makes its target; with
     * O_EXCL the link itself exists. */
    say("open O_CREAT|O_EXCL broken-abs", open(D "/broken-abs", O_WRONLY | O_CREAT | O_EXCL, 0644));
    fd = open(D "/broken-abs", O_WRONLY | O_CREAT, 0644);
    say("open O_CREAT broken-abs", fd >= 0 ? 0 : -1);
    close(fd);
    say("access new", access(D "/new", F_OK));
    say("access abs W_OK", access(D "/abs", W_OK));

    /* The entries' types as getdents gives them. */
    DIR *dir = opendir(D "/abs");
    say("opendir abs", dir ? 0 : -1);
    if (dir)
        closedir(dir);
    dir = opendir(D);
    const char *names[16];
    unsigned char types[16];
    int count = 0;
    for (struct dirent *e; dir && (e = readdir(dir)) && count < 16;)
        if (e->d_name[0] != '.') {
            names[count] = strdup(e->d_name);
            types[count++] = e->d_type;
        }
    closedir(dir);
    for (int i = 0; i < count; i++) /* sorted for a fixed order */
        for (int j = i + 1; j < count; j++)
            if (strcmp(names[j], names[i]) < 0) {
                const char *tn = names[i];
                unsigned char tt = types[i];
                names[i] = names[j], types[i] = types[j];
                names[j] = tn, types[j] = tt;
            }
    for (int i = 0; i < count; i++)
        printf("entry %s: %s\n", names[i],
               types[i] == DT_LNK ? "DT_LNK" : types[i] == DT_DIR ? "DT_DIR" : types[i] == DT_REG ? "DT_REG" : "other");

    say("chdir abs", chdir(D "/abs"));
    printf("getcwd: %s\n", getcwd(buf, sizeof buf) ? buf : err_name(errno));
    say("chdir /", chdir("/"));

    /* unlink and rename act on the link, not its target. */
    say("unlink abs", unlink(D "/abs"));
    say("stat sub/f after", stat(D "/sub/f", &st) == 0 ? (long)st.st_size : -1);
    say("rename rel", rename(D "/rel", D "/rel2"));
    stat_both(D "/rel2");
    say("rmdir rel2", rmdir(D "/rel2"));
    say("mkdir over broken", mkdir(D "/broken", 0755));
    return 0;
}
