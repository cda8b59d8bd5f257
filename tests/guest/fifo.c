/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fifo.c - named pipes with Linux's open and blocking rules: an open for
 * writing waits for a reader (virtual time), O_NONBLOCK opens (ENXIO for a
 * writer without a reader), a read waits for data and ends at EOF, EPIPE
 * without a reader, poll's POLLHUP, and a waiting open interrupted by a
 * signal (EINTR without SA_RESTART). Also runs under qemu-user (only in
 * /tmp, which it creates and removes). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *fifo_path = "/tmp/asymu-fifo-test";

static const char *err_name(int e)
{
    switch (e) {
    case 0: return "0";
    case ENXIO: return "ENXIO";
    case EPIPE: return "EPIPE";
    case EINTR: return "EINTR";
    case EAGAIN: return "EAGAIN";
    default: return strerror(e);
    }
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void on_alarm(int sig)
{
    (void)sig;
}

/* The child: waits, opens for reading, reads what comes until EOF. */
static void reader_child(void)
{
    sleep_ms(100);
    int fd = open(fifo_path, O_RDONLY);
    char buf[64];
    ssize_t n, total = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        total += n;
    printf("child read %zd bytes, then %zd\n", total, n);
    fflush(stdout);
    _exit(0);
}

/* The child: opens for writing after a delay, writes after another one,
 * then closes. */
static void writer_child(void)
{
    int fd = open(fifo_path, O_WRONLY);
    sleep_ms(100);
    ssize_t n = write(fd, "hello", 5);
    sleep_ms(50);
    close(fd);
    _exit(n == 5 ? 0 : 1);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    unlink(fifo_path);
    if (mkfifo(fifo_path, 0600) < 0) {
        printf("mkfifo: %s\n", err_name(errno));
        return 1;
    }

    /* No reader: a non-blocking writer is refused, a non-blocking reader not. */
    int fd = open(fifo_path, O_WRONLY | O_NONBLOCK);
    printf("O_WRONLY|O_NONBLOCK, no reader: %s\n", fd < 0 ? err_name(errno) : "opened");
    int rd = open(fifo_path, O_RDONLY | O_NONBLOCK);
    printf("O_RDONLY|O_NONBLOCK: %s\n", rd < 0 ? err_name(errno) : "opened");
    char c;
    ssize_t n = read(rd, &c, 1);
    printf("read, never a writer: %zd\n", n);
    struct pollfd p = {.fd = rd, .events = POLLIN};
    printf("poll, never a writer: %d revents %#x\n", poll(&p, 1, 0), p.revents);
    fd = open(fifo_path, O_WRONLY | O_NONBLOCK);
    printf("O_WRONLY|O_NONBLOCK with a reader: %s\n", fd < 0 ? err_name(errno) : "opened");
    close(fd);
    p.revents = 0;
    printf("poll after the writer went: %d revents %#x\n", poll(&p, 1, 0), p.revents);
    close(rd);

    /* An open for writing waits for the reader the child opens 100 ms later. */
    pid_t pid = fork();
    if (pid == 0)
        reader_child();
    long long start = now_ms();
    fd = open(fifo_path, O_WRONLY);
    long long waited = now_ms() - start;
    printf("O_WRONLY waited for the reader: %s\n", waited >= 100 ? "yes" : "no");
    printf("write: %zd\n", write(fd, "0123456789", 10));
    close(fd);
    int status;
    waitpid(pid, &status, 0);
    printf("child status %d\n", WEXITSTATUS(status));

    /* A write without a reader: EPIPE (SIGPIPE ignored). */
    signal(SIGPIPE, SIG_IGN);
    int rw = open(fifo_path, O_RDWR);
    fd = open(fifo_path, O_WRONLY);
    close(rw);
    n = write(fd, "x", 1);
    printf("write without a reader: %zd %s\n", n, err_name(n < 0 ? errno : 0));
    close(fd);

    /* A read waits for data while there is a writer, then ends at EOF. */
    pid = fork();
    if (pid == 0)
        writer_child();
    start = now_ms();
    rd = open(fifo_path, O_RDONLY);
    char buf[16];
    n = read(rd, buf, sizeof buf);
    printf("read: %zd \"%.*s\" after data: %s\n", n, (int)(n > 0 ? n : 0), buf,
           now_ms() - start >= 100 ? "yes" : "no");
    n = read(rd, buf, sizeof buf);
    printf("read after the writer closed: %zd\n", n);
    p = (struct pollfd){.fd = rd, .events = POLLIN};
    printf("poll: %d revents %#x\n", poll(&p, 1, 0), p.revents);
    close(rd);
    waitpid(pid, &status, 0);
    printf("child status %d\n", WEXITSTATUS(status));

    /* An open waiting for a reader, interrupted by SIGALRM without SA_RESTART. */
    struct sigaction sa = {.sa_handler = on_alarm};
    sigaction(SIGALRM, &sa, NULL);
    alarm(1);
    start = now_ms();
    fd = open(fifo_path, O_WRONLY);
    printf("open interrupted: %d %s after %s\n", fd, err_name(fd < 0 ? errno : 0),
           now_ms() - start >= 1000 ? "1 s" : "less");
    unlink(fifo_path);
    return 0;
}
