/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kuser.c - the AArch32 kuser helper page: A32 code at the fixed addresses Linux documents. */
#include "loader.h"

#include <stddef.h>

/* What Linux's entry-armv.S stores at 0xffff0ffc: (0x1000 - 0xf60) / 32, the five
 * 32-byte slots from __kuser_cmpxchg64 up. libgcc and Rust's portable-atomic check
 * for >= 5 before they call __kuser_cmpxchg64. */
#define KUSER_HELPER_VERSION 5u

/* udf #0xdde1, the word Linux fills its vector page with: a stray jump raises SIGILL. */
#define KUSER_POISON 0xe7fddef1u

/* Encodings checked with arm-linux-gnueabihf-as / objdump (-march=armv7-a, ARM state).
 * They follow Linux's SMP helpers in arch/arm/kernel/entry-armv.S. */

/* int __kuser_cmpxchg64(const int64_t *oldval, const int64_t *newval, volatile int64_t *ptr)
 * at 0xffff0f60; two slots long. Returns 0 with C set if *ptr was oldval and is now newval. */
static const uint32_t kuser_cmpxchg64[] = {
    0xe92d00f0, /* push     {r4, r5, r6, r7}          */
    0xe1c040d0, /* ldrd     r4, r5, [r0]   @ oldval   */
    0xe1c160d0, /* ldrd     r6, r7, [r1]   @ newval   */
    0xf57ff05b, /* dmb      ish                       */
    0xe1b20f9f, /* 1: ldrexd r0, r1, [r2]  @ current  */
    0xe0303004, /* eors     r3, r0, r4                */
    0x00313005, /* eorseq   r3, r1, r5                */
    0x01a23f96, /* strexdeq r3, r6, r7, [r2]          */
    0x03330001, /* teqeq    r3, #1         @ lost it? */
    0x0afffff9, /* beq      1b                        */
    0xf57ff05b, /* dmb      ish                       */
    0xe2730000, /* rsbs     r0, r3, #0     @ 0 and C on success */
    0xe8bd00f0, /* pop      {r4, r5, r6, r7}          */
    0xe12fff1e, /* bx       lr                        */
};

/* void __kuser_memory_barrier(void) at 0xffff0fa0. */
static const uint32_t kuser_memory_barrier[] = {
    0xf57ff05b, /* dmb      ish */
    0xe12fff1e, /* bx       lr  */
};

/* int __kuser_cmpxchg(int oldval, int newval, volatile int *ptr) at 0xffff0fc0.
 * Eight words fill the slot, so the closing barrier and return are
 * __kuser_memory_barrier's, reached by a PC-relative branch. */
static const uint32_t kuser_cmpxchg[] = {
    0xf57ff05b, /* dmb      ish                               */
    0xe1923f9f, /* 1: ldrex r3, [r2]                          */
    0xe0533000, /* subs     r3, r3, r0                        */
    0x01823f91, /* strexeq  r3, r1, [r2]                      */
    0x03330001, /* teqeq    r3, #1                 @ lost it? */
    0x0afffffa, /* beq      1b                                */
    0xe2730000, /* rsbs     r0, r3, #0             @ 0 and C on success */
    0xeaffffef, /* b        0xffff0fa0 (__kuser_memory_barrier) */
};

/* void *__kuser_get_tls(void) at 0xffff0fe0: TPIDRURO. */
static const uint32_t kuser_get_tls[] = {
    0xee1d0f70, /* mrc      p15, 0, r0, c13, c0, 3 */
    0xe12fff1e, /* bx       lr                     */
};

static const struct {
    uint32_t offset;
    const uint32_t *code;
    size_t n;
} helpers[] = {
    {0xf60, kuser_cmpxchg64, sizeof(kuser_cmpxchg64) / sizeof(uint32_t)},
    {0xfa0, kuser_memory_barrier, sizeof(kuser_memory_barrier) / sizeof(uint32_t)},
    {0xfc0, kuser_cmpxchg, sizeof(kuser_cmpxchg) / sizeof(uint32_t)},
    {0xfe0, kuser_get_tls, sizeof(kuser_get_tls) / sizeof(uint32_t)},
};

static void put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}

void loader_kuser_page(uint8_t page[LOADER_PAGE_SIZE])
{
    size_t i, j;

    for (i = 0; i < LOADER_PAGE_SIZE; i += 4)
        put32(page + i, KUSER_POISON);
    for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
        for (j = 0; j < helpers[i].n; j++)
            put32(page + helpers[i].offset + 4 * j, helpers[i].code[j]);
    put32(page + 0xffc, KUSER_HELPER_VERSION);
}
