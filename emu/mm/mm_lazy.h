/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_lazy.h - lazy engine regions: a MAP_NORESERVE mapping is registered
 * with Unicorn chunk by chunk, when the guest first touches each.
 *
 * Unicorn removes a region page by page (1 KiB target pages, about 0.25 s
 * per GiB measured on 2.1.1): registering a 1 TiB MAP_NORESERVE
 * reservation whole (ASan's shadow is 28 TiB on arm64) made its munmap
 * take minutes, and every region costs the engine. A lazy VMA (private
 * MAP_NORESERVE memory) has no region of its own: the first access to
 * one of its LAZY_CHUNK
 * chunks reaches the UC_HOOK_MEM_UNMAPPED hook (engine.c), which maps that
 * chunk (clipped to the VMA, with its rights) and lets Unicorn retry the
 * access. The chunks are a cache of the VMA list: any change of a lazy
 * VMA's range (munmap, mprotect, a mapping over it) drops the chunks it
 * touches, and at most LAZY_MAX stay registered (the oldest goes first),
 * so unmapping costs in proportion to what was touched, not to what was
 * reserved. Host memory is the VMA's own host mapping (MAP_NORESERVE on
 * the host too): only touched pages become resident. A guest sweeping
 * more than LAZY_MAX chunks over and over pays a chunk's removal and
 * registration per 2 MiB, about 0.3 ms of CPU: 256 MiB read 11 times took
 * 1.1 s of CPU this way against 0.7 s registered whole, which is why
 * committed mappings, however large, keep regions of their own. */
#ifndef ASYMU_MM_LAZY_H
#define ASYMU_MM_LAZY_H

#include <stdbool.h>
#include <stdint.h>

struct mm;

/* The engine region made at a first touch: 2 MiB, about 0.4 ms to remove. */
#define LAZY_CHUNK (2ull << 20)
/* Chunks registered at once per address space. */
#define LAZY_MAX 64u

struct lazy_chunks {
    unsigned n;
    struct {
        uint64_t start, end;
    } c[LAZY_MAX]; /* oldest first */
};

/* An access to unmapped engine memory at addr: true when addr lies in an
 * accessible lazy VMA and its chunk is now registered (retry the access). */
bool lazy_fault(struct mm *mm, uint64_t addr);
/* Removes from the engine every chunk that overlaps [lo, hi). */
void lazy_drop(struct mm *mm, uint64_t lo, uint64_t hi);
/* The engine was closed: no chunk is registered any more. */
void lazy_forget(struct mm *mm);
/* Chunks registered now (engine regions, mm_room_for counts them). */
unsigned lazy_count(const struct mm *mm);
void lazy_free(struct mm *mm);

#endif
