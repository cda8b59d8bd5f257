/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recording_load.c - reads a recording (--input) whole before the run and
 * checks it: every line a JSON object of a known kind, points and times
 * never going back, the end line last, and a header of this run. */
#include "recording.h"
#include "recording-int.h"

#include "emu.h"
#include "strace.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct loader {
    const char *path;
    unsigned line;
    char *why;
    size_t whylen;
};

static bool fail(struct loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct loader *l, const char *fmt, ...)
{
    int n = snprintf(l->why, l->whylen, "%s:%u: ", l->path, l->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < l->whylen)
        vsnprintf(l->why + n, l->whylen - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

/* The header's run against this one: program, arguments, machine. */
static bool check_header(struct loader *l, json_t *head, const struct emu_config *cfg)
{
    json_t *version = json_object_get(head, "asymu_recording");
    if (!json_is_integer(version))
        return fail(l, "not an asymu recording (its first line has no \"asymu_recording\")");
    if (json_integer_value(version) != RECORDING_VERSION)
        return fail(l, "recording format version %" JSON_INTEGER_FORMAT ", this asymu reads %d",
                    json_integer_value(version), RECORDING_VERSION);
    json_t *program = json_object_get(head, "program"), *machine = json_object_get(head, "machine");
    if (!json_is_array(program) || !json_is_object(machine))
        return fail(l, "the header has no \"program\" list or no \"machine\" object");
    json_t *want_program = recording_program_json(cfg);
    json_t *want_machine = recording_machine_json(cfg);
    bool same_program = json_equal(program, want_program);
    const char *differs = NULL;
    const char *key;
    json_t *value;
    json_object_foreach(want_machine, key, value)
        if (!differs && !json_equal(value, json_object_get(machine, key)))
            differs = key;
    bool ok = true;
    if (!same_program) {
        char *got = json_dumps(program, JSON_COMPACT), *want = json_dumps(want_program, JSON_COMPACT);
        ok = fail(l, "the recording is of another program: %s, this run's is %s", got ? got : "?",
                  want ? want : "?");
        free(got);
        free(want);
    } else if (differs) {
        char *got = json_dumps(json_object_get(machine, differs), JSON_COMPACT | JSON_ENCODE_ANY);
        char *want = json_dumps(json_object_get(want_machine, differs), JSON_COMPACT | JSON_ENCODE_ANY);
        ok = fail(l, "the recording is of another machine: its %s is %s, this run's is %s",
                  differs, got ? got : "absent", want ? want : "?");
        free(got);
        free(want);
    }
    json_decref(want_program);
    json_decref(want_machine);
    return ok;
}

static int signal_by_name(const char *name)
{
    const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof *stops; i++)
        if (strcmp(name, signal_name(stops[i])) == 0)
            return stops[i];
    return -1;
}

static bool hex_bytes(const char *hex, char **out, size_t *len)
{
    size_t n = strlen(hex);
    if (n % 2)
        return false;
    *out = malloc(n / 2 + 1);
    for (size_t i = 0; *out && i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1 || !strchr("0123456789abcdefABCDEF", hex[2 * i + 1]))
            return false;
        (*out)[i] = (char)v;
    }
    *len = n / 2;
    return *out != NULL;
}

/* Bytes under key (a string) or key_hex (their hex). */
static bool bytes_of(struct loader *l, json_t *obj, const char *key, char **out, size_t *len)
{
    char hexkey[32];
    snprintf(hexkey, sizeof hexkey, "%s_hex", key);
    json_t *s = json_object_get(obj, key), *hex = json_object_get(obj, hexkey);
    if (json_is_string(s)) {
        *len = json_string_length(s);
        *out = malloc(*len + 1);
        if (*out)
            memcpy(*out, json_string_value(s), *len + 1);
        return *out ? true : fail(l, "out of memory");
    }
    if (json_is_string(hex) && hex_bytes(json_string_value(hex), out, len))
        return true;
    return fail(l, "expected \"%s\" (a string) or \"%s\" (hex bytes)", key, hexkey);
}

/* A control line is one of the requests a recording holds (those that
 * change the machine, control_requests.c's commands), with as many words as
 * it takes: a crafted line is refused here, with its line, rather than
 * served. How long the requests can hold the machine is bounded by the
 * replay itself: it stops, as a mismatch, past the end line's point. */
static bool check_control(struct loader *l, const char *line)
{
    static const struct {
        const char *name;
        int min_args, max_args;
    } recorded[] = {{"stop", 0, 1},   {"cont", 0, 1},        {"step", 1, 1},   {"offline", 1, 1},
                    {"online", 1, 1}, {"setaffinity", 2, 2}, {"signal", 2, 2}, {"trace", 1, 1}};
    char name[16] = "";
    int words = 0;
    for (const char *p = line; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, " ");
        if (words++ == 0 && n < sizeof name)
            memcpy(name, p, n);
        p += n;
    }
    for (size_t i = 0; i < sizeof recorded / sizeof *recorded; i++) {
        if (strcmp(name, recorded[i].name) != 0)
            continue;
        if (words - 1 < recorded[i].min_args || words - 1 > recorded[i].max_args)
            return fail(l, "control request '%s': %s takes %d to %d arguments", line, name,
                        recorded[i].min_args, recorded[i].max_args);
        if (strcmp(name, "step") == 0) {
            char *end;
            const char *arg = line + strspn(line, " ") + 4;
            arg += strspn(arg, " ");
            errno = 0;
            unsigned long long steps = strtoull(arg, &end, 10);
            if (errno || end == arg || (*end && *end != ' ') || *arg == '-' || steps == 0 ||
                steps > 1000000000)
                return fail(l, "control request '%s': step takes 1 to 1000000000 slices", line);
        }
        return true;
    }
    return fail(l, "control request '%s': not one a recording holds (stop, cont, step, offline, "
                   "online, setaffinity, signal, trace)", line);
}

static bool parse_input(struct loader *l, json_t *obj, struct input *in)
{
    static const char *const keys[] = {"point", "ns", "in_syscall", "stdin", "stdin_hex",
                                       "stdin_eof", "signal", "control", "write", "end"};
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        size_t i = 0;
        while (i < sizeof keys / sizeof *keys && strcmp(key, keys[i]) != 0)
            i++;
        if (i == sizeof keys / sizeof *keys)
            return fail(l, "unknown key '%s' (expected point, ns, in_syscall and one of stdin, "
                           "stdin_hex, stdin_eof, signal, control, write, end)", key);
    }
    json_t *point = json_object_get(obj, "point"), *ns = json_object_get(obj, "ns");
    if (!json_is_integer(point) || json_integer_value(point) < 0 || !json_is_integer(ns) ||
        json_integer_value(ns) < 0)
        return fail(l, "expected \"point\" and \"ns\" (whole numbers, not negative)");
    in->point = (uint64_t)json_integer_value(point);
    in->ns = (uint64_t)json_integer_value(ns);
    in->in_syscall = json_is_true(json_object_get(obj, "in_syscall"));
    in->line = l->line;
    json_t *v;
    if (json_object_get(obj, "stdin") || json_object_get(obj, "stdin_hex")) {
        in->kind = IN_STDIN;
        return bytes_of(l, obj, "stdin", &in->data, &in->len);
    }
    if ((v = json_object_get(obj, "stdin_eof"))) {
        in->kind = IN_STDIN_EOF;
        return json_is_true(v) ? true : fail(l, "expected \"stdin_eof\": true");
    }
    if ((v = json_object_get(obj, "signal"))) {
        in->kind = IN_SIGNAL;
        in->value = json_is_string(v) ? signal_by_name(json_string_value(v)) : -1;
        return in->value > 0 ? true : fail(l, "expected \"signal\": \"SIGINT\", \"SIGTERM\" or "
                                              "\"SIGHUP\"");
    }
    if ((v = json_object_get(obj, "control"))) {
        in->kind = IN_CONTROL;
        if (!json_is_string(v) || !(in->data = strdup(json_string_value(v))))
            return fail(l, "expected \"control\": a request line");
        return check_control(l, in->data);
    }
    if ((v = json_object_get(obj, "write"))) {
        in->kind = IN_WRITE;
        json_t *path = json_object_get(v, "path");
        if (!json_is_string(path) || !(in->path = strdup(json_string_value(path))))
            return fail(l, "expected \"write\": {\"path\": ..., \"data\": ...}");
        return bytes_of(l, v, "data", &in->data, &in->len);
    }
    if ((v = json_object_get(obj, "end"))) {
        in->kind = IN_END;
        if (!json_is_integer(v))
            return fail(l, "expected \"end\": the run's exit status");
        in->value = (int)json_integer_value(v);
        return true;
    }
    return fail(l, "expected one of stdin, stdin_hex, stdin_eof, signal, control, write, end");
}

static bool add_input(struct loader *l, struct recording *r, json_t *obj, size_t *cap)
{
    if (r->ninputs && r->inputs[r->ninputs - 1].kind == IN_END)
        return fail(l, "a line after the end line");
    if (r->ninputs == *cap) {
        size_t n = *cap ? 2 * *cap : 64;
        struct input *inputs = realloc(r->inputs, n * sizeof *inputs);
        if (!inputs)
            return fail(l, "out of memory");
        r->inputs = inputs;
        *cap = n;
    }
    struct input *in = &r->inputs[r->ninputs];
    *in = (struct input){0};
    bool ok = parse_input(l, obj, in);
    r->ninputs++; /* freed with the others even when broken */
    if (!ok)
        return false;
    const struct input *prev = r->ninputs > 1 ? &r->inputs[r->ninputs - 2] : NULL;
    if (prev && (in->point < prev->point || (in->point == prev->point && in->ns < prev->ns) ||
                 (in->point > prev->point && in->ns < prev->ns)))
        return fail(l, "point %" PRIu64 " at %" PRIu64 " ns is before the previous line's "
                       "(point %" PRIu64 " at %" PRIu64 " ns): in the past",
                    in->point, in->ns, prev->point, prev->ns);
    return true;
}

static bool read_lines(struct loader *l, FILE *f, struct recording *r, const struct emu_config *cfg)
{
    char *text = NULL;
    size_t textcap = 0, cap = 0;
    ssize_t n;
    bool ok = true;
    while (ok && (n = getline(&text, &textcap, f)) >= 0) {
        l->line++;
        if (n == 0 || text[n - 1] != '\n') {
            ok = fail(l, "the line does not end (a truncated recording?)");
            break;
        }
        json_error_t err;
        json_t *obj = json_loadb(text, (size_t)n, 0, &err);
        if (!json_is_object(obj))
            ok = fail(l, "not a JSON object: %s", obj ? "another value" : err.text);
        else if (l->line == 1)
            ok = check_header(l, obj, cfg);
        else
            ok = add_input(l, r, obj, &cap);
        json_decref(obj);
    }
    free(text);
    if (ok && l->line == 0)
        ok = fail(l, "empty: not an asymu recording");
    else if (ok && (!r->ninputs || r->inputs[r->ninputs - 1].kind != IN_END))
        ok = fail(l, "the recording has no end line (it is truncated: the recording run did not "
                     "end)");
    return ok;
}

struct recording *recording_load_stream(FILE *f, const char *path, const struct emu_config *cfg,
                                        char *why, size_t whylen)
{
    struct loader l = {.path = path, .why = why, .whylen = whylen};
    struct recording *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        snprintf(why, whylen, "%s: out of memory", path);
        return NULL;
    }
    if (!read_lines(&l, f, r, cfg)) {
        recording_free(r);
        return NULL;
    }
    return r;
}

struct recording *recording_load(const char *path, const struct emu_config *cfg, char *why,
                                 size_t whylen)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct recording *r = recording_load_stream(f, path, cfg, why, whylen);
    fclose(f);
    return r;
}
