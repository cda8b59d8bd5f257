/* SPDX-License-Identifier: GPL-2.0-or-later */
/* owner.c - the guest-visible owners of host files (owner.h): an open
 * addressing hash table of (dev, ino) -> (uid, gid) that grows by doubling.
 * Entries are never removed: a file the guest creates again on a reused
 * inode number gets a fresh entry at its creation. */
#include "cred.h"
#include "machine.h"
#include "owner.h"
#include "task.h"
#include "vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct owner_entry {
    uint64_t dev, ino;
    uint32_t uid, gid;
    bool used;
};

struct owner_table {
    struct owner_entry *slot;
    size_t cap, n; /* cap: a power of two */
};

#define NO_ID ((uint32_t)-1)

static size_t slot_of(const struct owner_table *o, uint64_t dev, uint64_t ino)
{
    uint64_t h = (ino * 0x9e3779b97f4a7c15ull) ^ (dev * 0xc2b2ae3d27d4eb4full);
    return (size_t)(h >> 17) & (o->cap - 1);
}

static struct owner_entry *find(const struct owner_table *o, uint64_t dev, uint64_t ino)
{
    if (!o)
        return NULL;
    for (size_t i = slot_of(o, dev, ino);; i = (i + 1) & (o->cap - 1)) {
        struct owner_entry *e = &o->slot[i];
        if (!e->used)
            return NULL;
        if (e->dev == dev && e->ino == ino)
            return e;
    }
}

/* Room for one more entry: false when the host has no memory for it. */
static bool reserve(struct machine *m)
{
    struct owner_table *o = m->owners;
    if (o && (o->n + 1) * 4 < o->cap * 3)
        return true;
    size_t cap = o ? o->cap * 2 : 256;
    struct owner_entry *slot = calloc(cap, sizeof *slot);
    if (!slot || (!o && !(o = calloc(1, sizeof *o)))) {
        free(slot);
        return false;
    }
    struct owner_entry *old = o->slot;
    size_t old_cap = o->cap;
    o->slot = slot;
    o->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].used)
            continue;
        size_t j = slot_of(o, old[i].dev, old[i].ino);
        while (slot[j].used)
            j = (j + 1) & (cap - 1);
        slot[j] = old[i];
    }
    free(old);
    m->owners = o;
    return true;
}

static void set_owner(struct machine *m, const struct stat *st, uint32_t uid, uint32_t gid)
{
    struct owner_entry *e = find(m->owners, st->st_dev, st->st_ino);
    if (!e) {
        if (!reserve(m))
            return; /* the file keeps reporting its host owner */
        struct owner_table *o = m->owners;
        size_t i = slot_of(o, st->st_dev, st->st_ino);
        while (o->slot[i].used)
            i = (i + 1) & (o->cap - 1);
        e = &o->slot[i];
        *e = (struct owner_entry){.dev = st->st_dev, .ino = st->st_ino, .used = true};
        o->n++;
    }
    e->uid = uid;
    e->gid = gid;
}

void owner_apply(const struct machine *m, struct stat *st)
{
    vfs_private_root_stat(&m->vfs, st);
    const struct owner_entry *e = find(m->owners, st->st_dev, st->st_ino);
    if (e) {
        st->st_uid = e->uid;
        st->st_gid = e->gid;
    }
}

void owner_created(struct task *t, const struct stat *st, const struct stat *dir)
{
    const struct cred *c = &t->proc->cred;
    uint32_t gid = c->g.fs;
    if (dir) {
        struct stat d = *dir;
        owner_apply(t->machine, &d);
        if (d.st_mode & S_ISGID)
            gid = d.st_gid;
    }
    set_owner(t->machine, st, c->u.fs, gid);
}

void owner_created_at(struct task *t, int dirfd, const char *name)
{
    struct stat st, dir;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        owner_created(t, &st, fstat(dirfd, &dir) == 0 ? &dir : NULL);
}

/* Linux's chown_ok and chgrp_ok: CAP_CHOWN, which a non-zero fsuid takes
 * out of the effective set (cap_fix_setuid()), or the owner keeping the
 * owner and giving a group of its own. */
static bool may_chown(const struct cred *c, const struct stat *st, uint32_t uid, uint32_t gid)
{
    if (cred_capable(c, CAP_CHOWN))
        return true;
    bool owner = c->u.fs == st->st_uid;
    if (uid != NO_ID && !(owner && uid == st->st_uid))
        return false;
    return gid == NO_ID || (owner && (gid == st->st_gid || cred_in_group(c, gid)));
}

int64_t owner_chown(struct task *t, int fd, uint32_t uid, uint32_t gid)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -errno;
    owner_apply(t->machine, &st);
    if (!may_chown(&t->proc->cred, &st, uid, gid))
        return -EPERM;
    if (!S_ISDIR(st.st_mode)) {
        mode_t mode = st.st_mode & 07777;
        mode &= ~(mode_t)S_ISUID;
        if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
            mode &= ~(mode_t)S_ISGID;
        /* fd may be O_PATH, which fchmod refuses: chmod the file opened
         * again (vfs_reopen; not a symlink: Linux keeps no such bits on
         * one, nor a socket node, which cannot be opened). */
        if (mode != (st.st_mode & 07777) && !S_ISLNK(st.st_mode) && !S_ISSOCK(st.st_mode)) {
            int rfd = vfs_reopen(&t->machine->vfs, fd);
            int err = rfd < 0 ? rfd : fchmod(rfd, mode) < 0 ? -errno : 0;
            if (rfd >= 0)
                close(rfd);
            if (err < 0)
                return err;
        }
    }
    set_owner(t->machine, &st, uid == NO_ID ? st.st_uid : uid, gid == NO_ID ? st.st_gid : gid);
    return 0;
}

void owner_table_free(struct machine *m)
{
    if (m->owners)
        free(m->owners->slot);
    free(m->owners);
    m->owners = NULL;
}
