/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c - replay's report (--report F.json) and JUnit file (--junit
 * F.xml), and `asymu report merge OUT.json [--junit OUT.xml] SHARD.json...`,
 * which joins the reports of a run split by --shard into the report (and
 * JUnit file) the unsplit run writes. A report says what it is part of:
 * the asymu that made it, the scenario set (a digest of the FILEs' names and
 * bytes, every shard of a run given the same FILEs), replay's options that
 * change verdicts, and its shard; merge refuses reports that differ in any
 * of them, a shard twice and a shard missing. */
#include "scenario.h"
#include "sort.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPORT_FLAGS JSON_INDENT(2)

/* FNV-1a, 64 bits: not against an attacker (a report is not a proof), it
 * tells apart the scenario sets of two runs, which is all merge needs. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* files sorted by name: each name, its length in bytes and its bytes (an
 * unreadable file adds its name only; its run reports the error). */
void scenario_set_digest(char *const *files, size_t n, char out[17])
{
    uint64_t h = 0xcbf29ce484222325ull;
    char buf[65536];
    for (size_t i = 0; i < n; i++) {
        h = fnv(h, files[i], strlen(files[i]) + 1);
        int fd = open(files[i], O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        uint64_t total = 0;
        ssize_t got;
        /* at most a scenario's size and one byte: a bigger one is broken */
        while (fd >= 0 && total <= SCENARIO_MAX_BYTES && (got = read(fd, buf, sizeof buf)) > 0) {
            h = fnv(h, buf, (size_t)got);
            total += (uint64_t)got;
        }
        if (fd >= 0)
            close(fd);
        h = fnv(h, &total, sizeof total);
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

json_t *scenario_report_new(const char *set, size_t nfiles, int policy, bool every_policy,
                            unsigned shard, unsigned shards)
{
    char slice[32];
    snprintf(slice, sizeof slice, "%u/%u", shard, shards);
    return json_pack("{s:s, s:s, s:I, s:o, s:b, s:s, s:[]}", "asymu", ASYMU_VERSION, "set", set,
                     "files", (json_int_t)nfiles, "policy",
                     policy >= 0 ? json_string(sched_policy_name(policy)) : json_null(),
                     "all_expectations", every_policy, "shard", slice, "results");
}

int scenario_report_write(json_t *report, const char *path)
{
    return json_dump_file(report, path, REPORT_FLAGS) < 0 ? -EIO : 0;
}

static void xml_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

/* JUnit XML as CI systems read it: testsuites > testsuite > testcase, a
 * failure element (message, type) per failed scenario. */
int scenario_junit_write(const char *path, json_t *results)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -errno;
    size_t n = json_array_size(results), failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += !json_is_true(json_object_get(json_array_get(results, i), "passed"));
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<testsuites name=\"asymu replay\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n"
               "  <testsuite name=\"asymu replay\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
               "skipped=\"0\">\n", n, failed, n, failed);
    for (size_t i = 0; i < n; i++) {
        json_t *r = json_array_get(results, i);
        json_t *failures = json_object_get(r, "failures");
        const char *scenario = json_string_value(json_object_get(r, "scenario"));
        const char *policy = json_string_value(json_object_get(r, "policy"));
        fputs("    <testcase classname=\"scenarios\" name=\"", f);
        xml_escaped(f, scenario ? scenario : "");
        fputs(" [", f);
        xml_escaped(f, policy ? policy : "");
        fputs("]\" file=\"", f);
        xml_escaped(f, scenario ? scenario : "");
        if (json_is_true(json_object_get(r, "passed"))) {
            fputs("\"/>\n", f);
            continue;
        }
        const char *first = json_string_value(json_array_get(failures, 0));
        fputs("\">\n      <failure type=\"expectation\" message=\"", f);
        xml_escaped(f, first ? first : "the run gave no outcome");
        fputs("\">", f);
        for (size_t k = 0; k < json_array_size(failures); k++) {
            const char *msg = json_string_value(json_array_get(failures, k));
            xml_escaped(f, msg ? msg : "");
            fputs("&#10;", f);
        }
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return fclose(f) == 0 ? 0 : -errno;
}

/* ---- report merge ---- */

static int merge_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int merge_error(const char *fmt, ...)
{
    fputs("asymu report merge: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return SCENARIO_EXIT_BROKEN;
}

/* A shard's report, checked for the fields merge reads; NULL after a
 * message. */
static json_t *load_report(const char *path, unsigned *shard, unsigned *shards)
{
    json_error_t err;
    json_t *r = json_load_file(path, 0, &err);
    if (!r) {
        if (err.line > 0)
            merge_error("%s:%d:%d: expected a report of asymu replay --report: %s", path,
                        err.line, err.column, err.text);
        else
            merge_error("%s: expected a report of asymu replay --report: %s", path, err.text);
        return NULL;
    }
    const char *slice = json_string_value(json_object_get(r, "shard"));
    char tail;
    if (!json_is_object(r) || !json_string_value(json_object_get(r, "asymu")) ||
        !json_string_value(json_object_get(r, "set")) ||
        !json_is_integer(json_object_get(r, "files")) ||
        !json_is_array(json_object_get(r, "results")) || !slice ||
        sscanf(slice, "%u/%u%c", shard, shards, &tail) != 2 || *shard < 1 || *shard > *shards ||
        *shards > 100000 /* replay's --shard bound */) {
        merge_error("%s: expected a report of asymu replay --report (an object with asymu, set, "
                    "files, policy, all_expectations, shard and results), found %s", path,
                    json_is_array(r) ? "a list (a report of an asymu before report merge?)"
                                     : "another JSON value");
        json_decref(r);
        return NULL;
    }
    return r;
}

static int by_scenario(const void *x, const void *y)
{
    const char *a = json_string_value(json_object_get(*(json_t *const *)x, "scenario"));
    const char *b = json_string_value(json_object_get(*(json_t *const *)y, "scenario"));
    return strcmp(a ? a : "", b ? b : "");
}

static int merge(const char *out, const char *junit, char **inputs, size_t n)
{
    json_t **r = calloc(n + 1, sizeof *r);
    unsigned *shard = calloc(n + 1, sizeof *shard), shards = 0, first_shards = 0;
    char **seen = NULL; /* per shard index: its report's path */
    if (!r || !shard)
        abort();
    int status = SCENARIO_EXIT_BROKEN;
    json_t *merged = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!(r[i] = load_report(inputs[i], &shard[i], &shards)))
            goto out;
        if (i == 0) {
            first_shards = shards;
            seen = calloc(shards + 1, sizeof *seen);
            if (!seen)
                abort();
        }
        const char *a = inputs[0], *b = inputs[i];
        static const char *const keys[] = {"asymu", "set", "files", "policy", "all_expectations"};
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            if (json_equal(json_object_get(r[0], keys[k]), json_object_get(r[i], keys[k])))
                continue;
            char *xd = json_dumps(json_object_get(r[0], keys[k]), JSON_ENCODE_ANY);
            char *yd = json_dumps(json_object_get(r[i], keys[k]), JSON_ENCODE_ANY);
            const char *x = xd ? xd : "(none)", *y = yd ? yd : "(none)";
            if (k == 0)
                merge_error("%s and %s were made by different asymu versions (%s, %s): merge the "
                            "shards of one run", a, b, x, y);
            else if (k <= 2)
                merge_error("%s and %s ran different scenario sets (other FILEs, or FILEs "
                            "changed): merge the shards of one run", a, b);
            else
                merge_error("%s and %s ran with different --policy or --all-expectations (%s %s, "
                            "%s): merge the shards of one run", a, b, keys[k], x, y);
            free(xd);
            free(yd);
            goto out;
        }
        char sa[32], sb[32];
        snprintf(sa, sizeof sa, "%u/%u", shard[0], first_shards);
        snprintf(sb, sizeof sb, "%u/%u", shard[i], shards);
        if (shards != first_shards) {
            merge_error("%s is shard %s and %s shard %s: merge the shards of one --shard I/N", a,
                        sa, b, sb);
            goto out;
        }
        if (seen[shard[i]]) {
            merge_error("%s and %s are both shard %s: give each shard's report once",
                        seen[shard[i]], b, sb);
            goto out;
        }
        seen[shard[i]] = inputs[i];
    }
    for (unsigned s = 1; s <= first_shards; s++) {
        if (!seen[s]) {
            merge_error("shard %u/%u is missing: give the report of every shard (1/%u to %u/%u)",
                        s, first_shards, first_shards, first_shards, first_shards);
            goto out;
        }
    }
    merged = scenario_report_new(json_string_value(json_object_get(r[0], "set")),
                                 (size_t)json_integer_value(json_object_get(r[0], "files")), -1,
                                 false, 1, 1);
    json_object_set(merged, "policy", json_object_get(r[0], "policy"));
    json_object_set(merged, "all_expectations", json_object_get(r[0], "all_expectations"));
    json_object_set(merged, "asymu", json_object_get(r[0], "asymu"));
    json_t *results = json_object_get(merged, "results");
    for (size_t i = 0; i < n; i++)
        json_array_extend(results, json_object_get(r[i], "results"));
    /* Every result in replay's order: by scenario file name, which
     * --shard sliced. */
    size_t count = json_array_size(results);
    json_t **sorted = calloc(count + 1, sizeof *sorted);
    for (size_t i = 0; i < count; i++)
        sorted[i] = json_incref(json_array_get(results, i));
    sort_items(sorted, count, sizeof *sorted, by_scenario);
    json_array_clear(results);
    for (size_t i = 0; i < count; i++)
        json_array_append_new(results, sorted[i]);
    free(sorted);
    if (scenario_report_write(merged, out) < 0) {
        merge_error("cannot write %s: %s", out, strerror(errno));
        goto out;
    }
    int err = junit ? scenario_junit_write(junit, results) : 0;
    if (err < 0) {
        merge_error("cannot write %s: %s", junit, strerror(-err));
        goto out;
    }
    status = 0;
out:
    for (size_t i = 0; i < n; i++)
        json_decref(r[i]);
    json_decref(merged);
    free(r);
    free(shard);
    free(seen);
    return status;
}

static int report_usage(const char *what)
{
    fprintf(stderr, "asymu report: %s\nusage: asymu report merge OUT.json [--junit OUT.xml] "
                    "SHARD.json...\n", what);
    return SCENARIO_EXIT_BROKEN;
}

int scenario_cmd_report(int argc, char **argv)
{
    if (argc < 1)
        return report_usage("expected a subcommand (merge)");
    if (strcmp(argv[0], "merge") != 0)
        return report_usage("unknown subcommand (expected merge)");
    const char *out = NULL, *junit = NULL;
    char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--junit") == 0 && i + 1 < argc)
            junit = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            return free(inputs), report_usage("unknown option, or --junit without its file");
        else if (!out)
            out = argv[i];
        else
            inputs[n++] = argv[i];
    }
    int status = n == 0 ? report_usage("expected OUT.json and the shards' reports")
                        : merge(out, junit, inputs, n);
    free(inputs);
    return status;
}
