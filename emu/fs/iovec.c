/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iovec.c - Linux's checks of a guest's I/O buffers (iovec.h). */
#include "iovec.h"

#include "abi.h"
#include "abi_user.h"
#include "mm.h"
#include "task.h"

#include <errno.h>

#define TASK_SIZE_MAX (UINT64_C(1) << 48)

bool user_range_ok(uint64_t addr, uint64_t len)
{
    return addr <= TASK_SIZE_MAX && len <= TASK_SIZE_MAX - addr;
}

int iov_read(struct task *t, uint64_t uiov, uint64_t cnt, struct iov_list *l)
{
    bool as_read = task_abi(t)->iov_checked_as_read;
    l->n = (unsigned)cnt;
    l->total = 0;
    /* The array first, whole: iov_base a pointer, iov_len a size_t whose
     * sign is checked as it is read (compat_iovec_from_user, a 32-bit
     * ssize_t) or after the whole array (copy_iovec_from_user). */
    for (unsigned i = 0; i < l->n; i++) {
        uint64_t at = uiov + abi_longs_size(t, 2 * i);
        int64_t len = 0;
        l->v[i].base = l->v[i].len = 0;
        if (get_user_ulongs(t, at, &l->v[i].base, 1) < 0 ||
            get_user_longs(t, at + abi_longs_size(t, 1), &len, 1) < 0)
            return -EFAULT;
        l->v[i].len = (uint64_t)len;
        if (as_read && len < 0)
            return -EINVAL;
    }
    for (unsigned i = 0; i < l->n; i++)
        if ((int64_t)l->v[i].len < 0)
            return -EINVAL;
    return 0;
}

int iov_import(struct task *t, uint64_t uiov, uint64_t cnt, struct iov_list *l)
{
    int err = iov_read(t, uiov, cnt, l);
    if (err < 0)
        return err;
    for (unsigned i = 0; i < l->n; i++) {
        if (!user_range_ok(l->v[i].base, l->v[i].len))
            return -EFAULT;
        if (l->v[i].len > MAX_RW_COUNT - l->total)
            l->v[i].len = MAX_RW_COUNT - l->total;
        l->total += l->v[i].len;
    }
    return 0;
}
