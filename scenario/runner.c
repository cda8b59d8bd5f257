/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runner.c - scenario runs in child processes managed from a libuv loop:
 * each is `asymu scenario-exec FILE POLICY` (its own machine, its own
 * sandbox), its stdout (the outcome JSON) collected through a pipe, at most
 * N at once. Results are kept per job, so what is printed afterwards does
 * not depend on which child finished first. */
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

enum { JOB_WAITING, JOB_RUNNING, JOB_DONE };

struct child {
    uv_process_t proc;
    uv_pipe_t out;
    struct scenario_job *job;
    struct runner *runner;
    bool exited, eof;
    int open_handles;
};

struct runner {
    uv_loop_t loop;
    struct scenario_job *jobs;
    size_t n, next, done;
    unsigned running, parallel;
    bool progress;
    char exe[PATH_MAX];
};

static void start_next(struct runner *r);

static void show_progress(struct runner *r)
{
    if (!r->progress)
        return;
    if (r->done == r->n)
        printf("\r\033[K"); /* the results follow on a clean line */
    else
        printf("\r\033[K[%zu/%zu] %u running", r->done, r->n, r->running);
    fflush(stdout);
}

static void on_closed(uv_handle_t *h)
{
    struct child *c = h->data;
    if (--c->open_handles > 0)
        return;
    c->job->stage = JOB_DONE;
    struct runner *r = c->runner;
    r->running--;
    r->done++;
    free(c);
    show_progress(r);
    start_next(r);
}

static void maybe_finish(struct child *c)
{
    if (!c->exited || !c->eof)
        return;
    uv_close((uv_handle_t *)&c->proc, on_closed);
    uv_close((uv_handle_t *)&c->out, on_closed);
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
    struct child *c = p->data;
    c->job->exit_status = status;
    c->job->term_signal = sig;
    c->exited = true;
    maybe_finish(c);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)h;
    buf->base = malloc(suggested);
    buf->len = buf->base ? suggested : 0;
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct child *c = s->data;
    struct scenario_job *j = c->job;
    if (n > 0) {
        char *grown = realloc(j->out, j->len + (size_t)n + 1);
        if (grown) {
            memcpy(grown + j->len, buf->base, (size_t)n);
            j->len += (size_t)n;
            grown[j->len] = '\0';
            j->out = grown;
        }
    } else if (n < 0) {
        uv_read_stop(s);
        c->eof = true;
        maybe_finish(c);
    }
    free(buf->base);
}

static int spawn(struct runner *r, struct scenario_job *j)
{
    struct child *c = calloc(1, sizeof *c);
    if (!c)
        return -ENOMEM;
    c->job = j;
    c->runner = r;
    uv_pipe_init(&r->loop, &c->out, 0);
    c->out.data = c;
    c->proc.data = c;
    char *args[17] = {r->exe, "scenario-exec", (char *)j->file,
                      (char *)sched_policy_name(j->policy)};
    int n = 4;
    if (j->trace) {
        args[n++] = "--trace";
        args[n++] = j->trace;
        args[n++] = "--trace-format";
        args[n++] = (char *)j->trace_format;
    }
    if (j->timeline) {
        args[n++] = "--timeline";
        args[n++] = j->timeline;
    }
    if (j->control) {
        args[n++] = "--control";
        args[n++] = (char *)j->control;
    }
    if (j->record) {
        args[n++] = "--record";
        args[n++] = (char *)j->record;
    }
    if (j->input) {
        args[n++] = "--input";
        args[n++] = (char *)j->input;
    }
    uv_stdio_container_t stdio[3] = {
        {.flags = UV_IGNORE},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&c->out},
        {.flags = UV_INHERIT_FD, .data.fd = 2},
    };
    uv_process_options_t opts = {
        .exit_cb = on_exit_cb, .file = r->exe, .args = args, .stdio_count = 3, .stdio = stdio,
    };
    int err = uv_spawn(&r->loop, &c->proc, &opts);
    if (err < 0) {
        fprintf(stderr, "asymu: cannot start a run of %s: %s\n", j->file, uv_strerror(err));
        j->exit_status = -1;
        c->open_handles = 2;
        uv_close((uv_handle_t *)&c->out, on_closed);
        uv_close((uv_handle_t *)&c->proc, on_closed);
        r->running++;
        j->stage = JOB_RUNNING;
        return 0;
    }
    c->open_handles = 2;
    j->stage = JOB_RUNNING;
    r->running++;
    uv_read_start((uv_stream_t *)&c->out, on_alloc, on_read);
    return 0;
}

static void start_next(struct runner *r)
{
    while (r->running < r->parallel && r->next < r->n)
        spawn(r, &r->jobs[r->next++]);
    show_progress(r);
}

int scenario_run_jobs(struct scenario_job *jobs, size_t n, unsigned parallel, bool progress)
{
    struct runner r = {.jobs = jobs, .n = n, .parallel = parallel ? parallel : 1,
                       .progress = progress};
    ssize_t len = readlink("/proc/self/exe", r.exe, sizeof r.exe - 1);
    if (len < 0)
        return -errno;
    r.exe[len] = '\0';
    int err = uv_loop_init(&r.loop);
    if (err < 0)
        return err;
    fflush(stdout);
    start_next(&r);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    uv_loop_close(&r.loop);
    return 0;
}

json_t *scenario_job_outcome(const struct scenario_job *job)
{
    json_t *o = job->out && job->exit_status == 0 ? json_loads(job->out, 0, NULL) : NULL;
    if (!o) {
        if (job->term_signal)
            fprintf(stderr, "%s: the run under %s was killed by signal %d\n", job->file,
                    sched_policy_name(job->policy), job->term_signal);
        else
            fprintf(stderr, "%s: the run under %s gave no outcome (exit status %lld)\n", job->file,
                    sched_policy_name(job->policy), (long long)job->exit_status);
    }
    return o;
}
