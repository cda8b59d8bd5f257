/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_recording.c - recording_load_stream, the --input loader, on
 * arbitrary bytes (docs/recording.md). A recording's first line must be the
 * header of this very run, which mutations of JSON rarely keep: when the
 * input's first byte is 'H', the harness writes this run's header first and
 * the rest of the input after it, so the input lines themselves are fuzzed;
 * any other input is loaded as it is (the header's checks).
 *
 * What must hold besides "no sanitizer report": an accepted recording has
 * at least its end line, last; its points and times never go back. */
#include "emu.h"
#include "recording-int.h"
#include "recording.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *program[] = {"record-reader-aarch64", "read", NULL};

static void config(struct emu_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->cpus = 8;
    char why[128];
    cpulist_parse("0-3", 8, &cfg->aarch32, why, sizeof why);
    cfg->cmdline = "allow_mismatched_32bit_el0";
    cfg->seed = 1;
    cfg->argc = 2;
    cfg->argv = program;
}

/* This run's header line, as recording_create writes it (its keys). */
static char *header(const struct emu_config *cfg)
{
    json_t *h = json_pack("{s:i,s:o,s:o}", "asymu_recording", RECORDING_VERSION, "program",
                          recording_program_json(cfg), "machine", recording_machine_json(cfg));
    char *line = json_dumps(h, JSON_COMPACT);
    json_decref(h);
    return line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct emu_config cfg;
    static char *head;
    if (!head) {
        json_object_seed(1);
        config(&cfg);
        head = header(&cfg);
        if (!head)
            abort();
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return 0;
    if (size && data[0] == 'H') {
        fprintf(mem, "%s\n", head);
        data++, size--;
    }
    fwrite(data, 1, size, mem);
    fclose(mem);
    FILE *f = fmemopen(text, len, "r");
    if (!f) {
        free(text);
        return 0;
    }
    char why[1024];
    why[0] = '\0';
    struct recording *r = recording_load_stream(f, "fuzz.rec", &cfg, why, sizeof why);
    fclose(f);
    free(text);
    if (!r) {
        if (strncmp(why, "fuzz.rec:", 9) != 0) /* every refusal names its line */
            abort();
        return 0;
    }
    if (!r->ninputs || r->inputs[r->ninputs - 1].kind != IN_END)
        abort();
    for (size_t i = 0; i + 1 < r->ninputs; i++) {
        const struct input *a = &r->inputs[i], *b = &r->inputs[i + 1];
        if (a->kind == IN_END || b->point < a->point || b->ns < a->ns)
            abort();
    }
    recording_free(r);
    return 0;
}
