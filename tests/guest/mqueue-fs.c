/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqueue-fs.c - the mqueue file system (sysfs-fs/mqueue_fs.c; Linux's
 * ipc/mqueue.c mqueue_fs_type) as a Debian 12 guest finds it at
 * /dev/mqueue: the root directory, its line in /proc/self/mounts and
 * mountinfo, statfs, readdir, stat of a queue, the QSIZE line a read
 * gives, an open file used as an mq descriptor (mq_receive, poll), unlink
 * as mq_unlink, open(O_CREAT) and mknod as mqueue_create, chmod, chown,
 * fchmod, utimensat and futimens of a queue (simple_setattr), what the
 * directory cannot do (mkdir, rename, link, symlink...), hostile names, a
 * second mount (the same queues: busy while a queue is open through it,
 * detached then, the queue still working), and a
 * user that is not root (mount EPERM, the sticky directory's rules).
 * Names are fixed: the test runs in a fresh IPC namespace (asymu's
 * machine, or `unshare -i` around qemu-user). */
#define _GNU_SOURCE
#include "guest.h"

#include <dirent.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define DIR_ "/dev/mqueue"
#define SECOND "/tmp/asymu-mq2"

static const char *res(long r)
{
    return r < 0 ? err_name(errno) : "ok";
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir, sorted (raw_list shows readdir's own order). */
static void list(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("ls %s: %s\n", dir, err_name(errno));
        return;
    }
    char *names[32];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 32) {
        char *s;
        if (asprintf(&s, "%s(%s)", e->d_name, e->d_type == DT_DIR ? "dir" : e->d_type == DT_REG ? "reg" : "?") < 0)
            break;
        names[n++] = s;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    printf("ls %s:", dir);
    for (int i = 0; i < n; i++) {
        printf(" %s", names[i]);
        free(names[i]);
    }
    printf("\n");
}

/* readdir's order: the newest queue first, as dcache_readdir. */
static void raw_list(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    printf("readdir order:");
    while (d && (e = readdir(d)))
        printf(" %s", e->d_name);
    printf("\n");
    if (d)
        closedir(d);
}

static void stat_of(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        printf("stat %s: %s\n", path, err_name(errno));
        return;
    }
    printf("stat %s: mode %o nlink %lu uid %u gid %u size %lld\n", path, (unsigned)st.st_mode,
           (unsigned long)st.st_nlink, (unsigned)st.st_uid, (unsigned)st.st_gid,
           (long long)st.st_size);
}

/* The line of /proc/self/mounts (mountinfo: from the mount point on, and
 * whether its device is the one stat gives) for point. */
static void mount_line(const char *file, const char *point)
{
    FILE *f = fopen(file, "r");
    char line[512], pat[128];
    bool info = strstr(file, "mountinfo") != NULL;
    snprintf(pat, sizeof pat, " %s ", point);
    int found = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *at = strstr(line, pat);
        if (!at)
            continue;
        found++;
        if (!info) {
            printf("mounts: %s", line);
            continue;
        }
        unsigned maj = 0, min = 0;
        struct stat st;
        sscanf(line, "%*d %*d %u:%u", &maj, &min);
        bool same = stat(point, &st) == 0 && major(st.st_dev) == maj && minor(st.st_dev) == min;
        printf("mountinfo:%s", at);
        printf("mountinfo device is stat's: %s\n", same ? "yes" : "no");
    }
    if (f)
        fclose(f);
    if (!found)
        printf("%s: no %s\n", info ? "mountinfo" : "mounts", point);
}

static void read_line(const char *what, int fd)
{
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    if (n < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    buf[n] = '\0';
    printf("%s: %zd \"%.*s\"\n", what, n, (int)(n && buf[n - 1] == '\n' ? n - 1 : n), buf);
}

static void errors(void)
{
    char longname[300] = DIR_ "/";
    memset(longname + strlen(longname), 'x', 256);
    printf("mkdir new: %s\n", res(mkdir(DIR_ "/d", 0700)));
    printf("mkdir existing: %s\n", res(mkdir(DIR_ "/asymu-fs-a", 0700)));
    printf("mkdir the mount: %s\n", res(mkdir(DIR_, 0700)));
    printf("mkdir /tmp: %s\n", res(mkdir("/tmp", 0700)));
    printf("rename: %s\n", res(rename(DIR_ "/asymu-fs-a", DIR_ "/asymu-fs-z")));
    printf("rename missing: %s\n", res(rename(DIR_ "/nothere", DIR_ "/asymu-fs-z")));
    printf("rename to /tmp: %s\n", res(rename(DIR_ "/asymu-fs-a", "/tmp/asymu-fs-z")));
    printf("rename from /tmp: %s\n", res(rename("/tmp/nothere", DIR_ "/asymu-fs-z")));
    printf("link: %s\n", res(link(DIR_ "/asymu-fs-a", DIR_ "/asymu-fs-z")));
    printf("symlink: %s\n", res(symlink("asymu-fs-a", DIR_ "/asymu-fs-z")));
    printf("mknod fifo: %s\n", res(mknod(DIR_ "/asymu-fs-z", S_IFIFO | 0600, 0)));
    printf("rmdir queue: %s\n", res(rmdir(DIR_ "/asymu-fs-a")));
    printf("rmdir root: %s\n", res(rmdir(DIR_)));
    printf("unlink root: %s\n", res(unlink(DIR_)));
    printf("unlink missing: %s\n", res(unlink(DIR_ "/nothere")));
    printf("open below a queue: %s\n", res(open(DIR_ "/asymu-fs-a/x", O_RDONLY)));
    printf("open O_DIRECTORY: %s\n", res(open(DIR_ "/asymu-fs-a", O_RDONLY | O_DIRECTORY)));
    printf("open missing: %s\n", res(open(DIR_ "/nothere", O_RDONLY)));
    printf("stat 256 chars: %s\n", res(stat(longname, &(struct stat){0})));
    printf("create 256 chars: %s\n", res(open(longname, O_CREAT | O_RDWR, 0600)));
    printf("create \"..\": %s\n", res(open(DIR_ "/..", O_CREAT | O_RDWR, 0600)));
    longname[strlen(DIR_) + 1 + 255] = '\0';
    int fd = open(longname, O_CREAT | O_EXCL | O_RDWR, 0600);
    printf("create 255 chars: %s\n", res(fd));
    if (fd >= 0) {
        close(fd);
        printf("mq_unlink it: %s\n", res(mq_unlink(longname + strlen(DIR_))));
    }
    printf("mknod regular: %s\n", res(mknod(DIR_ "/asymu-fs-d", S_IFREG | 0644, 0)));
    printf("mknod again: %s\n", res(mknod(DIR_ "/asymu-fs-d", S_IFREG | 0644, 0)));
    stat_of(DIR_ "/asymu-fs-d");
    printf("mq_unlink it: %s\n", res(mq_unlink("/asymu-fs-d")));
}

/* A second mount shows the same queues; its unmount leaves an open queue
 * working. */
static void second_mount(void)
{
    printf("mkdir " SECOND ": %s\n", res(mkdir(SECOND, 0755)));
    printf("mount mqueue: %s\n", res(mount("none", SECOND, "mqueue", 0, NULL)));
    list(SECOND);
    printf("rename the mount: %s\n", res(rename(SECOND, SECOND "x")));
    mount_line("/proc/self/mounts", SECOND);
    stat_of(SECOND);
    int fd = open(SECOND "/asymu-fs-a", O_WRONLY);
    printf("open through it: %s\n", res(fd));
    printf("send through it: %s\n", res(mq_send(fd, "again", 5, 3)));
    printf("umount while open: %s\n", res(umount(SECOND)));
    printf("umount MNT_DETACH: %s\n", res(umount2(SECOND, MNT_DETACH)));
    printf("send after umount: %s\n", res(mq_send(fd, "after", 5, 1)));
    close(fd);
    list(SECOND);
    printf("rmdir " SECOND ": %s\n", res(rmdir(SECOND)));
    int q = mq_open("/asymu-fs-a", O_RDONLY);
    struct mq_attr a;
    mq_getattr(q, &a);
    printf("messages in asymu-fs-a: %ld\n", a.mq_curmsgs);
    mq_close(q);
}

/* Another user: no mount, the sticky directory's rules. */
static void as_nobody(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(65534) < 0 || setuid(65534) < 0)
            _exit(2);
        mkdir("/tmp/asymu-mq3", 0755);
        printf("nobody: mount: %s\n", res(mount("none", "/tmp/asymu-mq3", "mqueue", 0, NULL)));
        printf("nobody: umount /dev/mqueue: %s\n", res(umount(DIR_)));
        rmdir("/tmp/asymu-mq3");
        printf("nobody: open 0640 queue: %s\n", res(open(DIR_ "/asymu-fs-a", O_RDONLY)));
        printf("nobody: unlink root's queue: %s\n", res(unlink(DIR_ "/asymu-fs-a")));
        printf("nobody: chmod it: %s\n", res(chmod(DIR_ "/asymu-fs-a", 0666)));
        printf("nobody: chown it: %s\n", res(chown(DIR_ "/asymu-fs-a", 65534, -1)));
        struct timespec ts[2] = {{1, 0}, {1, 0}};
        printf("nobody: set its times: %s\n", res(utimensat(AT_FDCWD, DIR_ "/asymu-fs-a", ts, 0)));
        printf("nobody: touch it: %s\n", res(utimensat(AT_FDCWD, DIR_ "/asymu-fs-a", NULL, 0)));
        int fd = open(DIR_ "/asymu-fs-n", O_CREAT | O_RDWR, 0600);
        printf("nobody: create: %s\n", res(fd));
        stat_of(DIR_ "/asymu-fs-n");
        close(fd);
        printf("nobody: unlink own: %s\n", res(unlink(DIR_ "/asymu-fs-n")));
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("nobody exits %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* A read-only mount with its own flags (EROFS for every change through
 * it, the queues still readable), and /dev/mqueue unmounted and mounted
 * again. */
static void read_only(void)
{
    const char *ro = "/tmp/asymu-mq4";
    mqd_t q = mq_open("/asymu-fs-r", O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
    printf("mq_open r: %s\n", res(q));
    printf("mkdir %s: %s\n", ro, res(mkdir(ro, 0755)));
    printf("mount ro,nosuid,nodev: %s\n",
           res(mount("mq", ro, "mqueue", MS_RDONLY | MS_NOSUID | MS_NODEV, NULL)));
    mount_line("/proc/self/mounts", ro);
    mount_line("/proc/self/mountinfo", ro);
    struct statfs sfs;
    statfs(ro, &sfs);
    printf("statfs type %#lx flags %#lx\n", (unsigned long)sfs.f_type, (unsigned long)sfs.f_flags);
    list(ro);
    int fd = open("/tmp/asymu-mq4/asymu-fs-r", O_RDONLY);
    printf("open O_RDONLY: %s\n", res(fd));
    printf("open O_WRONLY: %s\n", res(open("/tmp/asymu-mq4/asymu-fs-r", O_WRONLY)));
    printf("create: %s\n", res(open("/tmp/asymu-mq4/asymu-fs-s", O_CREAT | O_RDONLY, 0600)));
    int fd2 = open("/tmp/asymu-mq4/asymu-fs-r", O_CREAT | O_RDONLY, 0600);
    printf("create existing: %s\n", res(fd2));
    printf("unlink: %s\n", res(unlink("/tmp/asymu-mq4/asymu-fs-r")));
    printf("unlink missing: %s\n", res(unlink("/tmp/asymu-mq4/nothere")));
    printf("mkdir: %s\n", res(mkdir("/tmp/asymu-mq4/d", 0700)));
    printf("mknod: %s\n", res(mknod("/tmp/asymu-mq4/asymu-fs-s", S_IFREG | 0600, 0)));
    printf("umount while open: %s\n", res(umount(ro)));
    close(fd);
    printf("umount while open: %s\n", res(umount(ro)));
    close(fd2);
    printf("umount: %s\n", res(umount(ro)));
    printf("rmdir: %s\n", res(rmdir(ro)));

    printf("umount /dev/mqueue: %s\n", res(umount(DIR_)));
    mount_line("/proc/self/mounts", DIR_);
    struct stat st;
    stat(DIR_, &st);
    printf("the bare directory: mode %o\n", (unsigned)st.st_mode);
    list(DIR_);
    printf("mount again: %s\n",
           res(mount("mqueue", DIR_, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)));
    mount_line("/proc/self/mounts", DIR_);
    list(DIR_);
    printf("mq_unlink r: %s\n", res(mq_unlink("/asymu-fs-r")));
    mq_close(q);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    umask(022);
    if (argc > 1 && strcmp(argv[1], "ro") == 0) {
        read_only();
        return 0;
    }
    stat_of(DIR_);
    struct statfs sfs;
    printf("statfs: %s type %#lx\n", res(statfs(DIR_, &sfs)), (unsigned long)sfs.f_type);
    mount_line("/proc/self/mounts", DIR_);
    mount_line("/proc/self/mountinfo", DIR_);

    struct mq_attr attr = {.mq_maxmsg = 4, .mq_msgsize = 32};
    mqd_t a = mq_open("/asymu-fs-a", O_CREAT | O_EXCL | O_RDWR, 0640, &attr);
    mqd_t b = mq_open("/asymu-fs-b", O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
    printf("mq_open a, b: %s %s\n", res(a), res(b));
    printf("send: %s\n", res(mq_send(a, "hello", 5, 7)));
    list(DIR_);
    raw_list(DIR_);
    stat_of(DIR_);
    stat_of(DIR_ "/asymu-fs-a");

    /* the file is the queue: its line, poll, mq_receive */
    int fd = open(DIR_ "/asymu-fs-a", O_RDWR);
    printf("open: %s\n", res(fd));
    read_line("read", fd);
    read_line("read at the end", fd);
    printf("pread at 6: ");
    char part[8] = "";
    ssize_t n = pread(fd, part, 5, 6);
    printf("%zd \"%.*s\"\n", n, (int)(n > 0 ? n : 0), part);
    char link[64] = "", self[32];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    n = readlink(self, link, sizeof link - 1);
    printf("fd link: %s\n", n < 0 ? err_name(errno) : link);
    struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT};
    printf("poll: %d revents %#x\n", poll(&p, 1, 0), p.revents);
    char msg[64];
    unsigned prio = 0;
    n = mq_receive(fd, msg, sizeof msg, &prio);
    printf("mq_receive through it: %zd \"%.*s\" prio %u\n", n, (int)(n > 0 ? n : 0), msg, prio);
    p.revents = 0;
    printf("poll: %d revents %#x\n", poll(&p, 1, 0), p.revents);
    printf("write: %s\n", res(write(fd, "x", 1)));
    struct stat st;
    fstat(fd, &st);
    printf("fstat: mode %o size %lld\n", (unsigned)st.st_mode, (long long)st.st_size);
    printf("fstatfs: %s type %#lx\n", res(fstatfs(fd, &sfs)), (unsigned long)sfs.f_type);
    printf("fd flags cloexec: %d\n", fcntl(fd, F_GETFD));
    close(fd);

    /* unlink through the file system is mq_unlink */
    printf("unlink b: %s\n", res(unlink(DIR_ "/asymu-fs-b")));
    printf("mq_open b: %s\n", res(mq_open("/asymu-fs-b", O_RDONLY)));
    printf("unlink b again: %s\n", res(unlink(DIR_ "/asymu-fs-b")));
    mq_close(b);

    /* open(O_CREAT) is mqueue_create: the default attributes */
    fd = open(DIR_ "/asymu-fs-c", O_CREAT | O_RDWR, 0604);
    printf("create c: %s\n", res(fd));
    mqd_t c = mq_open("/asymu-fs-c", O_RDONLY);
    struct mq_attr ca = {0};
    mq_getattr(c, &ca);
    printf("mq_open c: %s maxmsg %ld msgsize %ld\n", res(c), ca.mq_maxmsg, ca.mq_msgsize);
    printf("create c O_EXCL: %s\n", res(open(DIR_ "/asymu-fs-c", O_CREAT | O_EXCL | O_RDWR, 0600)));
    stat_of(DIR_ "/asymu-fs-c");
    raw_list(DIR_);
    /* the inode changes as simple_setattr's */
    printf("chmod 06640: %s\n", res(chmod(DIR_ "/asymu-fs-c", 06640)));
    stat_of(DIR_ "/asymu-fs-c");
    printf("chown -1 -1: %s\n", res(chown(DIR_ "/asymu-fs-c", -1, -1)));
    stat_of(DIR_ "/asymu-fs-c");
    printf("chown 65534 100: %s\n", res(chown(DIR_ "/asymu-fs-c", 65534, 100)));
    printf("fchmod the mq descriptor 0604: %s\n", res(fchmod(c, 0604)));
    stat_of(DIR_ "/asymu-fs-c");
    struct timespec ts[2] = {{1000000000, 7}, {1100000000, 9}};
    printf("utimensat: %s\n", res(utimensat(AT_FDCWD, DIR_ "/asymu-fs-c", ts, 0)));
    ts[0].tv_nsec = UTIME_OMIT;
    ts[1].tv_sec = 1200000000;
    printf("futimens the mq descriptor: %s\n", res(futimens(c, ts)));
    struct stat cs;
    stat(DIR_ "/asymu-fs-c", &cs);
    printf("times: atime %lld.%09ld mtime %lld.%09ld\n", (long long)cs.st_atim.tv_sec,
           cs.st_atim.tv_nsec, (long long)cs.st_mtim.tv_sec, cs.st_mtim.tv_nsec);
    ts[1].tv_nsec = 1000000000;
    printf("utimensat bad nsec: %s\n", res(utimensat(AT_FDCWD, DIR_ "/asymu-fs-c", ts, 0)));
    mq_close(c);
    close(fd);

    errors();
    second_mount();
    as_nobody();

    printf("mq_unlink a, c: %s %s\n", res(mq_unlink("/asymu-fs-a")), res(mq_unlink("/asymu-fs-c")));
    mq_close(a);
    list(DIR_);
    stat_of(DIR_);
    return 0;
}
