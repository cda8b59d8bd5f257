/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostblock.c - reuses the host memory of ended private mappings.
 *
 * A host page that is new to a process costs more than its zeroing: the
 * fault that maps it, and on a virtualised host one more trap when it is
 * first written (measured on the 2-CPU VM of bench/README.md: copying 512
 * KiB into freshly populated pages took 0.9-3 ms, into the same pages a
 * second time 9 us). A fork child copies its parent's program text into
 * new memory and returns it to the host when it exits, so every
 * fork+_exit+wait paid that for the same amount of memory again. Kept
 * here instead, a block goes to the next mappings that fit in it (the
 * next child's text, the next exec's segments, a stack) with only the
 * pages it held set to zero again, which the pagemap tells
 * (pagecopy.h).
 *
 * Bounded: blocks up to BLOCK_MAX bytes, BLOCKS_MAX of them and BYTES_MAX
 * in all, the oldest returned to the host first; the most recently kept
 * block of a size is taken first (its pages are the likeliest to be in the
 * host's caches), else a part of a larger one. Nothing of a block reaches the
 * guest: every byte reads as zero again before it is mapped. */
#include "hostblock.h"
#include "machine.h"
#include "pagecopy.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCKS_MAX 32u
#define BLOCK_MAX (16u << 20)
#define BYTES_MAX (64u << 20)

struct host_blocks {
    struct {
        uint8_t *p;
        uint64_t len;
    } b[BLOCKS_MAX];
    unsigned n;
    uint64_t bytes;
};

static void drop(struct host_blocks *hb, unsigned i)
{
    hb->bytes -= hb->b[i].len;
    memmove(&hb->b[i], &hb->b[i + 1], (--hb->n - i) * sizeof hb->b[0]);
}

uint8_t *host_block_take(struct machine *m, uint64_t len)
{
    struct host_blocks *hb = m->host_blocks;
    if (!hb)
        return NULL;
    /* The newest block of exactly len bytes, else the head of the smallest
     * larger one (its tail stays kept). */
    unsigned best = hb->n;
    for (unsigned i = hb->n; i-- > 0;) {
        if (hb->b[i].len == len) {
            best = i;
            break;
        }
        if (hb->b[i].len > len && (best == hb->n || hb->b[i].len < hb->b[best].len))
            best = i;
    }
    if (best == hb->n)
        return NULL;
    uint8_t *p = hb->b[best].p;
    if (hb->b[best].len == len) {
        drop(hb, best);
    } else {
        hb->b[best].p += len;
        hb->b[best].len -= len;
        hb->bytes -= len;
    }
    if (zero_held_pages(p, len))
        return p;
    munmap(p, len);
    return NULL;
}

void host_block_release(struct machine *m, uint8_t *p, uint64_t len)
{
    if (!pagecopy_sees_pages() ||
        (!m->host_blocks && !(m->host_blocks = calloc(1, sizeof *m->host_blocks)))) {
        munmap(p, len);
        return;
    }
    struct host_blocks *hb = m->host_blocks;
    /* The pieces of one mapping (an exec's span of segments, cut by
     * mprotect and munmap) come back one by one: joined, they fit the
     * next exec of the same program again. */
    for (unsigned i = 0; i < hb->n;) {
        if (hb->b[i].p + hb->b[i].len == p) {
            p = hb->b[i].p, len += hb->b[i].len;
        } else if (p + len == hb->b[i].p) {
            len += hb->b[i].len;
        } else {
            i++;
            continue;
        }
        drop(hb, i);
        i = 0;
    }
    if (len > BLOCK_MAX) {
        munmap(p, len);
        return;
    }
    while (hb->n == BLOCKS_MAX || hb->bytes + len > BYTES_MAX) {
        munmap(hb->b[0].p, hb->b[0].len); /* the oldest */
        drop(hb, 0);
    }
    hb->b[hb->n].p = p;
    hb->b[hb->n].len = len;
    hb->n++;
    hb->bytes += len;
}

void host_blocks_free(struct machine *m)
{
    struct host_blocks *hb = m->host_blocks;
    for (unsigned i = 0; hb && i < hb->n; i++)
        munmap(hb->b[i].p, hb->b[i].len);
    free(hb);
    m->host_blocks = NULL;
}
