/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pty.c - pseudo-terminals as glibc's openpty uses them: posix_openpt,
 * grantpt, unlockpt, ptsname, the slave's node, the line discipline
 * (ONLCR, ICRNL, echo, canonical editing, VEOF, raw mode, VMIN 0), window
 * size, job control (setsid, TIOCSCTTY, ^C and SIGWINCH to the foreground
 * group, /dev/tty), poll, and hangup (EIO on the master once the slave is
 * closed; EOF and EIO on the slave once the master is). Each line printed
 * is what Linux gives. */
#define _GNU_SOURCE
#include "guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Prints bytes with controls escaped: "hi\r\n". */
static void show(const char *label, const char *buf, long n)
{
    printf("%s: ", label);
    if (n < 0) {
        printf("%s\n", err_name(errno));
        return;
    }
    putchar('"');
    for (long i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\r')
            printf("\\r");
        else if (c == '\n')
            printf("\\n");
        else if (c == '\b')
            printf("\\b");
        else if (c < 0x20 || c >= 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    printf("\" (%ld)\n", n);
}

static void show_read(const char *label, int fd)
{
    char buf[256];
    show(label, buf, read(fd, buf, sizeof buf));
}

static const char *res(long r)
{
    static char s[32];
    if (r < 0)
        return err_name(errno);
    snprintf(s, sizeof s, "%ld", r);
    return s;
}

/* A new unlocked pair; *slave is opened with O_NOCTTY unless ctty. */
static int open_pair(int *slave, int ctty)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) {
        printf("openpt failed: %s\n", err_name(errno));
        exit(1);
    }
    *slave = open(ptsname(m), O_RDWR | (ctty ? 0 : O_NOCTTY));
    return m;
}

static void nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void test_open(void)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    printf("grantpt %d\n", grantpt(m));
    char *name = ptsname(m);
    printf("ptsname %s\n", name);
    unsigned n = 99;
    int r = ioctl(m, TIOCGPTN, &n);
    printf("TIOCGPTN %d %u\n", r, n);
    int lock = 0;
    r = ioctl(m, TIOCGPTLCK, &lock);
    printf("TIOCGPTLCK %d %d\n", r, lock);
    printf("open locked: %s\n", res(open(name, O_RDWR | O_NOCTTY)));
    printf("unlockpt %d\n", unlockpt(m));
    int s = open(name, O_RDWR | O_NOCTTY);
    printf("open slave: %s\n", s >= 0 ? "ok" : err_name(errno));
    struct stat st, fst;
    stat(name, &st);
    fstat(s, &fst);
    printf("slave mode %o gid %u rdev %u,%u same %d\n", st.st_mode, st.st_gid,
           major(st.st_rdev), minor(st.st_rdev),
           st.st_ino == fst.st_ino && st.st_dev == fst.st_dev && st.st_rdev == fst.st_rdev);
    fstat(m, &fst);
    printf("master mode %o rdev %u,%u\n", fst.st_mode, major(fst.st_rdev), minor(fst.st_rdev));
    printf("isatty %d %d\n", isatty(m), isatty(s));
    printf("ttyname %s\n", ttyname(s));
    printf("TIOCGPTN on slave: %s\n", res(ioctl(s, TIOCGPTN, &n)));
    DIR *d = opendir("/dev/pts");
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
            printf("/dev/pts/%s type %d\n", e->d_name, e->d_type);
    closedir(d);
    int peer = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY);
    printf("TIOCGPTPEER ttyname %s\n", ttyname(peer));
    int m2 = posix_openpt(O_RDWR);
    printf("second %s\n", ptsname(m2));
    close(m2);
    close(peer);
    close(s);
    close(m);
}

static void test_line(void)
{
    int s, m = open_pair(&s, 0);
    struct termios tio;
    tcgetattr(s, &tio);
    printf("iflag %o oflag %o lflag %o cflag %o VMIN %d VEOF %d VERASE %d\n", tio.c_iflag,
           tio.c_oflag, tio.c_lflag, tio.c_cflag, tio.c_cc[VMIN], tio.c_cc[VEOF], tio.c_cc[VERASE]);
    printf("write slave %zd\n", write(s, "hi\n", 3));
    show_read("master reads", m);
    /* canonical input: echo, ICRNL, ERASE */
    printf("write master %zd\n", write(m, "abc\177d\r", 6));
    show_read("slave reads", s);
    show_read("echo", m);
    write(m, "one\ntwo", 7);
    /* Linux hands the master's writes to the slave from a work queue;
     * poll waits for it. */
    poll(&(struct pollfd){.fd = s, .events = POLLIN}, 1, 0);
    int avail = -1;
    ioctl(s, FIONREAD, &avail);
    printf("FIONREAD %d\n", avail);
    show_read("first line", s);
    nonblock(s);
    show_read("partial line", s);
    write(m, "xx\025three\n", 9);
    show_read("after KILL", s);
    write(m, "end\004", 4);
    show_read("VEOF line", s);
    write(m, "\004", 1);
    show_read("VEOF alone", s);
    nonblock(m);
    show_read("echo", m);
    int q = -1;
    write(s, "zz", 2);
    ioctl(s, TIOCOUTQ, &q);
    printf("TIOCOUTQ %d\n", q);
    tcflush(m, TCIFLUSH);
    show_read("after TCIFLUSH", m);
    /* raw */
    cfmakeraw(&tio);
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = 0;
    printf("tcsetattr %d\n", tcsetattr(s, TCSANOW, &tio));
    tcgetattr(m, &tio);
    printf("master sees lflag %o VMIN %d\n", tio.c_lflag, tio.c_cc[VMIN]);
    write(m, "a\rb\n\003", 5);
    show_read("raw read", s);
    show_read("raw echo", m);
    write(s, "x\n", 2);
    show_read("raw output", m);
    fcntl(s, F_SETFL, O_RDWR);
    show_read("VMIN 0 read", s);
    struct winsize ws = {.ws_row = 24, .ws_col = 80, .ws_xpixel = 1, .ws_ypixel = 2}, got;
    printf("TIOCSWINSZ %d\n", ioctl(m, TIOCSWINSZ, &ws));
    ioctl(s, TIOCGWINSZ, &got);
    printf("TIOCGWINSZ %d %d %d %d\n", got.ws_row, got.ws_col, got.ws_xpixel, got.ws_ypixel);
    printf("TIOCGPGRP not ctty: %s\n", res(ioctl(s, TIOCGPGRP, &q)));
    printf("TIOCSCTTY not leader: %s\n", res(ioctl(s, TIOCSCTTY, 0)));
    close(s);
    close(m);
}

static void show_poll(struct pollfd *p, int n)
{
    int r = poll(p, (nfds_t)n, 0);
    printf("poll %d: master %x", r, p[0].revents);
    if (n > 1)
        printf(" slave %x", p[1].revents);
    printf("\n");
}

static void test_poll(void)
{
    int s, m = open_pair(&s, 0);
    struct pollfd p[2] = {{.fd = m, .events = POLLIN | POLLOUT}, {.fd = s, .events = POLLIN | POLLOUT}};
    show_poll(p, 2);
    write(s, "x", 1);
    write(m, "y", 1);
    show_poll(p, 2);
    write(m, "\n", 1);
    show_poll(p, 2);
    close(s);
    show_poll(p, 1);
    show_read("master after slave closed", m);
    show_read("master again", m);
    s = open(ptsname(m), O_RDWR | O_NOCTTY);
    write(s, "back", 4);
    show_read("reopened slave", m);
    char name[32];
    snprintf(name, sizeof name, "%s", ptsname(m));
    close(m);
    p[1].events = POLLIN | POLLOUT;
    int r = poll(&p[1], 1, 0);
    printf("hung-up poll %d: slave %x\n", r, p[1].revents);
    show_read("hung-up slave read", s);
    printf("hung-up slave write: %s\n", res(write(s, "x", 1)));
    printf("hung-up TCGETS: %s\n", res(ioctl(s, TCGETS, &(struct termios){0})));
    struct stat st;
    printf("node after master closed: %s\n", res(stat(name, &st)));
    close(s);
}

static volatile sig_atomic_t got_int, got_winch;

static void on_signal(int sig)
{
    if (sig == SIGINT)
        got_int++;
    else
        got_winch++;
}

/* A child in its own session takes the slave as its terminal; the parent
 * types ^C and resizes the window. */
static void test_job_control(void)
{
    int s, m = open_pair(&s, 0);
    close(s);
    int ready[2];
    pipe(ready);
    signal(SIGINT, on_signal);
    signal(SIGWINCH, on_signal);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGWINCH);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(ptsname(m), O_RDWR | O_NOCTTY);
        printf("child TIOCSCTTY before setsid: %s\n", res(ioctl(fd, TIOCSCTTY, 0)));
        printf("child setsid %s\n", setsid() == getpid() ? "ok" : err_name(errno));
        printf("child TIOCGSID without ctty: %s\n", res(ioctl(fd, TIOCGSID, &(int){0})));
        close(fd);
        fd = open(ptsname(m), O_RDWR); /* a session leader's first tty */
        int sid = 0, pgrp = 0;
        ioctl(fd, TIOCGSID, &sid);
        ioctl(fd, TIOCGPGRP, &pgrp);
        printf("child ctty by open: sid %s pgrp %s\n", sid == getpid() ? "self" : "other",
               pgrp == getpid() ? "self" : "other");
        printf("child tcgetsid %s\n", tcgetsid(fd) == getpid() ? "self" : "other");
        printf("child TIOCSCTTY again: %s\n", res(ioctl(fd, TIOCSCTTY, 0)));
        int tty = open("/dev/tty", O_RDWR);
        printf("child /dev/tty is %s\n", ttyname(tty));
        write(tty, "via tty\n", 8);
        fflush(stdout);
        write(ready[1], "r", 1);
        while (!got_int || !got_winch)
            sigsuspend(&old);
        _exit(10 * got_winch + got_int);
    }
    char c;
    read(ready[0], &c, 1);
    show_read("parent reads", m);
    int pgrp = 0;
    printf("master TIOCGPGRP %s\n", ioctl(m, TIOCGPGRP, &pgrp) == 0 && pgrp == pid ? "child" : "?");
    struct winsize ws = {.ws_row = 50, .ws_col = 132};
    ioctl(m, TIOCSWINSZ, &ws);
    write(m, "abc\003", 4);
    int st;
    waitpid(pid, &st, 0);
    printf("child exit %d\n", WEXITSTATUS(st));
    show_read("echo of ^C", m);
    printf("parent TIOCNOTTY: %s\n", res(ioctl(m, TIOCNOTTY)));
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(m);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* Run as a process that leads no session, as under a shell (asymu's
     * pid 1 leads one, and would take the first terminal it opens). */
    pid_t pid = fork();
    if (pid > 0) {
        int st;
        waitpid(pid, &st, 0);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
    printf("== open\n");
    test_open();
    printf("== line\n");
    test_line();
    printf("== poll\n");
    test_poll();
    printf("== job control\n");
    test_job_control();
    return 0;
}
