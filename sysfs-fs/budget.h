/* SPDX-License-Identifier: GPL-2.0-or-later */
/* budget.h - a size limit for writable mounts (budget.c): the guest's
 * private /tmp and /dev/shm share one (--tmp-size).
 *
 * Counted as tmpfs counts, in 4 KiB pages, but of file sizes: a hole
 * counts as if it held data, so the count never depends on how the host
 * file system allocates. A file can grow no larger than the limit (EFBIG,
 * as a file system's maximum file size), and the files together no larger
 * than the limit (ENOSPC; a write that crosses it writes what fits).
 *
 * Entries count too, as tmpfs's nr_inodes (shmem_reserve_inode): every
 * file, directory, symlink, FIFO and socket node, a file with several
 * links once per link as Linux 5.15 counts them; one entry per 4 KiB page
 * of the limit, so that empty files cannot fill the host's file system
 * with inodes (issue 24, item 10). Past it, creating fails with ENOSPC. */
#ifndef ASYMU_BUDGET_H
#define ASYMU_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BUDGET_MAX_DIRS 2

struct vfs_budget {
    uint64_t limit; /* bytes, a whole number of pages */
    uint64_t used;  /* the page-rounded sizes of the mount's files */
    uint64_t inodes_limit, inodes; /* entries allowed, and made */
    bool stale;     /* files shrank or went away: recount before refusing */
    int dirfds[BUDGET_MAX_DIRS]; /* the host directories of the mounts sharing it */
    unsigned ndirs;
};

/* A budget of `limit` bytes (rounded up to pages) for the files below the
 * host directory dirfd (kept open by the caller). */
void budget_init(struct vfs_budget *b, int dirfd, uint64_t limit);
/* Another directory whose files count against the same budget. */
void budget_add_dir(struct vfs_budget *b, int dirfd);
/* A file of size `size` is about to get *len bytes at pos: *len shortened
 * to what fits, or -EFBIG (pos at or past the limit) or -ENOSPC (no room
 * left). */
int budget_fit(struct vfs_budget *b, uint64_t size, uint64_t pos, size_t *len);
/* A file is about to be resized from size to new_size (truncate,
 * fallocate): 0, -EFBIG or -ENOSPC. */
int budget_resize(struct vfs_budget *b, uint64_t size, uint64_t new_size);
/* A file changed size (after a write, truncate or fallocate). */
void budget_account(struct vfs_budget *b, uint64_t old_size, uint64_t new_size);
/* The guest is about to create an entry (a file, a directory, a symlink, a
 * node, a link): 0 with it counted, or -ENOSPC when the count is at its
 * limit (shmem_reserve_inode). budget_uncreate gives it back when the host
 * call failed. */
int budget_create(struct vfs_budget *b);
void budget_uncreate(struct vfs_budget *b);
/* Something may have freed space (unlink, rename over a file, O_TRUNC). */
void budget_mark_stale(struct vfs_budget *b);
/* The host file system's free space under dir, a quarter of it, at most
 * BUDGET_DEFAULT_MAX (also when it cannot be known): --tmp-size's default. */
uint64_t budget_default(const char *dir);
#define BUDGET_DEFAULT_MAX (UINT64_C(16) << 30)

#endif
