/* SPDX-License-Identifier: GPL-2.0-or-later */
/* budget.c - size limits of writable mounts: see budget.h. The count is
 * kept as files change size; what unlink or a rename over a file frees is
 * not known without looking, so those mark the count stale, and a walk of
 * the mount's directory recounts it when a write would otherwise fail. */
#include "budget.h"
#include "page.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Deeper directories are not counted (the walk holds one fd per level). */
#define WALK_DEPTH 64

static uint64_t pages(uint64_t bytes)
{
    return (bytes + PAGE - 1) / PAGE * PAGE;
}

void budget_init(struct vfs_budget *b, int dirfd, uint64_t limit)
{
    *b = (struct vfs_budget){.limit = pages(limit), .dirfds = {dirfd}, .ndirs = 1};
    b->inodes_limit = b->limit / PAGE;
}

void budget_add_dir(struct vfs_budget *b, int dirfd)
{
    if (b->ndirs < BUDGET_MAX_DIRS)
        b->dirfds[b->ndirs++] = dirfd;
}

/* Inodes with more than one link, counted once. */
struct seen {
    ino_t *ino;
    size_t n, cap;
};

static bool seen_before(struct seen *s, ino_t ino)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->ino[i] == ino)
            return true;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        ino_t *grown = realloc(s->ino, cap * sizeof *grown);
        if (!grown)
            return false;
        s->ino = grown, s->cap = cap;
    }
    s->ino[s->n++] = ino;
    return false;
}

/* The page-rounded sizes of the files below dirfd; their entries added to
 * *entries. */
static uint64_t walk(int dirfd, int depth, struct seen *s, uint64_t *entries)
{
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return 0;
    }
    uint64_t sum = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
            continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
            continue;
        (*entries)++;
        if (S_ISREG(st.st_mode) && (st.st_nlink < 2 || !seen_before(s, st.st_ino)))
            sum += pages((uint64_t)st.st_size);
        if (S_ISDIR(st.st_mode) && depth < WALK_DEPTH) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                sum += walk(sub, depth + 1, s, entries);
        }
    }
    closedir(d);
    return sum;
}

static void recount(struct vfs_budget *b)
{
    struct seen s = {0};
    b->used = b->inodes = 0;
    for (unsigned i = 0; i < b->ndirs; i++) {
        int fd = openat(b->dirfds[i], ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0)
            b->used += walk(fd, 0, &s, &b->inodes);
    }
    free(s.ino);
    b->stale = false;
}

/* Bytes the files may still grow by. */
static uint64_t room(struct vfs_budget *b, uint64_t want)
{
    if (b->used + want > b->limit && b->stale)
        recount(b);
    return b->used < b->limit ? b->limit - b->used : 0;
}

int budget_fit(struct vfs_budget *b, uint64_t size, uint64_t pos, size_t *len)
{
    uint64_t end = pos + *len;
    if (end <= size)
        return 0; /* rewrites what is there */
    /* The pages past the file's last one: the room left limits the end.
     * A full mount says ENOSPC, as tmpfs does, before the size says EFBIG. */
    uint64_t max_end = pages(size) + room(b, pages(end) - pages(size));
    if (max_end <= size)
        return -ENOSPC;
    if (pos >= b->limit)
        return -EFBIG;
    if (max_end <= pos)
        return -ENOSPC;
    if (end > max_end)
        *len = (size_t)(max_end - pos);
    return 0;
}

int budget_resize(struct vfs_budget *b, uint64_t size, uint64_t new_size)
{
    if (new_size > b->limit)
        return -EFBIG;
    if (pages(new_size) > pages(size) && pages(new_size) - pages(size) > room(b, pages(new_size) - pages(size)))
        return -ENOSPC;
    return 0;
}

void budget_account(struct vfs_budget *b, uint64_t old_size, uint64_t new_size)
{
    uint64_t before = pages(old_size), after = pages(new_size);
    if (after >= before)
        b->used += after - before;
    else
        b->used -= before - after < b->used ? before - after : b->used;
}

int budget_create(struct vfs_budget *b)
{
    if (b->inodes >= b->inodes_limit && b->stale)
        recount(b);
    if (b->inodes >= b->inodes_limit)
        return -ENOSPC;
    b->inodes++;
    return 0;
}

void budget_uncreate(struct vfs_budget *b)
{
    if (b->inodes)
        b->inodes--;
}

void budget_mark_stale(struct vfs_budget *b)
{
    b->stale = true;
}

uint64_t budget_default(const char *dir)
{
    struct statvfs s;
    if (statvfs(dir, &s) < 0)
        return BUDGET_DEFAULT_MAX;
    uint64_t quarter = (uint64_t)s.f_bavail * s.f_frsize / 4;
    return quarter < BUDGET_DEFAULT_MAX ? quarter : BUDGET_DEFAULT_MAX;
}
