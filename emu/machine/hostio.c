/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostio.c - what reaches the machine from the host, through libuv: SIGINT,
 * SIGTERM and SIGHUP (an orderly stop at the next slice boundary) and the FUSE
 * export's requests (--sysfs-mount), served between slices so a host write
 * to cpuN/online takes effect at a slice boundary, and the control socket's
 * requests (--control, control.c), likewise. */
#include "control.h"
#include "gdbstub.h"
#include "crash.h"
#include "emu.h"
#include "file.h"
#include "machine.h"
#include "recording.h"
#include "task.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#include "fuse_export.h"

struct hostio {
    uv_loop_t loop;
    uv_signal_t sigint, sigterm, sighup;
    uv_poll_t fuse_poll, stdin_poll;
    bool stdin_init, stdin_watched;
    struct fuse_export *fuse;
    struct machine *machine;
};

static void on_signal(uv_signal_t *h, int signum)
{
    struct hostio *io = h->data;
    io->machine->host_signal = signum;
}

static void on_fuse(uv_poll_t *h, int status, int events)
{
    (void)events;
    struct hostio *io = h->data;
    if (status == 0)
        fuse_export_process(io->fuse);
}

const int console_waitq;

static void on_stdin(uv_poll_t *h, int status, int events)
{
    (void)status, (void)events;
    struct hostio *io = h->data;
    uv_poll_stop(h);
    io->stdin_watched = false;
    if (recording_owns_console(io->machine)) {
        recording_console_take(io->machine); /* notifies what it took */
        return;
    }
    file_notify_events(io->machine, &console_waitq, POLLIN);
}

bool console_ready(struct machine *m)
{
    if (recording_owns_console(m)) {
        if (recording_console_ready(m))
            return true;
        if (recording_replaying(m))
            return false; /* a replay's console hears only the recording */
    } else {
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&p, 1, 0) != 0)
            return true; /* data, its end, or an error the read will report */
    }
    struct hostio *io = m->hostio;
    if (io && !io->stdin_watched) {
        /* A file or a device uv_poll cannot watch reads as ready above. */
        if (!io->stdin_init && uv_poll_init(&io->loop, &io->stdin_poll, STDIN_FILENO) == 0) {
            io->stdin_poll.data = io;
            io->stdin_init = true;
        }
        if (io->stdin_init && uv_poll_start(&io->stdin_poll, UV_READABLE, on_stdin) == 0)
            io->stdin_watched = true;
    }
    return false;
}

bool hostio_wait(struct machine *m)
{
    struct hostio *io = m->hostio;
    if (!io || !io->stdin_watched)
        return false;
    uv_run(&io->loop, UV_RUN_ONCE);
    return true;
}

/* A host write through the FUSE export: recorded, since it may change the
 * machine (a vCPU's online file). */
static void on_fuse_write(void *arg, const char *path, const char *buf, size_t len)
{
    recording_fuse_write(arg, path, buf, len);
}

/* The FUSE export serves pid 1's view. */
static void *init_task(void *arg)
{
    struct machine *m = arg;
    return m->init->threads;
}

int hostio_start(struct machine *m, char *why, size_t whylen)
{
    struct hostio *io = calloc(1, sizeof *io);
    if (!io)
        goto fail_alloc;
    if (uv_loop_init(&io->loop) < 0)
        goto fail_loop_init;
    io->machine = m;
    m->hostio = io;
    uv_signal_t *stops[] = {&io->sigint, &io->sigterm, &io->sighup};
    const int signums[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        uv_signal_init(&io->loop, stops[i]);
        stops[i]->data = io;
        uv_signal_start(stops[i], on_signal, signums[i]);
    }
    if (m->cfg->sysfs_mount) {
        int err = fuse_export_start(&io->fuse, &m->vfs, init_task, m, m->cfg->sysfs_mount, why,
                                    whylen);
        if (err < 0)
            return err;
        fuse_export_on_write(io->fuse, on_fuse_write);
        uv_poll_init(&io->loop, &io->fuse_poll, fuse_export_fd(io->fuse));
        io->fuse_poll.data = io;
        uv_poll_start(&io->fuse_poll, UV_READABLE, on_fuse);
        crash_janitor_mounted();
    }
    if (m->cfg->gdb) {
        int err = gdbstub_start(m, &io->loop, why, whylen);
        if (err < 0)
            return err;
    }
    if (m->cfg->control_path)
        return control_start(m, &io->loop, m->cfg->control_path, why, whylen);
    return 0;

fail_loop_init:
    free(io);
fail_alloc:
    snprintf(why, whylen, "cannot start the host event loop");
    return -ENOMEM;
}

void hostio_poll(struct machine *m)
{
    if (m->hostio)
        uv_run(&m->hostio->loop, UV_RUN_NOWAIT);
}

static void close_handle(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

void hostio_stop(struct machine *m)
{
    struct hostio *io = m->hostio;
    if (!io)
        return;
    control_stop(m);
    gdbstub_stop(m);
    uv_walk(&io->loop, close_handle, NULL);
    uv_run(&io->loop, UV_RUN_DEFAULT);
    uv_loop_close(&io->loop);
    fuse_export_stop(io->fuse);
    free(io);
    m->hostio = NULL;
}
