/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmem.h - the machine's kernel memory (kmem.c): what asymu's kernel layer
 * holds on the host for the guest outside any process's mappings (queued
 * System V messages, pipe rings, socket receive queues, pseudo-terminals).
 * Linux takes such buffers from kernel memory, which ends at the machine's
 * RAM; here they end at --max-kmem, and earlier when the host has less
 * than --host-reserve left. The call that wanted more fails with the errno
 * Linux gives when its allocation fails (each caller names it). */
#ifndef ASYMU_KMEM_H
#define ASYMU_KMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct machine;

/* --max-kmem's default. */
#define KMEM_MAX_DEFAULT (UINT64_C(256) << 20)

/* Counts bytes against the machine's kernel memory: false (nothing
 * counted) when that would pass --max-kmem or leave the host less than
 * --host-reserve. */
bool kmem_charge(struct machine *m, uint64_t bytes);
/* Gives back what a kmem_charge took, once its buffer is freed. */
void kmem_uncharge(struct machine *m, uint64_t bytes);
/* A buffer of bytes charged to the machine's kernel memory: NULL (nothing
 * charged) when kmem_charge refuses or the host has none. Its contents
 * are not cleared. */
void *kmem_alloc(struct machine *m, size_t bytes);
/* Frees a kmem_alloc buffer of bytes and gives them back; NULL is none. */
void kmem_free(struct machine *m, void *p, size_t bytes);
/* The cap in bytes (--max-kmem, or its default). */
uint64_t kmem_max(const struct machine *m);

#endif
