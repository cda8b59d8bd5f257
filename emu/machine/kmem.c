/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmem.c - the machine's kernel memory: one byte counter, charged when a
 * kernel-side buffer is allocated and uncharged when it is freed (kmem.h).
 * The count is the machine's own, never the host's free memory, so the
 * point where --max-kmem refuses is the same on every host; the host's
 * reserve is a second bound, checked every KMEM_HOST_CHECK bytes charged
 * (a read of /proc/meminfo per message sent would cost more than the
 * message). */
#include "emu.h"
#include "kmem.h"
#include "machine.h"

#include <stdlib.h>

/* Every so many bytes charged, the host's free memory is checked. */
#define KMEM_HOST_CHECK (UINT64_C(4) << 20)

uint64_t kmem_max(const struct machine *m)
{
    return m->cfg->max_kmem ? m->cfg->max_kmem : KMEM_MAX_DEFAULT;
}

bool kmem_charge(struct machine *m, uint64_t bytes)
{
    uint64_t max = kmem_max(m);
    if (bytes > max || m->kmem_used > max - bytes)
        return false;
    m->kmem_unchecked += bytes;
    if (m->kmem_unchecked >= KMEM_HOST_CHECK) {
        bool low = host_memory_low(m, m->kmem_unchecked);
        m->kmem_unchecked = 0;
        if (low)
            return false;
    }
    m->kmem_used += bytes;
    return true;
}

void kmem_uncharge(struct machine *m, uint64_t bytes)
{
    m->kmem_used = bytes < m->kmem_used ? m->kmem_used - bytes : 0;
}

void *kmem_alloc(struct machine *m, size_t bytes)
{
    if (!kmem_charge(m, bytes))
        return NULL;
    void *p = malloc(bytes);
    if (!p)
        kmem_uncharge(m, bytes);
    return p;
}

void kmem_free(struct machine *m, void *p, size_t bytes)
{
    if (!p)
        return;
    kmem_uncharge(m, bytes);
    free(p);
}
