/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devshm.c - /dev/shm is a private writable tmpfs: shm_open and what
 * sem_open does there (a temporary file linked to its name), the listing,
 * statfs, access, the budget it shares with /tmp, rename and link across
 * mounts (EXDEV), and the guest's mount table in /proc/self/mountinfo and
 * /proc/mounts. Run with --tmp-size 64M. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *err_name(int e)
{
    switch (e) {
    case 0: return "0";
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case EXDEV: return "EXDEV";
    case EBUSY: return "EBUSY";
    case EACCES: return "EACCES";
    case EROFS: return "EROFS";
    default: return strerror(e);
    }
}

#define SHOW(what, call) printf("%s: %s\n", what, err_name((call) < 0 ? errno : 0))

/* Whether a directory lists wanted (with the right d_type), or with
 * wanted NULL how many entries it has: never the names themselves, whose
 * order is the host file system's. */
static void list(const char *dir, const char *wanted, unsigned char type)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("opendir %s: %s\n", dir, err_name(errno));
        return;
    }
    int entries = 0, found = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        entries++;
        if (wanted && strcmp(e->d_name, wanted) == 0)
            found = 1 + (e->d_type == type);
    }
    closedir(d);
    if (wanted)
        printf("%s lists %s: %s\n", dir, wanted,
               found == 2 ? "yes, right type" : found ? "wrong type" : "no");
    else
        printf("%s entries: %d\n", dir, entries);
}

static long free_blocks(const char *path)
{
    struct statfs s;
    return statfs(path, &s) < 0 ? -1 : (long)s.f_bfree;
}

/* Prints the mount table with each device number replaced by "=" when it
 * is what stat says for the mount point, and the root's host file system
 * type by "FS" (the host's: ext4, btrfs, overlay...). */
static void mount_table(const char *file, int info)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        printf("%s: %s\n", file, err_name(errno));
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char id[16], parent[16], dev[32], root[64], point[64], rest[256];
        if (!info) {
            char source[64], type[32];
            if (sscanf(line, "%63s %63s %31s %255[^\n]", source, point, type, rest) == 4)
                printf("%s %s %s %s\n", source, point, strcmp(point, "/") ? type : "FS", rest);
            continue;
        }
        if (sscanf(line, "%15s %15s %31s %63s %63s %255[^\n]", id, parent, dev, root, point,
                   rest) != 6) {
            printf("bad line: %s", line);
            continue;
        }
        struct stat st;
        unsigned maj, min;
        int same = stat(point, &st) == 0 && sscanf(dev, "%u:%u", &maj, &min) == 2 &&
                   major(st.st_dev) == maj && minor(st.st_dev) == min;
        char *dash = strstr(rest, " - ");
        if (strcmp(point, "/") == 0 && dash) { /* "- TYPE SOURCE OPTS": hide TYPE */
            char *type_end = strchr(dash + 3, ' ');
            printf("%s %s %s %s %s %.*sFS%s\n", id, parent, same ? "=" : dev, root, point,
                   (int)(dash + 3 - rest), rest, type_end ? type_end : "");
        } else {
            printf("%s %s %s %s %s %s\n", id, parent, same ? "=" : dev, root, point, rest);
        }
    }
    fclose(f);
}

int main(void)
{
    struct stat st;
    if (stat("/dev/shm", &st) == 0)
        printf("/dev/shm mode %o\n", st.st_mode);
    SHOW("access /dev/shm W_OK", access("/dev/shm", W_OK));
    struct statfs sfs;
    if (statfs("/dev/shm", &sfs) == 0)
        printf("statfs /dev/shm type %#lx blocks %ld\n", (long)sfs.f_type, (long)sfs.f_blocks);
    list("/dev", "shm", DT_DIR);

    int fd = shm_open("/x", O_CREAT | O_RDWR, 0600);
    printf("shm_open /x: %s\n", fd >= 0 ? "ok" : err_name(errno));
    long before = free_blocks("/tmp");
    SHOW("ftruncate 4096", ftruncate(fd, 4096));
    printf("/tmp free blocks after: %ld\n", before - free_blocks("/tmp"));
    if (fstat(fd, &st) == 0)
        printf("fstat size %lld mode %o\n", (long long)st.st_size, st.st_mode);
    SHOW("shm_open /x O_EXCL", shm_open("/x", O_CREAT | O_EXCL | O_RDWR, 0600));
    list("/dev/shm", "x", DT_REG);
    SHOW("shm_unlink /x", shm_unlink("/x"));
    SHOW("shm_unlink /x again", shm_unlink("/x"));
    list("/dev/shm", NULL, 0);
    close(fd);

    /* What sem_open does: a temporary file, linked to its name, unlinked. */
    int tmp = open("/dev/shm/sem.tmp", O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_RDWR, 0600);
    printf("open temp: %s\n", tmp >= 0 ? "ok" : err_name(errno));
    SHOW("link to sem.s", link("/dev/shm/sem.tmp", "/dev/shm/sem.s"));
    SHOW("link again", link("/dev/shm/sem.tmp", "/dev/shm/sem.s"));
    SHOW("unlink temp", unlink("/dev/shm/sem.tmp"));
    if (stat("/dev/shm/sem.s", &st) == 0)
        printf("sem.s links %ld mode %o\n", (long)st.st_nlink, st.st_mode);
    close(tmp);
    SHOW("rename in /dev/shm", rename("/dev/shm/sem.s", "/dev/shm/sem.t"));
    SHOW("rename to /tmp", rename("/dev/shm/sem.t", "/tmp/sem.t"));
    SHOW("link to /tmp", link("/dev/shm/sem.t", "/tmp/sem.t"));
    SHOW("symlink", symlink("/dev/shm/sem.t", "/dev/shm/link"));
    if (stat("/dev/shm/link", &st) == 0)
        printf("through the symlink: mode %o\n", st.st_mode);
    SHOW("mkdir", mkdir("/dev/shm/d", 0700));
    SHOW("rmdir", rmdir("/dev/shm/d"));
    SHOW("rmdir /dev/shm", rmdir("/dev/shm"));
    unlink("/dev/shm/link");
    unlink("/dev/shm/sem.t");
    list("/dev/shm", NULL, 0);

    printf("mountinfo:\n");
    mount_table("/proc/self/mountinfo", 1);
    printf("mounts:\n");
    mount_table("/proc/mounts", 0);
    return 0;
}
