/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi_user.c - the guest's longs in its ABI's width (abi_user.h). */
#include "abi_user.h"

#include <errno.h>
#include <string.h>

#include "abi.h"
#include "mm.h"
#include "task.h"

/* At most this many longs in one call: the structures read this way are
 * small (struct mq_attr's eight is the largest). */
#define ABI_USER_MAX_LONGS 16

size_t abi_longs_size(struct task *t, unsigned n)
{
    return (size_t)n * task_abi(t)->word;
}

static int get_raw(struct task *t, uint64_t addr, uint64_t *v, unsigned n, int sign)
{
    const struct abi *abi = task_abi(t);
    uint8_t raw[ABI_USER_MAX_LONGS * 8];
    if (n > ABI_USER_MAX_LONGS || copy_from_guest(task_mm(t), raw, addr, abi_longs_size(t, n)) < 0)
        return -EFAULT;
    for (unsigned i = 0; i < n; i++) {
        if (abi->word == 8) {
            memcpy(&v[i], raw + 8 * i, 8);
        } else {
            uint32_t x;
            memcpy(&x, raw + 4 * i, 4);
            v[i] = sign ? (uint64_t)(int64_t)(int32_t)x : x;
        }
    }
    return 0;
}

int get_user_longs(struct task *t, uint64_t addr, int64_t *v, unsigned n)
{
    return get_raw(t, addr, (uint64_t *)v, n, 1);
}

int get_user_ulongs(struct task *t, uint64_t addr, uint64_t *v, unsigned n)
{
    return get_raw(t, addr, v, n, 0);
}

int put_user_longs(struct task *t, uint64_t addr, const int64_t *v, unsigned n)
{
    const struct abi *abi = task_abi(t);
    uint8_t raw[ABI_USER_MAX_LONGS * 8];
    if (n > ABI_USER_MAX_LONGS)
        return -EFAULT;
    for (unsigned i = 0; i < n; i++) {
        if (abi->word == 8) {
            memcpy(raw + 8 * i, &v[i], 8);
        } else {
            uint32_t x = (uint32_t)v[i];
            memcpy(raw + 4 * i, &x, 4);
        }
    }
    return copy_to_guest(task_mm(t), addr, raw, abi_longs_size(t, n)) < 0 ? -EFAULT : 0;
}

uint64_t abi_ulong_at(struct task *t, const void *raw)
{
    uint64_t v = 0;
    memcpy(&v, raw, abi_longs_size(t, 1)); /* little-endian, as both ISAs and the host */
    return v;
}

unsigned abi_time_field(struct task *t)
{
    return (unsigned)abi_longs_size(t, 1);
}
