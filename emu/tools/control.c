/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control.c - the control socket's server (control.h): the listening Unix
 * socket, its connections on the host event loop, and the machine loop's
 * hooks (pause, `step N`, held tasks). The requests themselves are in
 * control_requests.c. */
#include "control.h"
#include "control_requests.h"
#include "listen_pause.h"

#include "machine.h"
#include "outbuf.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <jansson.h>
#include <uv.h>

/* A request line longer than this gets an error and the connection ends. */
#define LINE_MAX_BYTES 4096
/* Once this much of a client's output waits unwritten, its next requests
 * wait too (neither read nor served) until it reads: a client that sends
 * and never reads costs a bounded amount of memory, and loses nothing. */
#define OUT_BACKLOG_BYTES (1 << 20)

struct control_client {
    struct control *ctl;
    int fd;
    uv_poll_t poll;
    char in[LINE_MAX_BYTES];
    size_t in_len;
    struct outbuf out; /* responses not written yet */
    bool closing;
    bool overlong; /* dropping the rest of a line too long, up to its newline */
    bool read_done; /* the client shut its side: answer what it sent, then close */
    struct control_client *next;
};

static void client_close(struct control_client *cl);

int control_listen_fd(const struct machine *m)
{
    return m->control ? m->control->listen_fd : -1;
}

bool control_paused(const struct machine *m)
{
    return m->control && m->control->paused;
}

bool control_task_held(const struct task *t)
{
    return t->control_held &&
           !((t->pending.set | t->proc->pending.set) & SIGBIT(SIGKILL));
}

bool control_wait(struct machine *m)
{
    if (!m->control || m->control->listen_fd < 0)
        return false;
    uv_run(m->control->loop, UV_RUN_ONCE);
    return true;
}

bool control_wait_held(struct machine *m)
{
    if (!m->control)
        return false;
    for (struct task *t = m->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && control_task_held(t))
            return control_wait(m);
    return false;
}

void control_slice_done(struct machine *m)
{
    struct control *ctl = m->control;
    if (!ctl || !ctl->steps_left || --ctl->steps_left)
        return;
    ctl->paused = true;
    control_steps_done(ctl);
}

/* ---- connections ---- */

static void on_client(uv_poll_t *h, int status, int events);

static bool backlogged(const struct control_client *cl)
{
    return cl->out.len >= OUT_BACKLOG_BYTES;
}

static void watch(struct control_client *cl)
{
    bool readable = !backlogged(cl) && !cl->read_done;
    int events = (readable ? UV_READABLE : 0) | (cl->out.len ? UV_WRITABLE : 0);
    uv_poll_start(&cl->poll, events, on_client);
}

/* A client that has shut its side and has every answer (a request still
 * running, such as `step`, answers on a connection that stays open). */
static bool answered(const struct control_client *cl)
{
    return cl->read_done && !cl->out.len && !memchr(cl->in, '\n', cl->in_len);
}

/* Writes what the socket takes now; the rest when it is writable. */
static void flush(struct control_client *cl)
{
    if (outbuf_flush(&cl->out, cl->fd) < 0) {
        client_close(cl);
        return;
    }
    if (cl->closing)
        return;
    if (answered(cl))
        client_close(cl);
    else
        watch(cl);
}

void control_reply(struct control_client *cl, const char *line)
{
    if (!cl || cl->closing) /* a replayed request has no client */
        return;
    if (outbuf_add(&cl->out, line, strlen(line)) < 0 || outbuf_add(&cl->out, "\n", 1) < 0) {
        client_close(cl);
        return;
    }
    flush(cl);
}

static void serve_lines(struct control_client *cl)
{
    char *nl;
    while (!cl->closing && !backlogged(cl) && (nl = memchr(cl->in, '\n', cl->in_len))) {
        *nl = '\0';
        size_t used = (size_t)(nl - cl->in) + 1;
        if (!cl->overlong)
            control_request(cl->ctl, cl, cl->in, used - 1);
        cl->overlong = false;
        memmove(cl->in, cl->in + used, cl->in_len - used);
        cl->in_len -= used;
    }
    if (!cl->closing && cl->in_len == sizeof cl->in && !memchr(cl->in, '\n', cl->in_len)) {
        if (!cl->overlong)
            control_request_too_long(cl->ctl, cl);
        cl->overlong = true;
        cl->in_len = 0;
    }
}

static void on_client(uv_poll_t *h, int status, int events)
{
    struct control_client *cl = h->data;
    if (status < 0) {
        client_close(cl);
        return;
    }
    if (events & UV_WRITABLE) {
        flush(cl);
        serve_lines(cl); /* the requests a backlog held back */
    }
    if (cl->closing || backlogged(cl) || cl->read_done || !(events & UV_READABLE))
        return;
    ssize_t n = read(cl->fd, cl->in + cl->in_len, sizeof cl->in - cl->in_len);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n < 0) {
        client_close(cl);
        return;
    }
    if (n == 0) { /* a line cut short by the end is forgotten */
        cl->read_done = true;
        flush(cl);
        return;
    }
    cl->in_len += (size_t)n;
    serve_lines(cl);
}

static void free_client(uv_handle_t *h)
{
    struct control_client *cl = h->data;
    close(cl->fd);
    outbuf_free(&cl->out);
    free(cl);
}

static void client_close(struct control_client *cl)
{
    if (cl->closing)
        return;
    cl->closing = true;
    control_forget_client(cl->ctl, cl);
    for (struct control_client **pp = &cl->ctl->clients; *pp; pp = &(*pp)->next)
        if (*pp == cl) {
            *pp = cl->next;
            break;
        }
    uv_close((uv_handle_t *)&cl->poll, free_client);
}

static void on_listen(uv_poll_t *h, int status, int events)
{
    (void)events;
    struct control *ctl = h->data;
    if (status < 0)
        return;
    int fd = accept4(ctl->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
        listen_pause_after(ctl->listen_pause, errno);
        return;
    }
    struct control_client *cl = calloc(1, sizeof *cl);
    if (!cl || uv_poll_init(ctl->loop, &cl->poll, fd) < 0) {
        free(cl);
        close(fd);
        return;
    }
    cl->ctl = ctl;
    cl->fd = fd;
    cl->poll.data = cl;
    cl->next = ctl->clients;
    ctl->clients = cl;
    watch(cl);
}

/* Binds path with mode 0600 from the start: no moment where another user
 * could connect. A socket left by an earlier run is replaced; anything else
 * at path is an error. */
static int bind_socket(const char *path, char *why, size_t whylen)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        snprintf(why, whylen, "--control %s: path longer than %zu bytes", path,
                 sizeof sa.sun_path - 1);
        return -ENAMETOOLONG;
    }
    strcpy(sa.sun_path, path);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
        unlink(path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        goto fail;
    mode_t old = umask(0177);
    int r = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    umask(old);
    if (r < 0 || listen(fd, 16) < 0) {
        int err = errno;
        close(fd);
        errno = err;
        goto fail;
    }
    return fd;

fail:
    snprintf(why, whylen, "--control %s: %s", path, strerror(errno));
    return -errno;
}

int control_start(struct machine *m, void *loop, const char *path, char *why, size_t whylen)
{
    int fd = bind_socket(path, why, whylen);
    if (fd < 0)
        return fd;
    /* jansson seeds its hash tables from /dev/urandom on first use: now,
     * while the sandbox still lets it open the file. */
    json_object_seed(0);
    struct control *ctl = calloc(1, sizeof *ctl);
    if (!ctl) {
        close(fd);
        snprintf(why, whylen, "--control: out of memory");
        return -ENOMEM;
    }
    ctl->m = m;
    ctl->loop = loop;
    ctl->listen_fd = fd;
    uv_poll_init(ctl->loop, &ctl->listen_poll, fd);
    ctl->listen_poll.data = ctl;
    uv_poll_start(&ctl->listen_poll, UV_READABLE, on_listen);
    ctl->listen_pause = listen_pause_new(ctl->loop, &ctl->listen_poll, on_listen);
    m->control = ctl;
    return 0;
}

static void free_control(uv_handle_t *h)
{
    struct control *ctl = h->data;
    close(ctl->listen_fd);
    free(ctl);
}

void control_replay_request(struct machine *m, const char *request)
{
    if (!m->control) {
        /* No socket: the state a replay's requests stop and step. */
        m->control = calloc(1, sizeof *m->control);
        if (!m->control)
            return;
        m->control->m = m;
        m->control->listen_fd = -1;
    }
    char line[LINE_MAX_BYTES];
    snprintf(line, sizeof line, "%s", request);
    control_request(m->control, NULL, line, strlen(line));
}

void control_stop(struct machine *m)
{
    struct control *ctl = m->control;
    if (!ctl)
        return;
    if (ctl->listen_fd < 0) { /* a replay's, without a socket */
        free(ctl);
        m->control = NULL;
        return;
    }
    control_machine_ended(ctl);
    for (struct control_client *cl = ctl->clients; cl; cl = ctl->clients) {
        flush(cl); /* a last response, as far as the socket takes it now */
        client_close(cl);
    }
    m->control = NULL;
    listen_pause_free(ctl->listen_pause);
    uv_close((uv_handle_t *)&ctl->listen_poll, free_control); /* hostio_stop runs it */
}
