/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inotify.c - inotify (issue 26 item 5): `api` the calls' flags, errnos,
 * watch descriptors, the read format and its errors, FIONREAD and poll;
 * `events` the events each file-system call makes on a directory's and a
 * file's watches, in order; `special` IN_ONESHOT, IN_MASK_ADD,
 * IN_EXCL_UNLINK, an unlinked file still open, a rename over a watched
 * file; `block` a read that waits for another process's change, poll and
 * epoll; `overflow` IN_Q_OVERFLOW at max_queued_events; `limits`
 * /proc/sys/fs/inotify and EMFILE. Files live in a fresh directory of
 * /tmp; only names relative to it are printed. `trunc`: O_TRUNC and
 * O_PATH opens, where Linux 5.15 and 6.5+ differ. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static char dir[64];
static uint32_t cookies[8];
static int ncookies;

static const char *at(const char *name)
{
    static char buf[4][128];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
    return buf[i];
}

static void mask_names(uint32_t m, char *out, size_t len)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {
        {IN_ACCESS, "ACCESS"},         {IN_MODIFY, "MODIFY"},       {IN_ATTRIB, "ATTRIB"},
        {IN_CLOSE_WRITE, "CLOSE_WRITE"}, {IN_CLOSE_NOWRITE, "CLOSE_NOWRITE"},
        {IN_OPEN, "OPEN"},             {IN_MOVED_FROM, "MOVED_FROM"}, {IN_MOVED_TO, "MOVED_TO"},
        {IN_CREATE, "CREATE"},         {IN_DELETE, "DELETE"},       {IN_DELETE_SELF, "DELETE_SELF"},
        {IN_MOVE_SELF, "MOVE_SELF"},   {IN_UNMOUNT, "UNMOUNT"},     {IN_Q_OVERFLOW, "Q_OVERFLOW"},
        {IN_IGNORED, "IGNORED"},       {IN_ISDIR, "ISDIR"},
    };
    out[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (m & names[i].bit) {
            if (out[0])
                strncat(out, "|", len - strlen(out) - 1);
            strncat(out, names[i].name, len - strlen(out) - 1);
            m &= ~names[i].bit;
        }
    }
    if (m)
        snprintf(out + strlen(out), len - strlen(out), "|%#x", m);
}

/* A cookie as its order of appearance (the kernel's counter is global). */
static int cookie_index(uint32_t c)
{
    if (!c)
        return 0;
    for (int i = 0; i < ncookies; i++)
        if (cookies[i] == c)
            return i + 1;
    if (ncookies < 8)
        cookies[ncookies++] = c;
    return ncookies;
}

/* Prints every queued event (the fd is non-blocking). */
static void drain(const char *what, int fd)
{
    char buf[4096] __attribute__((aligned(8)));
    printf("%s:\n", what);
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno != EAGAIN)
                printf("  read: %s\n", err_name(errno));
            break;
        }
        for (ssize_t off = 0; off < n;) {
            struct inotify_event *e = (struct inotify_event *)(buf + off);
            char m[160];
            mask_names(e->mask, m, sizeof m);
            printf("  wd %d %s", e->wd, m);
            if (e->cookie)
                printf(" cookie#%d", cookie_index(e->cookie));
            if (e->len)
                printf(" len %u \"%s\"", e->len, e->name);
            printf("\n");
            off += (ssize_t)sizeof *e + e->len;
        }
    }
}

static void say(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static void touch(const char *name, const char *data)
{
    int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (data)
        write(fd, data, strlen(data));
    close(fd);
}

static int instance(void)
{
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

static void mode_api(void)
{
    printf("init1 bad flags: %s\n", inotify_init1(1) < 0 ? err_name(errno) : "ok");
    int fd = instance();
    printf("cloexec %d nonblock %d accmode %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC,
           !!(fcntl(fd, F_GETFL) & O_NONBLOCK), fcntl(fd, F_GETFL) & O_ACCMODE);
    char target[64] = "", path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    readlink(path, target, sizeof target - 1);
    printf("link %s\n", target);
#ifdef SYS_inotify_init
    int old = (int)syscall(SYS_inotify_init);
    printf("inotify_init: %s nonblock %d\n", old >= 0 ? "ok" : err_name(errno),
           !!(fcntl(old, F_GETFL) & O_NONBLOCK));
    close(old);
#else
    printf("inotify_init: ok nonblock 0\n"); /* arm64 has only inotify_init1 */
#endif
    touch("f", "abc");
    mkdir(at("d"), 0755);
    symlink("f", at("l"));
    link(at("f"), at("hard"));
    int pfd[2];
    pipe(pfd);
    say("add bad fd", inotify_add_watch(99, at("f"), IN_MODIFY));
    say("add not inotify", inotify_add_watch(pfd[0], at("f"), IN_MODIFY));
    say("add mask 0", inotify_add_watch(fd, at("f"), 0));
    say("add mask 0 bad fd", inotify_add_watch(99, at("f"), 0));
    say("add unknown bit", inotify_add_watch(fd, at("f"), IN_MODIFY | 0x1000));
    say("add MASK_ADD|MASK_CREATE", inotify_add_watch(fd, at("f"), IN_MODIFY | IN_MASK_ADD | IN_MASK_CREATE));
    say("add missing", inotify_add_watch(fd, at("missing"), IN_MODIFY));
    say("add bad path", inotify_add_watch(fd, (const char *)8, IN_MODIFY));
    say("add ONLYDIR file", inotify_add_watch(fd, at("f"), IN_MODIFY | IN_ONLYDIR));
    say("add file", inotify_add_watch(fd, at("f"), IN_MODIFY));
    say("add file again", inotify_add_watch(fd, at("f"), IN_ATTRIB));
    say("add hard link", inotify_add_watch(fd, at("hard"), IN_ATTRIB));
    say("add symlink", inotify_add_watch(fd, at("l"), IN_ATTRIB));
    say("add symlink DONT_FOLLOW", inotify_add_watch(fd, at("l"), IN_ATTRIB | IN_DONT_FOLLOW));
    say("add MASK_CREATE existing", inotify_add_watch(fd, at("f"), IN_ATTRIB | IN_MASK_CREATE));
    say("add ONLYDIR dir", inotify_add_watch(fd, at("d"), IN_CREATE | IN_ONLYDIR));
    say("add ISDIR only", inotify_add_watch(fd, dir, IN_ISDIR));
    say("rm bad fd", inotify_rm_watch(99, 1));
    say("rm not inotify", inotify_rm_watch(pfd[0], 1));
    say("rm missing wd", inotify_rm_watch(fd, 42));
    say("rm wd 2", inotify_rm_watch(fd, 2));
    say("rm wd 2 again", inotify_rm_watch(fd, 2));
    say("add symlink DONT_FOLLOW again", inotify_add_watch(fd, at("l"), IN_ATTRIB | IN_DONT_FOLLOW));
    int n = -1;
    say("FIONREAD", ioctl(fd, FIONREAD, &n));
    printf("queued bytes %d\n", n);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    printf("poll: %d %#x\n", poll(&p, 1, 0), p.revents);
    char small[16];
    say("read 15 bytes", read(fd, small, 15));
    say("read 16 bytes", read(fd, small, 16));
    struct inotify_event ign;
    memcpy(&ign, small, sizeof ign);
    printf("  wd %d mask %#x cookie %u len %u\n", ign.wd, ign.mask, ign.cookie, ign.len);
    drain("after rm", fd);
    printf("poll empty: %d\n", poll(&p, 1, 0));
    say("read empty", read(fd, small, sizeof small));
    say("write", write(fd, "x", 1));
    say("lseek", lseek(fd, 0, SEEK_SET));
    /* name padding: the name and its NUL rounded up to 16 */
    inotify_add_watch(fd, dir, IN_CREATE);
    touch("a", NULL);
    touch("fifteen_chars_x", NULL);
    touch("sixteen_chars_xy", NULL);
    n = -1;
    ioctl(fd, FIONREAD, &n);
    printf("queued bytes %d\n", n);
    char one[32];
    say("read 31 bytes", read(fd, one, 31));
    say("read 32 bytes", read(fd, one, 32));
    drain("padding", fd);
    say("close", close(fd));
}

static void mode_events(void)
{
    int fd = instance();
    int wdir = inotify_add_watch(fd, dir, IN_ALL_EVENTS);
    printf("dir wd %d\n", wdir);
    int w = open(at("f"), O_WRONLY | O_CREAT, 0644);
    drain("creat", fd);
    write(w, "hello", 5);
    write(w, "world", 5);
    drain("two writes", fd);
    close(w);
    drain("close", fd);
    int wf = inotify_add_watch(fd, at("f"), IN_ALL_EVENTS);
    printf("file wd %d\n", wf);
    char buf[16];
    int r = open(at("f"), O_RDONLY);
    read(r, buf, 3);
    read(r, buf, 0);
    pread(r, buf, 3, 1);
    close(r);
    drain("open read close", fd);
    chmod(at("f"), 0600);
    drain("chmod", fd);
    chown(at("f"), getuid(), getgid());
    drain("chown", fd);
    truncate(at("f"), 2);
    drain("truncate", fd);
    struct timespec ts[2] = {{1, 0}, {0, UTIME_OMIT}};
    utimensat(AT_FDCWD, at("f"), ts, 0);
    drain("utimensat atime", fd);
    ts[0].tv_nsec = UTIME_OMIT, ts[1] = (struct timespec){2, 0};
    utimensat(AT_FDCWD, at("f"), ts, 0);
    drain("utimensat mtime", fd);
    utimensat(AT_FDCWD, at("f"), NULL, 0);
    drain("utimensat both", fd);
    w = open(at("f"), O_RDWR);
    fchmod(w, 0644);
    ftruncate(w, 1);
    close(w);
    drain("fchmod ftruncate", fd);
    w = open(at("f"), O_RDWR);
    int c = open(at("c"), O_RDWR | O_CREAT, 0644);
    drain("open two", fd);
    say("sendfile", sendfile(c, w, NULL, 1));
    drain("sendfile", fd);
    loff_t zero = 0;
    say("copy_file_range", copy_file_range(c, &zero, w, NULL, 1, 0));
    drain("copy_file_range", fd);
    close(c);
    close(w);
    unlink(at("c"));
    drain("close two, unlink", fd);
    mkdir(at("sub"), 0755);
    drain("mkdir", fd);
    int d = open(at("sub"), O_RDONLY | O_DIRECTORY);
    char dents[512];
    syscall(SYS_getdents64, d, dents, sizeof dents);
    close(d);
    drain("opendir getdents close", fd);
    rename(at("f"), at("g"));
    drain("rename", fd);
    link(at("g"), at("h"));
    drain("link", fd);
    symlink("g", at("sym"));
    drain("symlink", fd);
    mknod(at("fifo"), S_IFIFO | 0644, 0);
    drain("mknod", fd);
    unlink(at("h"));
    drain("unlink second link", fd);
    rename(at("sub"), at("sub2"));
    drain("rename dir", fd);
    rmdir(at("sub2"));
    drain("rmdir", fd);
    unlink(at("sym"));
    unlink(at("fifo"));
    drain("unlink sym fifo", fd);
    unlink(at("g"));
    drain("unlink watched file", fd);
    int wsub = (mkdir(at("s"), 0755), inotify_add_watch(fd, at("s"), IN_ALL_EVENTS));
    printf("sub wd %d\n", wsub);
    rmdir(at("s"));
    drain("rmdir watched dir", fd);
    close(fd);
}

/* open(O_TRUNC): Linux 5.15 tells IN_MODIFY (handle_truncate) before
 * IN_OPEN (do_sys_openat2); 6.5 and later tell IN_OPEN first, from
 * do_dentry_open. */
static void mode_trunc(void)
{
    int fd = instance();
    touch("f", "data");
    inotify_add_watch(fd, dir, IN_ALL_EVENTS);
    int w = open(at("f"), O_WRONLY | O_TRUNC);
    close(w);
    drain("O_TRUNC", fd);
    w = open(at("f"), O_RDONLY | O_TRUNC);
    close(w);
    drain("O_RDONLY|O_TRUNC", fd);
    int p = open(at("f"), O_PATH);
    close(p);
    drain("O_PATH", fd);
    close(fd);
}

static void mode_special(void)
{
    int fd = instance();
    touch("f", NULL);
    int w = open(at("f"), O_WRONLY);
    printf("oneshot wd %d\n", inotify_add_watch(fd, at("f"), IN_MODIFY | IN_ONESHOT));
    write(w, "a", 1);
    write(w, "b", 1);
    drain("oneshot two writes", fd);
    int wd = inotify_add_watch(fd, at("f"), IN_MODIFY);
    printf("new wd %d\n", wd);
    printf("mask add wd %d\n", inotify_add_watch(fd, at("f"), IN_ATTRIB | IN_MASK_ADD));
    write(w, "c", 1);
    fchmod(w, 0600);
    drain("modify and attrib", fd);
    printf("replace wd %d\n", inotify_add_watch(fd, at("f"), IN_ACCESS));
    write(w, "d", 1);
    fchmod(w, 0644);
    drain("replaced by ACCESS", fd);
    close(w);
    inotify_rm_watch(fd, wd);
    drain("rm", fd);

    /* IN_EXCL_UNLINK: no events of an unlinked child */
    int wdir = inotify_add_watch(fd, dir, IN_MODIFY | IN_EXCL_UNLINK);
    int wdir2fd = instance();
    int wdir2 = inotify_add_watch(wdir2fd, dir, IN_MODIFY);
    printf("excl wd %d plain wd %d\n", wdir, wdir2);
    w = open(at("f"), O_WRONLY);
    write(w, "e", 1);
    unlink(at("f"));
    write(w, "f", 1);
    close(w);
    drain("excl_unlink", fd);
    drain("without", wdir2fd);
    close(wdir2fd);
    inotify_rm_watch(fd, wdir);
    drain("rm dir", fd);

    /* an unlinked file still open: its inode goes at the last close */
    touch("open", NULL);
    int wo = inotify_add_watch(fd, at("open"), IN_ALL_EVENTS);
    printf("open file wd %d\n", wo);
    w = open(at("open"), O_WRONLY);
    int w2 = dup(w);
    unlink(at("open"));
    drain("unlinked while open", fd);
    close(w);
    drain("one descriptor closed", fd);
    close(w2);
    drain("last close", fd);

    /* a child exits holding the last open file of an unlinked inode among
     * other files: its exit closes them */
    touch("held", NULL);
    int wh = inotify_add_watch(fd, at("held"), IN_CLOSE | IN_DELETE_SELF);
    printf("held wd %d\n", wh);
    pid_t pid = fork();
    if (pid == 0) {
        int other = open(dir, O_RDONLY | O_DIRECTORY);
        int h = open(at("held"), O_RDONLY);
        unlink(at("held"));
        (void)other, (void)h;
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    drain("child exited", fd);

    /* a rename over a watched file */
    touch("src", NULL);
    touch("dst", NULL);
    int ws = inotify_add_watch(fd, at("src"), IN_ALL_EVENTS);
    int wt = inotify_add_watch(fd, at("dst"), IN_ALL_EVENTS);
    int wd2 = inotify_add_watch(fd, dir, IN_MOVE | IN_CREATE | IN_DELETE);
    printf("src wd %d dst wd %d dir wd %d\n", ws, wt, wd2);
    rename(at("src"), at("dst"));
    drain("rename over", fd);
    link(at("dst"), at("dst2"));
    rename(at("dst"), at("dst2"));
    drain("rename onto own link", fd);
    unlink(at("dst"));
    unlink(at("dst2"));
    drain("cleanup", fd);
    /* a directory renamed over an empty watched one */
    mkdir(at("da"), 0755);
    mkdir(at("db"), 0755);
    int wda = inotify_add_watch(fd, at("da"), IN_ALL_EVENTS);
    int wdb = inotify_add_watch(fd, at("db"), IN_ALL_EVENTS);
    printf("da wd %d db wd %d\n", wda, wdb);
    rename(at("da"), at("db"));
    drain("rename dir over dir", fd);
    rmdir(at("db"));
    drain("rmdir", fd);
    close(fd);
}

static volatile int alarms;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

static void mode_block(void)
{
    int fd = inotify_init();
    printf("blocking wd %d\n", inotify_add_watch(fd, dir, IN_CREATE));
    pid_t pid = fork();
    if (pid == 0) {
        usleep(20000);
        touch("from-child", NULL);
        usleep(20000);
        touch("second", NULL);
        usleep(20000);
        touch("third", NULL);
        _exit(0);
    }
    char buf[256] __attribute__((aligned(8)));
    ssize_t n = read(fd, buf, sizeof buf);
    struct inotify_event *e = (struct inotify_event *)buf;
    printf("blocked read: %zd %#x %s\n", n, e->mask, e->name);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    printf("poll: %d %#x\n", poll(&p, 1, 5000), p.revents);
    n = read(fd, buf, sizeof buf);
    printf("read: %zd %s\n", n, e->name);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN}, out;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    printf("epoll: %d %#x\n", epoll_wait(ep, &out, 1, 5000), out.events);
    n = read(fd, buf, sizeof buf);
    printf("read: %zd %s\n", n, e->name);
    int status;
    waitpid(pid, &status, 0);
    printf("child exit %d\n", WEXITSTATUS(status));
    /* a signal without SA_RESTART ends a blocked read: EINTR */
    struct sigaction sa = {.sa_handler = on_alarm};
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {.it_value = {0, 50000}};
    setitimer(ITIMER_REAL, &it, NULL);
    n = read(fd, buf, sizeof buf);
    printf("read with a signal: %s alarms %d\n", n < 0 ? err_name(errno) : "data", alarms);
    unlink(at("from-child"));
    unlink(at("second"));
    unlink(at("third"));
    close(ep);
    close(fd);
}

static void mode_overflow(void)
{
    int fd = instance();
    touch("f", NULL);
    int w = open(at("f"), O_RDWR);
    inotify_add_watch(fd, at("f"), IN_MODIFY | IN_ACCESS);
    char c = 'x';
    /* alternate so that consecutive events never merge */
    for (int i = 0; i < 8200; i++) {
        pwrite(w, &c, 1, 0);
        pread(w, &c, 1, 0);
    }
    int n = -1;
    ioctl(fd, FIONREAD, &n);
    printf("queued bytes %d\n", n);
    static char buf[65536] __attribute__((aligned(8)));
    long events = 0, modify = 0, access = 0, overflow = 0, last_wd = 0;
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < r;) {
            struct inotify_event *e = (struct inotify_event *)(buf + off);
            events++;
            modify += e->mask == IN_MODIFY;
            access += e->mask == IN_ACCESS;
            overflow += e->mask == IN_Q_OVERFLOW;
            last_wd = e->wd;
            off += (ssize_t)sizeof *e + e->len;
        }
    }
    printf("events %ld modify %ld access %ld overflow %ld last wd %ld\n", events, modify, access,
           overflow, last_wd);
    pwrite(w, &c, 1, 0);
    drain("after the overflow was read", fd);
    close(w);
    close(fd);
}

static void mode_limits(void)
{
    static const char *const names[] = {"max_user_instances", "max_user_watches",
                                        "max_queued_events"};
    for (int i = 0; i < 3; i++) {
        char path[80], val[32] = "";
        snprintf(path, sizeof path, "/proc/sys/fs/inotify/%s", names[i]);
        FILE *f = fopen(path, "r");
        if (f) {
            fgets(val, sizeof val, f);
            fclose(f);
        }
        printf("%s %s", names[i], val[0] ? val : "missing\n");
    }
    int n = 0, fd;
    while ((fd = inotify_init1(IN_CLOEXEC)) >= 0)
        n++;
    printf("instances %d then %s\n", n, err_name(errno));
}

/* ENOSPC past max_user_watches, counted over the user's instances. */
static void mode_enospc(void)
{
    FILE *f = fopen("/proc/sys/fs/inotify/max_user_watches", "r");
    int max = 0;
    if (!f || fscanf(f, "%d", &max) != 1)
        return;
    fclose(f);
    char name[32];
    for (int i = 0; i <= max; i++) {
        snprintf(name, sizeof name, "w%d", i);
        close(open(at(name), O_WRONLY | O_CREAT, 0644));
    }
    int a = instance(), b = instance(), n = 0, wd = 0;
    for (int i = 0; i < max; i++) {
        snprintf(name, sizeof name, "w%d", i);
        if ((wd = inotify_add_watch(i % 2 ? b : a, at(name), IN_MODIFY)) < 0)
            break;
        n++;
    }
    printf("watches %d of %d\n", n, max);
    snprintf(name, sizeof name, "w%d", max);
    say("one more", inotify_add_watch(a, at(name), IN_MODIFY));
    say("an existing one changed", inotify_add_watch(a, at("w0"), IN_ATTRIB));
    say("rm", inotify_rm_watch(b, 1));
    say("then one more", inotify_add_watch(a, at(name), IN_MODIFY));
    close(a);
    close(b);
    for (int i = 0; i <= max; i++) {
        snprintf(name, sizeof name, "w%d", i);
        unlink(at(name));
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "api";
    snprintf(dir, sizeof dir, "/tmp/inotify-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (strcmp(mode, "api") == 0)
        mode_api();
    else if (strcmp(mode, "events") == 0)
        mode_events();
    else if (strcmp(mode, "trunc") == 0)
        mode_trunc();
    else if (strcmp(mode, "special") == 0)
        mode_special();
    else if (strcmp(mode, "block") == 0)
        mode_block();
    else if (strcmp(mode, "overflow") == 0)
        mode_overflow();
    else if (strcmp(mode, "limits") == 0)
        mode_limits();
    else if (strcmp(mode, "enospc") == 0)
        mode_enospc();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "%s", dir);
    /* leave nothing behind: the tests' files, then the directory */
    static const char *const left[] = {"f", "d", "l", "hard", "a", "fifteen_chars_x",
                                       "sixteen_chars_xy", "open"};
    for (size_t i = 0; i < sizeof left / sizeof *left; i++) {
        if (unlink(at(left[i])) < 0)
            rmdir(at(left[i]));
    }
    rmdir(cmd);
    return 0;
}
