/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_input.h - reads a libFuzzer input as a stream of little-endian
 * numbers: past the end every read is 0, so any input decodes. */
#ifndef ASYMU_FUZZ_INPUT_H
#define ASYMU_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_input {
    const uint8_t *data;
    size_t size, pos;
};

static inline int fuzz_more(const struct fuzz_input *in) { return in->pos < in->size; }

/* The next n (<= 8) bytes as a number. */
static inline uint64_t fuzz_take(struct fuzz_input *in, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        if (in->pos < in->size)
            v |= (uint64_t)in->data[in->pos++] << (8 * i);
    return v;
}

#endif
