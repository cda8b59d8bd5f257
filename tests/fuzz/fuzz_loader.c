/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_loader.c - loader_parse on arbitrary bytes: it must accept or refuse
 * every buffer without reading outside it, and what it accepts must keep
 * the promises of loader.h (sorted, non-overlapping, in-file segments). */
#include "loader.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes: ASan sees any read past the end. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    struct loader_image img;
    char why[256];
    if (loader_parse(copy, size, &img, why, sizeof why) == 0) {
        if (img.nseg == 0 || img.nseg > LOADER_MAX_SEGMENTS || img.lo > img.hi ||
            memchr(img.interp, '\0', sizeof img.interp) == NULL)
            abort();
        for (unsigned i = 0; i < img.nseg; i++) {
            const struct loader_segment *s = &img.seg[i];
            if (s->memsz == 0 || s->filesz > s->memsz || s->offset > size ||
                s->filesz > size - s->offset || s->vaddr < img.lo ||
                s->vaddr + s->memsz > img.hi)
                abort();
            if (i && s->vaddr < img.seg[i - 1].vaddr + img.seg[i - 1].memsz)
                abort();
        }
    } else if (memchr(why, '\0', sizeof why) == NULL) {
        abort();
    }
    free(copy);
    return 0;
}
