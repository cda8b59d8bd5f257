/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdbstub.c - the gdb stub's server (gdbstub.h): the listening TCP socket on
 * 127.0.0.1, its one connection on the host event loop, and the machine's
 * hooks: breakpoints and single-step as Unicorn code hooks put into an
 * engine for one slice, signal, fork, exec and exit stops. A stop found in
 * a slice ends the slice; the machine loop (run.c) then holds the machine
 * until gdb continues. The packets themselves are in gdbstub_cmds.c. */
#include "gdbstub.h"
#include "gdbstub_int.h"
#include "listen_pause.h"

#include "abi.h"
#include "emu.h"
#include "machine.h"
#include "mm.h"
#include "stop_hooks.h"
#include "task.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

/* The stub's stops and events, the kernel layer's calls (stop_hooks.h):
 * in the machine's STOP_HOOKS_HOST slot while m->gdb is set, after the
 * guest's own tracer's. Defined at the end of the file. */
static const struct stop_hooks gdb_stop_hooks;

int gdbstub_listen_fd(const struct machine *m)
{
    return m->gdb ? m->gdb->listen_fd : -1;
}

bool gdb_attached(const struct gdbstub *gs, int pid)
{
    for (size_t i = 0; i < gs->nattached; i++)
        if (gs->attached[i] == pid)
            return true;
    return false;
}

void gdb_attach(struct gdbstub *gs, int pid)
{
    if (gdb_attached(gs, pid))
        return;
    if (gs->nattached == gs->attached_cap) {
        size_t cap = gs->attached_cap ? 2 * gs->attached_cap : 8;
        int *a = realloc(gs->attached, cap * sizeof *a);
        if (!a)
            return; /* not debugged: it runs as if gdb were not there */
        gs->attached = a;
        gs->attached_cap = cap;
    }
    gs->attached[gs->nattached++] = pid;
}

void gdb_detach(struct gdbstub *gs, int pid)
{
    for (size_t i = 0; i < gs->nattached; i++)
        if (gs->attached[i] == pid) {
            gs->attached[i] = gs->attached[--gs->nattached];
            break;
        }
    for (struct gdb_breakpoint **pp = &gs->breakpoints; *pp;) {
        struct gdb_breakpoint *b = *pp;
        if (b->pid == pid) {
            *pp = b->next;
            free(b);
        } else {
            pp = &b->next;
        }
    }
    if (!gs->nattached)
        gs->paused = false; /* nothing left to hold the machine for */
}

/* gdb is attached to t's process: it sees t's signals first. */
static bool gdbstub_traces(const struct task *t)
{
    struct gdbstub *gs = t->machine->gdb;
    return gs && gs->fd >= 0 && gdb_attached(gs, t->proc->pid);
}

void gdb_format_tid(const struct gdbstub *gs, const struct task *t, char *buf, size_t len)
{
    if (gs->multiprocess)
        snprintf(buf, len, "p%x.%x", (unsigned)t->proc->pid, (unsigned)t->tid);
    else
        snprintf(buf, len, "%x", (unsigned)t->tid);
}

/* ---- the connection ---- */

static void on_client(uv_poll_t *h, int status, int events);

static void watch(struct gdbstub *gs)
{
    uv_poll_start(gs->poll, UV_READABLE | (gs->out.len ? UV_WRITABLE : 0), on_client);
}

static void flush(struct gdbstub *gs)
{
    if (outbuf_flush(&gs->out, gs->fd) < 0) {
        gdb_forget_client(gs);
        return;
    }
    watch(gs);
}

static void queue_bytes(struct gdbstub *gs, const char *bytes, size_t len)
{
    if (gs->fd < 0)
        return;
    if (outbuf_add(&gs->out, bytes, len) < 0) {
        gdb_forget_client(gs);
        return;
    }
    flush(gs);
}

void gdb_send(struct gdbstub *gs, const char *payload, size_t len)
{
    char *framed = malloc(2 * len + 4);
    if (!framed)
        return;
    size_t n = gdb_frame(payload, len, framed);
    free(gs->last);
    gs->last = framed;
    gs->last_len = n;
    queue_bytes(gs, framed, n);
}

void gdb_send_str(struct gdbstub *gs, const char *payload)
{
    gdb_send(gs, payload, strlen(payload));
}

void gdb_stop_now(struct gdbstub *gs, struct task *t, int gdb_sig)
{
    char id[48];
    gdb_format_tid(gs, t, id, sizeof id);
    snprintf(gs->stop_reply, sizeof gs->stop_reply, "T%02xthread:%s;", gdb_sig, id);
    gs->cur_tid = t->tid;
    gs->paused = true;
    gdb_send_str(gs, gs->stop_reply);
}

/* The first live thread of the first process gdb debugs. */
static struct task *first_attached_task(struct gdbstub *gs)
{
    for (struct task *t = gs->m->tasks; t; t = t->next_all)
        if (t->state != TASK_DEAD && gdb_attached(gs, t->proc->pid))
            return t;
    return NULL;
}

static void serve(struct gdbstub *gs, const uint8_t *bytes, size_t n)
{
    for (size_t i = 0; i < n && gs->fd >= 0; i++) {
        switch (gdb_rx_byte(&gs->rx, bytes[i])) {
        case GDB_RX_PACKET:
            if (!gs->no_ack)
                queue_bytes(gs, "+", 1);
            gdb_handle_packet(gs, gs->rx.buf, gs->rx.len);
            break;
        case GDB_RX_BAD_CHECKSUM:
            if (!gs->no_ack)
                queue_bytes(gs, "-", 1); /* gdb sends it again */
            break;
        case GDB_RX_TOO_LONG:
            if (!gs->no_ack)
                queue_bytes(gs, "+", 1);
            gdb_send_str(gs, "E01");
            break;
        case GDB_RX_INTERRUPT:
            if (!gs->paused && !gs->stopping) {
                struct task *t = first_attached_task(gs);
                if (t)
                    gdb_stop_now(gs, t, 2 /* GDB_SIGNAL_INT */);
            }
            break;
        case GDB_RX_NACK:
            if (gs->last)
                queue_bytes(gs, gs->last, gs->last_len);
            break;
        default:
            break;
        }
    }
}

static void on_client(uv_poll_t *h, int status, int events)
{
    struct gdbstub *gs = h->data;
    if (status < 0) {
        gdb_forget_client(gs);
        return;
    }
    if (events & UV_WRITABLE)
        flush(gs);
    if (gs->fd < 0 || !(events & UV_READABLE))
        return;
    uint8_t buf[4096];
    ssize_t n = read(gs->fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        gdb_forget_client(gs);
        return;
    }
    serve(gs, buf, (size_t)n);
}

static void free_handle(uv_handle_t *h)
{
    free(h);
}

void gdb_forget_client(struct gdbstub *gs)
{
    if (gs->fd < 0)
        return;
    /* The handle is freed by the loop later; the fd, no longer polled, now. */
    uv_poll_stop(gs->poll);
    close(gs->fd);
    uv_close((uv_handle_t *)gs->poll, free_handle);
    gs->poll = NULL;
    gs->fd = -1;
    gs->out.len = 0;
    gs->nattached = 0;
    while (gs->breakpoints) {
        struct gdb_breakpoint *b = gs->breakpoints;
        gs->breakpoints = b->next;
        free(b);
    }
    gs->paused = gs->stopping = false;
    gs->step_tid = gs->sig_tid = gs->pass_tid = 0;
}

static void on_listen(uv_poll_t *h, int status, int events)
{
    (void)events;
    struct gdbstub *gs = h->data;
    if (status < 0)
        return;
    struct sockaddr_in peer;
    socklen_t peerlen = sizeof peer;
    int fd = accept4(gs->listen_fd, (struct sockaddr *)&peer, &peerlen,
                     SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
        listen_pause_after(gs->listen_pause, errno);
        return;
    }
    /* Only asymu's own user debugs it (gdbstub_peer.c): before a byte of
     * the connection is read. */
    char why[128];
    if (peerlen != sizeof peer || peer.sin_family != AF_INET ||
        !gdb_peer_allowed(gs, &peer, why, sizeof why)) {
        if (peerlen != sizeof peer || peer.sin_family != AF_INET)
            snprintf(why, sizeof why, "not an IPv4 client");
        fprintf(stderr, "asymu: gdb stub: refused a connection from 127.0.0.1:%u: %s\n",
                (unsigned)ntohs(peer.sin_port), why);
        close(fd);
        return;
    }
    uv_poll_t *poll = gs->fd < 0 ? malloc(sizeof *poll) : NULL;
    if (!poll || uv_poll_init(gs->loop, poll, fd) < 0) {
        free(poll);
        close(fd); /* one debugger at a time */
        return;
    }
    gs->fd = fd;
    gs->poll = poll;
    poll->data = gs;
    memset(&gs->rx, 0, sizeof gs->rx);
    gs->no_ack = gs->multiprocess = gs->fork_events = gs->exec_events = false;
    gs->g_tid = gs->c_tid = 0;
    /* gdb debugs the first process; the machine stops where it is. */
    gdb_attach(gs, gs->m->init->pid);
    struct task *t = first_attached_task(gs);
    if (t) {
        gs->cur_tid = t->tid;
        gs->paused = true;
        gs->stop_reply[0] = '\0'; /* '?' makes it, in the ids gdb asks for */
    }
    watch(gs);
}

int gdbstub_start(struct machine *m, void *loop, char *why, size_t whylen)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)m->cfg->gdb_port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t salen = sizeof sa;
    int one = 1;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        goto fail;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    /* Packets are small and answered one by one: no Nagle delay. Accepted
     * connections inherit it (the sandbox allows no setsockopt later). */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 1) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &salen) < 0)
        goto fail_fd;
    struct gdbstub *gs = calloc(1, sizeof *gs);
    if (!gs) {
        errno = ENOMEM;
        goto fail_fd;
    }
    int err = gdb_peer_open(gs);
    if (err < 0) {
        free(gs);
        snprintf(why, whylen, "--gdb: /proc/net/tcp, which tells who connects: %s",
                 strerror(-err));
        close(fd);
        return err;
    }
    gs->addr = sa;
    gs->m = m;
    gs->loop = loop;
    gs->listen_fd = fd;
    gs->fd = -1;
    gs->paused = m->cfg->gdb_wait;
    gs->stop_reply[0] = '\0';
    uv_poll_init(gs->loop, &gs->listen_poll, fd);
    gs->listen_poll.data = gs;
    uv_poll_start(&gs->listen_poll, UV_READABLE, on_listen);
    gs->listen_pause = listen_pause_new(gs->loop, &gs->listen_poll, on_listen);
    m->gdb = gs;
    stop_hooks_set(m, STOP_HOOKS_HOST, &gdb_stop_hooks);
    fprintf(stderr, "asymu: gdb stub listening on 127.0.0.1:%u\n", (unsigned)ntohs(sa.sin_port));
    return 0;

fail_fd:;
    int saved = errno;
    close(fd);
    errno = saved;
fail:
    snprintf(why, whylen, "--gdb %d: %s", m->cfg->gdb_port, strerror(errno));
    return -errno;
}

static void free_stub(uv_handle_t *h)
{
    struct gdbstub *gs = h->data;
    close(gs->listen_fd);
    gdb_peer_close(gs);
    free(gs->attached);
    outbuf_free(&gs->out);
    free(gs->last);
    free(gs);
}

void gdbstub_stop(struct machine *m)
{
    struct gdbstub *gs = m->gdb;
    if (!gs)
        return;
    if (gs->fd >= 0 && gs->stopping) {
        /* pid 1's exit: gdb hears it before the connection closes */
        gs->stopping = false;
        gdb_send_str(gs, gs->stop_reply);
    }
    gdb_forget_client(gs);
    m->gdb = NULL;
    stop_hooks_set(m, STOP_HOOKS_HOST, NULL);
    listen_pause_free(gs->listen_pause);
    uv_close((uv_handle_t *)&gs->listen_poll, free_stub); /* hostio_stop runs it */
}

/* ---- the machine loop's hooks (stop_hooks.h, around a slice) ---- */

/* gdb holds the machine (a stop it has not continued from); a stop
 * recorded in the last slice goes to gdb now, at the slice boundary. */
static bool gdbstub_paused(struct machine *m)
{
    struct gdbstub *gs = m->gdb;
    if (!gs)
        return false;
    if (gs->stopping && gs->fd >= 0) {
        gs->stopping = false;
        gs->paused = true;
        gdb_send_str(gs, gs->stop_reply);
    }
    return gs->paused;
}

/* Waits for the next host event (gdb's packets among them). */
static bool gdbstub_wait(struct machine *m)
{
    if (!m->gdb)
        return false;
    uv_run(m->gdb->loop, UV_RUN_ONCE);
    return true;
}

/* machine_run, between slices: while gdb holds the machine only its
 * packets happen. */
static bool gdbstub_hold_machine(struct machine *m)
{
    return gdbstub_paused(m) && gdbstub_wait(m);
}

/* Records the stop reply of t's event; it goes out at the slice boundary. */
static bool stop_event(struct gdbstub *gs, struct task *t, const char *fmt_head)
{
    if (gs->stopping)
        return false; /* one stop reply at a time: the first event wins */
    char id[48];
    gdb_format_tid(gs, t, id, sizeof id);
    snprintf(gs->stop_reply, sizeof gs->stop_reply, "%sthread:%s;", fmt_head, id);
    gs->cur_tid = t->tid;
    gs->stopping = true;
    return true;
}

static struct gdbstub *stub_of(const struct task *t)
{
    return gdbstub_traces(t) ? t->machine->gdb : NULL;
}

static void on_breakpoint(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    struct machine *m = user;
    struct task *t = m->current;
    struct gdbstub *gs = t ? stub_of(t) : NULL;
    if (!gs || gs->stopping)
        return;
    for (struct gdb_breakpoint *b = gs->breakpoints; b; b = b->next)
        if (b->pid == t->proc->pid && b->addr == addr) {
            stop_event(gs, t, "T05swbreak:;");
            uc_emu_stop(uc);
            return;
        }
}

/* The stepping task has executed its instruction: it stops before the
 * next one (the caller stops the run). */
static bool step_done(struct gdbstub *gs, struct task *t)
{
    if (!gs->step_moved)
        return false;
    gs->step_tid = 0;
    stop_event(gs, t, "T05");
    return true;
}

static struct gdbstub *stepping(struct machine *m, struct task **t)
{
    *t = m->current;
    struct gdbstub *gs = *t ? stub_of(*t) : NULL;
    return gs && !gs->stopping && (*t)->tid == gs->step_tid ? gs : NULL;
}

/* Each instruction of a block translated while the task steps. */
static void on_step(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr, (void)size;
    struct task *t;
    struct gdbstub *gs = stepping(user, &t);
    if (!gs)
        return;
    if (step_done(gs, t))
        uc_emu_stop(uc); /* a code hook's stop: the pc is this instruction's */
    else
        gs->step_moved = true; /* the instruction it steps over runs now */
}

/* The engine's block hook, at every block: true when a single-step ends
 * there (the run stops before the block; the hook stops it). */
static bool gdbstub_block(struct machine *m)
{
    struct task *t;
    struct gdbstub *gs = stepping(m, &t);
    return gs && step_done(gs, t);
}

/* While gdb listens, every block is looked at: its steps end at one. */
static bool gdbstub_watch_blocks(const struct machine *m)
{
    return m->gdb != NULL;
}

/* A stop is on its way to gdb: the task loaded must not run on. */
static bool gdbstub_stopping(const struct machine *m)
{
    return m->gdb && m->gdb->stopping;
}

/* run_slice, registers loaded: puts gdb's breakpoints and single-step into
 * the engine t runs on. */
static void gdbstub_before_slice(struct task *t)
{
    struct gdbstub *gs = stub_of(t);
    if (!gs)
        return;
    uc_engine *uc = task_mm(t)->uc;
    gs->hooked_uc = uc;
    gs->nhooks = 0;
    /* A hook takes effect in code translated after it: the blocks at its
     * address are translated again. */
    for (struct gdb_breakpoint *b = gs->breakpoints; b && gs->nhooks < GDB_SLICE_HOOKS; b = b->next)
        if (b->pid == t->proc->pid &&
            uc_hook_add(uc, &gs->hooks[gs->nhooks], UC_HOOK_CODE, (void *)on_breakpoint, t->machine,
                        b->addr, b->addr) == UC_ERR_OK) {
            gs->nhooks++;
            uc_ctl_remove_cache(uc, b->addr, b->addr + 4);
        }
    /* A step: every instruction of the block it starts in calls on_step
     * (that block is translated again; flushing every block would cost
     * seconds with a 1 GiB translation buffer); any other block it reaches
     * is seen by the engine's block hook (gdbstub_block). */
    if (gs->step_tid == t->tid &&
        uc_hook_add(uc, &gs->hooks[gs->nhooks], UC_HOOK_CODE, (void *)on_step, t->machine, 1, 0) ==
            UC_ERR_OK) {
        gs->nhooks++;
        gs->step_pc = task_abi(t)->get_pc(uc);
        uc_ctl_remove_cache(uc, gs->step_pc, gs->step_pc + 1);
        gs->step_hooked = true;
    }
}

/* After t's slice: the hooks leave the engine again. */
static void gdbstub_after_slice(struct task *t)
{
    struct gdbstub *gs = t->machine->gdb;
    if (!gs || !gs->hooked_uc)
        return;
    /* The engine may be parked and another opened at the same address: no
     * hook stays in an engine between slices. */
    for (unsigned i = 0; i < gs->nhooks; i++)
        uc_hook_del(gs->hooked_uc, gs->hooks[i]);
    /* Blocks translated during the step keep their calls of on_step, which
     * return at once; the one it started in is translated again. */
    if (gs->step_hooked)
        uc_ctl_remove_cache(gs->hooked_uc, gs->step_pc, gs->step_pc + 1);
    for (struct gdb_breakpoint *b = gs->breakpoints; b; b = b->next)
        if (b->pid == t->proc->pid)
            uc_ctl_remove_cache(gs->hooked_uc, b->addr, b->addr + 4);
    gs->hooked_uc = NULL;
    gs->nhooks = 0;
    gs->step_hooked = false;
}

/* signal_deliver took sig (info in t->delivering): true when it stops for
 * gdb instead, which decides what is delivered when it continues. */
static bool gdbstub_signal_stop(struct task *t, int sig)
{
    struct gdbstub *gs = stub_of(t);
    if (!gs || sig == SIGKILL)
        return false;
    if (gs->pass_tid == t->tid && gs->pass_sig == sig) {
        gs->pass_tid = gs->pass_sig = 0; /* gdb let it through */
        return false;
    }
    char head[8];
    snprintf(head, sizeof head, "T%02x", gdb_signal_from_linux(sig));
    if (!stop_event(gs, t, head))
        return false;
    gs->sig_tid = t->tid;
    gs->sig = sig;
    gs->sig_info = t->delivering;
    return true;
}

/* do_clone made child from parent: a fork event (not for threads). */
static void gdbstub_clone(struct task *parent, struct task *child, uint64_t flags)
{
    struct gdbstub *gs = stub_of(parent);
    if (!gs || (flags & CLONE_THREAD) || !gs->fork_events)
        return;
    gdb_attach(gs, child->proc->pid);
    char head[64];
    snprintf(head, sizeof head, "T05%s:p%x.%x;", (flags & CLONE_VFORK) ? "vfork" : "fork",
             (unsigned)child->proc->pid, (unsigned)child->tid);
    if (stop_event(gs, parent, head))
        parent->stop = true;
}

/* t's process has executed a new program: an exec event. */
static void gdbstub_exec(struct task *t)
{
    struct gdbstub *gs = stub_of(t);
    if (!gs)
        return;
    /* The old program's breakpoints went with it; gdb inserts its new ones. */
    for (struct gdb_breakpoint **pp = &gs->breakpoints; *pp;) {
        struct gdb_breakpoint *b = *pp;
        if (b->pid == t->proc->pid) {
            *pp = b->next;
            free(b);
        } else {
            pp = &b->next;
        }
    }
    char head[2 * sizeof t->proc->exe + 16];
    if (gs->exec_events) {
        size_t n = strlen(t->proc->exe);
        strcpy(head, "T05exec:");
        gdb_hex_encode((const uint8_t *)t->proc->exe, n, head + 8);
        strcat(head, ";");
    } else {
        strcpy(head, "T05"); /* the SIGTRAP after exec of a traced program */
    }
    if (stop_event(gs, t, head))
        t->stop = true;
}

/* p ended (a zombie now): gdb hears its exit. */
static void gdbstub_process_exit(struct process *p)
{
    struct gdbstub *gs = p->machine->gdb;
    if (!gs || gs->fd < 0 || !gdb_attached(gs, p->pid))
        return;
    int st = p->wait_status;
    char reply[64];
    if ((st & 0x7f) == 0)
        snprintf(reply, sizeof reply, "W%02x", (st >> 8) & 0xff);
    else
        snprintf(reply, sizeof reply, "X%02x", gdb_signal_from_linux(st & 0x7f));
    if (gs->multiprocess)
        snprintf(reply + 3, sizeof reply - 3, ";process:%x", (unsigned)p->pid);
    gdb_detach(gs, p->pid);
    if (gs->stopping)
        return;
    snprintf(gs->stop_reply, sizeof gs->stop_reply, "%s", reply);
    if (gs->nattached || p == p->machine->init)
        gs->stopping = true; /* held at the boundary (pid 1's: sent at the end) */
    else
        gdb_send_str(gs, reply); /* gdb has nothing left: the machine runs on */
}

static const struct stop_hooks gdb_stop_hooks = {
    .traces = gdbstub_traces,
    .signal_stop = gdbstub_signal_stop,
    .exec = gdbstub_exec,
    .clone = gdbstub_clone,
    .process_exit = gdbstub_process_exit,
    .block = gdbstub_block,
    .hold_machine = gdbstub_hold_machine,
    .machine_stopping = gdbstub_stopping,
    .watch_blocks = gdbstub_watch_blocks,
    .before_slice = gdbstub_before_slice,
    .after_slice = gdbstub_after_slice,
};
