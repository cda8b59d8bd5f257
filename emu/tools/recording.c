/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recording.c - record and replay of host input (recording.h): the file
 * (JSON lines, docs/recording.md), the points of a run, the console's
 * buffered input, and the inputs applied again where they were taken. */
#include "recording.h"
#include "recording-int.h"

#include "control.h"
#include "emu.h"
#include "file.h"
#include "machine.h"
#include "script.h"
#include "strace.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the console takes from the host's stdin at once. */
#define TAKE_BYTES 65536

/* ---- the header: which run a recording is of ---- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

json_t *recording_machine_json(const struct emu_config *cfg)
{
    char aarch32[4 * NR_CPUS_MAX];
    cpulist_format(&cfg->aarch32, aarch32, sizeof aarch32);
    return json_pack("{s:i,s:s,s:s,s:s,s:I,s:i}", "cpus", (int)cfg->cpus, "aarch32", aarch32,
                     "cmdline", cfg->cmdline, "policy", sched_policy_name(cfg->policy), "seed",
                     (json_int_t)cfg->seed, "slice",
                     (int)(cfg->slice_blocks ? cfg->slice_blocks : SCHED_DEFAULT_SLICE_BLOCKS));
}

/* The guest program by its file name (a scenario finds it by another
 * path) and its arguments. */
json_t *recording_program_json(const struct emu_config *cfg)
{
    json_t *a = json_array();
    for (int i = 0; i < cfg->argc; i++)
        json_array_append_new(a, json_string(i ? cfg->argv[i] : base_name(cfg->argv[0])));
    return a;
}

/* ---- writing ---- */

struct recording *recording_create(FILE *out, const char *path, const struct emu_config *cfg,
                                   int argc, char **argv)
{
    struct recording *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        return NULL;
    }
    r->out = out;
    json_t *command = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(command, json_string(argv[i]));
    json_t *head = json_pack("{s:i,s:s,s:o,s:o,s:o}", "asymu_recording", RECORDING_VERSION,
                             "asymu", ASYMU_VERSION, "command", command, "program",
                             recording_program_json(cfg), "machine", recording_machine_json(cfg));
    json_dumpf(head, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(head);
    fputc('\n', out);
    fflush(out);
    return r;
}

/* The time an input is stamped with: the running vCPU's, never before the
 * last input's (vCPU clocks may differ by up to a batch, docs/timing.md;
 * a recording's times go forward, and a replay computes the same). */
static uint64_t input_ns(const struct machine *m)
{
    uint64_t now = machine_now(m);
    return now > m->recording->last_ns ? now : m->recording->last_ns;
}

/* One input at the current point, flushed at once: a run that is killed
 * leaves what it took (though no end line). */
static void put(struct machine *m, json_t *body)
{
    struct recording *r = m->recording;
    r->last_ns = input_ns(m);
    json_t *line = json_pack("{s:I,s:I}", "point", (json_int_t)r->point, "ns",
                             (json_int_t)r->last_ns);
    if (m->current) /* inside a guest syscall */
        json_object_set_new(line, "in_syscall", json_true());
    json_object_update(line, body);
    json_decref(body);
    json_dumpf(line, r->out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(line);
    fputc('\n', r->out);
    fflush(r->out);
}

/* Bytes as a JSON string when they are UTF-8 text, else as hex. */
static json_t *bytes_json(const char *key, const char *data, size_t len)
{
    json_t *s = json_stringn(data, len);
    if (s)
        return json_pack("{s:o}", key, s);
    char *hex = malloc(2 * len + 1);
    for (size_t i = 0; hex && i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)data[i]);
    char hexkey[32];
    snprintf(hexkey, sizeof hexkey, "%s_hex", key);
    json_t *out = json_pack("{s:s}", hexkey, hex ? hex : "");
    free(hex);
    return out;
}

static bool recording(const struct machine *m)
{
    return m->recording && m->recording->out;
}

void recording_host_signal(struct machine *m, int sig)
{
    if (recording(m))
        put(m, json_pack("{s:s}", "signal", signal_name(sig)));
}

void recording_control(struct machine *m, const char *request)
{
    if (recording(m))
        put(m, json_pack("{s:s}", "control", request));
}

void recording_fuse_write(struct machine *m, const char *path, const char *data, size_t len)
{
    if (!recording(m))
        return;
    json_t *w = bytes_json("data", data, len);
    json_object_set_new(w, "path", json_string(path));
    put(m, json_pack("{s:o}", "write", w));
}

/* ---- the console's input ---- */

bool recording_owns_console(const struct machine *m)
{
    return m->recording != NULL;
}

bool recording_replaying(const struct machine *m)
{
    return m->recording && !m->recording->out;
}

static void console_append(struct machine *m, const char *data, size_t len)
{
    struct recording *r = m->recording;
    if (r->head == r->len)
        r->head = r->len = 0;
    if (r->len + len > r->cap) {
        size_t cap = r->len + len;
        char *buf = realloc(r->buf, cap);
        if (!buf)
            return;
        r->buf = buf;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, len);
    r->len += len;
    file_notify_events(m, &console_waitq, POLLIN);
}

static void console_end(struct machine *m)
{
    m->recording->eof = true;
    file_notify_events(m, &console_waitq, POLLIN);
}

void recording_console_take(struct machine *m)
{
    struct recording *r = m->recording;
    if (!recording(m) || r->eof || r->head < r->len)
        return;
    char buf[TAKE_BYTES];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n > 0) {
        put(m, bytes_json("stdin", buf, (size_t)n));
        console_append(m, buf, (size_t)n);
    } else { /* the end of the host's stdin (an error reads as one too) */
        put(m, json_pack("{s:b}", "stdin_eof", true));
        console_end(m);
    }
}

static bool apply_due(struct machine *m, bool in_syscall);

bool recording_console_ready(struct machine *m)
{
    struct recording *r = m->recording;
    if (r->head < r->len || r->eof)
        return true;
    if (!r->out) {
        if (m->current && !r->failed)
            apply_due(m, true);
    } else {
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&p, 1, 0) != 0)
            recording_console_take(m);
    }
    return r->head < r->len || r->eof;
}

size_t recording_console_pending(struct machine *m)
{
    struct recording *r = m->recording;
    return recording_console_ready(m) ? r->len - r->head : 0;
}

int64_t recording_console_read(struct machine *m, void *buf, size_t len)
{
    struct recording *r = m->recording;
    size_t n = r->len - r->head < len ? r->len - r->head : len;
    memcpy(buf, r->buf + r->head, n);
    r->head += n;
    return (int64_t)n;
}

/* ---- replaying ---- */

static void mismatch(struct recording *r, const struct input *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void mismatch(struct recording *r, const struct input *in, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "asymu: %s:%u: the recording does not match the run: %s\n", r->path, in->line,
            why);
    r->failed = true;
}

static void apply(struct machine *m, const struct input *in)
{
    switch (in->kind) {
    case IN_STDIN:
        console_append(m, in->data, in->len);
        break;
    case IN_STDIN_EOF:
        console_end(m);
        break;
    case IN_SIGNAL:
        m->host_signal = in->value;
        break;
    case IN_CONTROL:
        control_replay_request(m, in->data);
        break;
    case IN_WRITE:
        script_write_virtual(m, in->path, in->data, in->len);
        break;
    case IN_END:
        break;
    }
}

/* Applies the inputs recorded at this point (between two steps, or inside
 * the guest syscall that takes them): false on a mismatch. */
static bool apply_due(struct machine *m, bool in_syscall)
{
    struct recording *r = m->recording;
    uint64_t now = input_ns(m);
    while (r->next < r->ninputs) {
        const struct input *in = &r->inputs[r->next];
        /* The recorded run ended at the end line's point: a replay past it
         * never matches, and stopping here bounds every replay by the
         * recording's own length, whatever its control lines ask (a held
         * task, `step 1000000000`, issue 24 item 10). */
        if (in->kind == IN_END && in->point < r->point) {
            mismatch(r, in, "the run goes on at point %" PRIu64 " (%" PRIu64 " ns), past the "
                            "point %" PRIu64 " where the recorded run ended",
                     r->point, now, in->point);
            return false;
        }
        /* Later at this point: a later syscall of the slice takes it. */
        if (in->kind == IN_END || in->point > r->point ||
            (in->point == r->point && (in->in_syscall != in_syscall || in->ns > now)))
            return true;
        if (in->point < r->point) {
            mismatch(r, in, "its input at point %" PRIu64 " was not taken (the run is at point "
                            "%" PRIu64 ", %" PRIu64 " ns)", in->point, r->point, now);
            return false;
        }
        if (in->ns != now) {
            mismatch(r, in, "its input at point %" PRIu64 " is at %" PRIu64 " ns, the run is "
                            "past it at %" PRIu64 " ns", in->point, in->ns, now);
            return false;
        }
        r->next++;
        r->last_ns = in->ns;
        apply(m, in);
    }
    return true;
}

void recording_attach(struct machine *m)
{
    m->recording = m->cfg->recording;
}

bool recording_mismatched(const struct machine *m)
{
    return m->recording && m->recording->failed;
}

bool recording_step(struct machine *m)
{
    struct recording *r = m->recording;
    if (!r)
        return true;
    if (r->waited)
        r->waited = false;
    else
        r->point++;
    if (r->out)
        return true;
    return !r->failed && apply_due(m, false);
}

void recording_waited(struct machine *m)
{
    if (m->recording)
        m->recording->waited = true;
}

bool recording_stalled(struct machine *m)
{
    struct recording *r = m->recording;
    if (!recording_replaying(m))
        return false;
    const struct input *in = &r->inputs[r->next];
    if (in->kind == IN_END)
        mismatch(r, in, "the machine waits at point %" PRIu64 " (%" PRIu64 " ns) and the "
                        "recording has no input left for it", r->point, machine_now(m));
    else
        mismatch(r, in, "the machine waits at point %" PRIu64 " (%" PRIu64 " ns) for input "
                        "the recording gives at point %" PRIu64 " (%" PRIu64 " ns)",
                 r->point, machine_now(m), in->point, in->ns);
    return true;
}

int recording_finish(struct machine *m, int status)
{
    struct recording *r = m->recording;
    if (!r)
        return status;
    if (r->out) {
        put(m, json_pack("{s:i}", "end", status));
        return status;
    }
    if (r->failed)
        return 2;
    const struct input *in = &r->inputs[r->next];
    if (in->kind != IN_END) {
        mismatch(r, in, "the run ended at point %" PRIu64 " (%" PRIu64 " ns) before this input",
                 r->point, machine_now(m));
        return 2;
    }
    if (in->point != r->point || in->ns != input_ns(m) || in->value != status) {
        mismatch(r, in, "the run ended at point %" PRIu64 " (%" PRIu64 " ns) with status %d, the "
                        "recorded one at point %" PRIu64 " (%" PRIu64 " ns) with status %d",
                 r->point, input_ns(m), status, in->point, in->ns, in->value);
        return 2;
    }
    return status;
}

void recording_free(struct recording *r)
{
    if (!r)
        return;
    if (r->out)
        fclose(r->out);
    for (size_t i = 0; i < r->ninputs; i++) {
        free(r->inputs[i].data);
        free(r->inputs[i].path);
    }
    free(r->inputs);
    free(r->buf);
    free(r->path);
    free(r);
}

int emu_recording_open(struct emu_config *cfg, int argc, char **argv)
{
    if (cfg->record_path && cfg->input_path) {
        fprintf(stderr, "asymu run: --record and --input: a replay is not recorded again\n");
        return -1;
    }
    /* jansson seeds its hash tables from /dev/urandom on first use: now,
     * before the sandbox. */
    json_object_seed(0);
    if (cfg->input_path) {
        char why[1024];
        cfg->recording = recording_load(cfg->input_path, cfg, why, sizeof why);
        if (!cfg->recording)
            fprintf(stderr, "asymu: %s\n", why);
        return cfg->recording ? 0 : -1;
    }
    if (!cfg->record_path)
        return 0;
    /* Created now: the sandbox would not let the emulator create it later. */
    FILE *out = fopen(cfg->record_path, "we");
    if (!out) {
        fprintf(stderr, "asymu run: cannot create %s for --record: %s\n", cfg->record_path,
                strerror(errno));
        return -1;
    }
    cfg->recording = recording_create(out, cfg->record_path, cfg, argc, argv);
    if (!cfg->recording) {
        fclose(out);
        fprintf(stderr, "asymu run: --record: out of memory\n");
        return -1;
    }
    return 0;
}
