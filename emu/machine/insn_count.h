/* SPDX-License-Identifier: GPL-2.0-or-later */
/* insn_count.h - guest instructions retired per translated block, for
 * virtual time (docs/timing.md). The block hook sees a block's address and
 * byte size only: A64 and A32 instructions are 4 bytes each, Thumb ones 2
 * or 4, so a Thumb block is decoded once (its first halfwords say each
 * instruction's length) and its count kept in a small cache per address
 * space, keyed by address and size. */
#ifndef ASYMU_INSN_COUNT_H
#define ASYMU_INSN_COUNT_H

#include <stdint.h>

#include "machine.h"
#include "uc_fwd.h"

#define INSN_CACHE_ENTRIES 4096u /* 32 KiB per 32-bit address space */

/* AArch32 addresses are 32 bits; a block is far shorter than 64 KiB. */
struct insn_cache {
    struct insn_cache_entry {
        uint32_t addr;
        uint16_t size, count;
    } e[INSN_CACHE_ENTRIES];
};

/* The count of an AArch32 block not in the cache (insn_count.c): decodes
 * it (A32: size / 4) and remembers it. */
uint32_t insn_count_a32_miss(struct machine *m, uc_engine *uc, uint64_t addr, uint32_t size);

static inline uint32_t insn_count_a32(struct machine *m, uc_engine *uc, uint64_t addr,
                                      uint32_t size)
{
    const struct insn_cache *c = m->insn_cache;
    if (c) {
        const struct insn_cache_entry *e = &c->e[(addr >> 1) & (INSN_CACHE_ENTRIES - 1)];
        if (e->addr == (uint32_t)addr && e->size == size)
            return e->count;
    }
    return insn_count_a32_miss(m, uc, addr, size);
}

struct mm;
/* Before a slice of mm's code: mm's cache if it is 32-bit, made on its
 * first slice (without memory, none: each block is then decoded every
 * time, slower but the same count). */
void insn_count_start(struct machine *m, struct mm *mm);

#endif
