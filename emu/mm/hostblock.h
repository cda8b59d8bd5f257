/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostblock.h - the host memory of ended private mappings, kept for the
 * next mappings instead of returned to the host. */
#ifndef ASYMU_HOSTBLOCK_H
#define ASYMU_HOSTBLOCK_H

#include <stdint.h>

struct machine;

/* Takes len bytes of kept memory, all zero again: NULL if none. */
uint8_t *host_block_take(struct machine *m, uint64_t len);
/* Keeps [p, p+len) (private anonymous host memory, read-write, no longer
 * mapped by any engine) for reuse, or returns it to the host. */
void host_block_release(struct machine *m, uint8_t *p, uint64_t len);
/* Returns every kept block to the host (machine shutdown). */
void host_blocks_free(struct machine *m);

#endif
