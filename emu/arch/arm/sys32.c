/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys32.c - arm's calls with a 64-bit argument in a register pair, as
 * arm64 Linux takes them from a compat task (arch/arm64/kernel/sys32.c,
 * compat_sys_aarch32_pread64() and its kin; fs/read_write.c
 * compat_sys_preadv() and its kin): each joins its pairs into the one
 * 64-bit argument of arm64's call and runs the shared handler, which reads
 * only arm64's layout. The EABI aligns a pair to an even register, hence
 * the pad words and the reordered arm_fadvise64_64 and
 * arm_sync_file_range. The table's rows keep their formats, so --strace
 * shows the registers as the guest set them. */
#include "syscall_table.h"
#include "fs_calls.h"
#include "file_access.h"
#include "syscalls.h"

/* arg_u64(): a 64-bit argument from its low and high registers. */
static uint64_t pair(uint64_t lo, uint64_t hi)
{
    return hi << 32 | (lo & 0xffffffffu);
}

/* pread64(fd, buf, count, pad, pos lo, pos hi) */
SYSCALL_DECL(aarch32_pread64)
{
    return sys_pread64(t, (uint64_t[6]){a[0], a[1], a[2], pair(a[4], a[5])});
}

SYSCALL_DECL(aarch32_pwrite64)
{
    return sys_pwrite64(t, (uint64_t[6]){a[0], a[1], a[2], pair(a[4], a[5])});
}

/* truncate64(path, pad, length lo, hi) */
SYSCALL_DECL(aarch32_truncate64)
{
    return do_truncate(t, a[0], (int64_t)pair(a[2], a[3]));
}

/* ftruncate64(fd, pad, length lo, hi) */
SYSCALL_DECL(aarch32_ftruncate64)
{
    return sys_ftruncate(t, (uint64_t[6]){a[0], pair(a[2], a[3])});
}

/* fallocate(fd, mode, offset lo, hi, len lo, hi) */
SYSCALL_DECL(aarch32_fallocate)
{
    return sys_fallocate(t, (uint64_t[6]){a[0], a[1], pair(a[2], a[3]), pair(a[4], a[5])});
}

/* arm_fadvise64_64(fd, advice, offset lo, hi, len lo, hi) */
SYSCALL_DECL(aarch32_fadvise64_64)
{
    return do_fadvise(t, (int)a[0], (int64_t)pair(a[4], a[5]), (int)a[1]);
}

/* arm_sync_file_range(fd, flags, offset lo, hi, nbytes lo, hi): arm's
 * sync_file_range2, flags second so that the pairs are aligned. */
SYSCALL_DECL(aarch32_sync_file_range2)
{
    return do_sync_file_range(t, (int)a[0], (int64_t)pair(a[2], a[3]), (int64_t)pair(a[4], a[5]),
                              (unsigned)a[1]);
}

/* preadv(fd, iov, cnt, pos lo, pos hi) and the others: the offset's
 * halves in two registers, unaligned (compat_sys_preadv()); the *v2
 * calls' flags after them. */
static const uint64_t *joined_pos(const uint64_t a[6], uint64_t b[6])
{
    b[0] = a[0], b[1] = a[1], b[2] = a[2], b[3] = pair(a[3], a[4]), b[4] = 0, b[5] = a[5];
    return b;
}

SYSCALL_DECL(compat_preadv)
{
    uint64_t b[6];
    return sys_preadv(t, joined_pos(a, b));
}

SYSCALL_DECL(compat_pwritev)
{
    uint64_t b[6];
    return sys_pwritev(t, joined_pos(a, b));
}

SYSCALL_DECL(compat_preadv2)
{
    uint64_t b[6];
    return sys_preadv2(t, joined_pos(a, b));
}

SYSCALL_DECL(compat_pwritev2)
{
    uint64_t b[6];
    return sys_pwritev2(t, joined_pos(a, b));
}
