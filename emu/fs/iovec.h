/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iovec.h - a guest's buffers for reads and writes, checked as Linux's
 * access_ok and import_iovec check them before any byte moves. */
#ifndef ASYMU_IOVEC_H
#define ASYMU_IOVEC_H

#include <stdbool.h>
#include <stdint.h>

struct task;

/* Linux's UIO_MAXIOV: the most buffers one call takes. */
#define UIO_MAXIOV 1024
/* Linux's MAX_RW_COUNT: what one read or write moves at most (INT_MAX
 * rounded down to a page); longer requests are cut to it, not refused. */
#define MAX_RW_COUNT 0x7ffff000u

struct iov_list {
    unsigned n;
    uint64_t total; /* the sum of the lengths, at most MAX_RW_COUNT */
    struct {
        uint64_t base, len;
    } v[UIO_MAXIOV];
};

/* arm64's access_ok: [addr, addr + len) lies below TASK_SIZE_MAX (48-bit
 * addresses, for compat tasks too). Mapped or not is found later. */
bool user_range_ok(uint64_t addr, uint64_t len);

/* Linux's iovec_from_user for cnt (<= UIO_MAXIOV, which callers check:
 * each call names its own error) iovecs of t's ABI at uiov: EFAULT when
 * the array cannot be read, EINVAL for a length negative as the ABI's
 * ssize_t. 0 or the error; l->total is left 0. */
int iov_read(struct task *t, uint64_t uiov, uint64_t cnt, struct iov_list *l);

/* Linux's import_iovec: iov_read, then EFAULT for a buffer outside the
 * user address space; lengths past MAX_RW_COUNT in all are cut (later ones
 * to 0), l->total is their sum. 0 or the error. */
int iov_import(struct task *t, uint64_t uiov, uint64_t cnt, struct iov_list *l);

#endif
