/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iovec.c - Linux's checks of a guest's I/O buffers (iovec.h). */
#include "iovec.h"

#include "abi.h"
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
    unsigned w = task_abi(t)->word;
    l->n = (unsigned)cnt;
    l->total = 0;
    /* The array first, whole: a compat length is a 32-bit ssize_t, checked
     * as it is read (compat_iovec_from_user); a native one after. */
    for (unsigned i = 0; i < l->n; i++) {
        l->v[i].base = l->v[i].len = 0;
        if (copy_from_guest(task_mm(t), &l->v[i].base, uiov + i * 2 * w, w) < 0 ||
            copy_from_guest(task_mm(t), &l->v[i].len, uiov + i * 2 * w + w, w) < 0)
            return -EFAULT;
        if (w == 4 && (int32_t)l->v[i].len < 0)
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
