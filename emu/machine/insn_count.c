/* SPDX-License-Identifier: GPL-2.0-or-later */
/* insn_count.c - counting a Thumb block's instructions (insn_count.h). */
#include "abi.h"
#include "insn_count.h"
#include "loader.h"
#include "mm.h"

#include <stdlib.h>
#include <unicorn/unicorn.h>

#define CPSR_T (1u << 5)

/* A Thumb-2 instruction is 32 bits when its first halfword's top five bits
 * are 0b11101, 0b11110 or 0b11111 (Arm ARM, "Thumb instruction set
 * encoding"), 16 bits otherwise. */
static uint32_t thumb_count(uc_engine *uc, uint64_t addr, uint32_t size)
{
    uint8_t buf[512];
    uint32_t count = 0, off = 0, have = 0, base = 0;
    while (off < size) {
        if (off + 2 > base + have) {
            base = off;
            have = size - off < sizeof buf ? size - off : (uint32_t)sizeof buf;
            if (uc_mem_read(uc, addr + base, buf, have) != UC_ERR_OK)
                return count + (size - off + 3) / 4; /* unreadable: the fewest it may hold */
        }
        uint16_t hw = (uint16_t)(buf[off - base] | buf[off - base + 1] << 8);
        off += (hw >> 11) >= 0x1d ? 4 : 2;
        count++;
    }
    return count;
}

uint32_t insn_count_a32_miss(struct machine *m, uc_engine *uc, uint64_t addr, uint32_t size)
{
    uint32_t cpsr = 0;
    uc_reg_read(uc, UC_ARM_REG_CPSR, &cpsr);
    uint32_t count = cpsr & CPSR_T ? thumb_count(uc, addr, size) : size >> 2;
    struct insn_cache *c = m->insn_cache;
    if (c && size <= UINT16_MAX) {
        struct insn_cache_entry *e = &c->e[(addr >> 1) & (INSN_CACHE_ENTRIES - 1)];
        e->addr = (uint32_t)addr;
        e->size = (uint16_t)size;
        e->count = (uint16_t)count;
    }
    return count;
}

void insn_count_start(struct machine *m, struct mm *mm)
{
    if (mm->abi->isa != LOADER_ISA_AARCH64 && !mm->insn_cache)
        mm->insn_cache = calloc(1, sizeof(struct insn_cache));
    m->insn_cache = mm->insn_cache;
}
