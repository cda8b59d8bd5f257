/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_trace_filter.c - trace_filter_parse (tracefs's event filters,
 * issue 28 item 3) on arbitrary text for any event, and a filter it
 * accepts matched against records of arbitrary bytes and lengths: an error
 * gives a NUL-terminated text that starts with the filter's; no read
 * outside the record (ASan). */
#include "trace_filter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    /* a byte picks the event, one the record's length */
    const struct event_format *e = &event_formats[data[0] % EVENT_COUNT];
    size_t reclen = data[1];
    data += 2;
    size -= 2;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct trace_filter *f;
    char *err;
    int r = trace_filter_parse(e, text, &f, &err);
    if (r == 0) {
        /* the record: the input's bytes, as long as it says */
        unsigned char *rec = malloc(reclen ? reclen : 1);
        if (rec) {
            for (size_t i = 0; i < reclen; i++)
                rec[i] = size ? (unsigned char)data[i % size] : 0;
            trace_filter_match(f, rec, reclen);
            free(rec);
        }
        trace_filter_free(f);
    } else if (r == -22) {
        if (!err || strncmp(err, text, strlen(text)) != 0)
            abort();
        free(err);
    }
    free(text);
    return 0;
}
