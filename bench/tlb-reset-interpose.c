/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tlb-reset-interpose.c - a measurement, not part of asymu: what a one-page
 * tlb_reset_dirty_by_vaddr in Unicorn would save (bench/README.md, "A
 * patched Unicorn 2.1.1 (item 3)").
 *
 * Unicorn 2.1.1 calls tlb_reset_dirty_by_vaddr for every translation block
 * it generates, and the function walks every entry of the soft TLBs of all
 * 12 Arm MMU modes (3,168 entries of 64 bytes at the minimum size) to mark
 * the block's page for self-modifying-code checks. The TLB is direct-mapped:
 * a page can only sit in its own slot of each mode's table or in the
 * 8-entry victim TLB, so checking those alone has the same effect. A patch
 * of Unicorn's qemu/accel/tcg/cputlb.c would do that; this file does it from
 * outside, for LD_PRELOAD, to measure it without Unicorn's source:
 *
 *   gcc -O2 -fPIC -shared -o tlb-reset-interpose.so bench/tlb-reset-interpose.c
 *   LD_PRELOAD=$PWD/tlb-reset-interpose.so asymu run -- ...
 *
 * Unicorn's code calls the function through its PLT, so the preloaded
 * definition replaces it. The structure offsets are those of Debian's
 * libunicorn2t64 2.1.1-2+b2 on x86-64, read from the disassembly of its
 * tlb_reset_dirty_by_vaddr_{aarch64,arm}; any other build may differ, and
 * then this writes to the wrong memory. Never ship it. */
#include <stddef.h>
#include <stdint.h>

#define MMU_MODES 12
#define ENTRY_BITS 6 /* sizeof(CPUTLBEntry) == 64 */
#define VICTIMS 8
/* TLB_INVALID_MASK | TLB_MMIO | TLB_DISCARD_WRITE | TLB_NOTDIRTY */
#define SLOW_FLAGS 0x390u
#define NOTDIRTY 0x100u

/* Offsets in CPUState (cpu) and CPUArchState (env) of that build. */
#define CPU_ENV 0x128              /* cpu->env_ptr */
#define CPU_UC 0x81a8              /* cpu->uc */
#define UC_TARGET_PAGE 0x290       /* uc->init_target_page: bits at +4, mask at +8 */
#define ENV_FAST (-0xd0)           /* env_tlb(env)->f[]: {mask, table}, 16 bytes each */
#define A64_DESC_STRIDE 0x2b8      /* env_tlb(env)->d[] stride, AArch64 */
#define A64_VICTIM_WRITE (-0x2138) /* d[0].vtable[0].addr_write from env */
#define A32_DESC_STRIDE 0x2b0
#define A32_VICTIM_WRITE (-0x20e4)

struct page_geometry {
    int bits;
    uint64_t mask;
};

static struct page_geometry geometry(char *cpu)
{
    char *uc = *(char **)(cpu + CPU_UC);
    char *page = *(char **)(uc + UC_TARGET_PAGE);
    return (struct page_geometry){*(int *)(page + 4), *(uint64_t *)(page + 8)};
}

/* Unicorn's tlb_reset_dirty_range_by_vaddr_locked, for a 64- or 32-bit
 * addr_write. */
static void mark64(uint64_t *w, uint64_t mask, uint64_t start, uint64_t len)
{
    uint64_t a = *w;
    if ((a & SLOW_FLAGS) == 0 && (a & mask) - start < len)
        *w = a | NOTDIRTY;
}

static void mark32(uint32_t *w, uint64_t mask, uint64_t start, uint64_t len)
{
    uint32_t a = *w;
    if ((a & SLOW_FLAGS) == 0 && (uint64_t)(a & (uint32_t)mask) - start < len)
        *w = a | NOTDIRTY;
}

/* The slot of `page` in mode k's main table, or NULL when that table is
 * unallocated (Unicorn skips it the same way). */
static char *slot(char *env, int k, uint64_t page, int bits)
{
    uint64_t size_mask = *(uint64_t *)(env + ENV_FAST + 16 * k) >> ENTRY_BITS;
    char *table = *(char **)(env + ENV_FAST + 16 * k + 8);
    if ((uint32_t)size_mask == 0xffffffffu)
        return NULL;
    return table + (((page >> bits) & size_mask) << ENTRY_BITS);
}

void tlb_reset_dirty_by_vaddr_aarch64(char *cpu, uint64_t start, uint64_t len)
{
    char *env = *(char **)(cpu + CPU_ENV);
    struct page_geometry g = geometry(cpu);
    if (!len)
        return;
    uint64_t first = start & g.mask, last = (start + len - 1) & g.mask;
    for (int k = 0; k < MMU_MODES; k++) {
        for (uint64_t p = first;; p += ~g.mask + 1) {
            char *e = slot(env, k, p, g.bits);
            if (e)
                mark64((uint64_t *)(e + 8), g.mask, start, len);
            if (p == last)
                break;
        }
        for (int j = 0; j < VICTIMS; j++)
            mark64((uint64_t *)(env + k * A64_DESC_STRIDE + (j << ENTRY_BITS) + A64_VICTIM_WRITE),
                   g.mask, start, len);
    }
}

void tlb_reset_dirty_by_vaddr_arm(char *cpu, uint32_t start, uint32_t len)
{
    char *env = *(char **)(cpu + CPU_ENV);
    struct page_geometry g = geometry(cpu);
    if (!len)
        return;
    uint32_t mask = (uint32_t)g.mask;
    uint32_t first = start & mask, last = (start + len - 1) & mask;
    for (int k = 0; k < MMU_MODES; k++) {
        for (uint32_t p = first;; p += ~mask + 1) {
            char *e = slot(env, k, p, g.bits);
            if (e)
                mark32((uint32_t *)(e + 4), g.mask, start, len);
            if (p == last)
                break;
        }
        for (int j = 0; j < VICTIMS; j++)
            mark32((uint32_t *)(env + k * A32_DESC_STRIDE + (j << ENTRY_BITS) + A32_VICTIM_WRITE),
                   g.mask, start, len);
    }
}
