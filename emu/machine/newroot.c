/* SPDX-License-Identifier: GPL-2.0-or-later */
/* newroot.c - the only host tree the confined emulator can name. Landlock
 * bounds opens but not look-ups (stat, statx, readlink, access, O_PATH
 * opens), and seccomp cannot read a path, so with the host's tree as its
 * root a takeover could learn whether any host path exists and its
 * metadata (owner, mode, size, times, a symlink's target). So, where asymu
 * may (root, inside mountns.c's read-only mount namespace), it builds a
 * new root: an empty tmpfs, made read-only, holding a clone of each
 * directory asymu holds (the guest's places, -L, a scenario's programs,
 * its /proc/self/fd) at its own absolute path, read-only or writable as
 * in the namespace; it pivots into it and detaches the host's tree. An
 * absolute path, '..' out of a place, or /proc/self/fd/../root then
 * resolves in that tree: ENOENT for every host path outside the places.
 * Paths keep their strings, so a descriptor's readlink (vfs.c's host to
 * guest mapping) is unchanged. The caller opens its descriptors again in
 * the new tree (an old one would lead back to the host's). */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Where the new root's tmpfs is mounted while it is built, in this
 * namespace only: the places are cloned from their descriptors, so what
 * it covers does not matter. */
#define STAGE "/tmp"

/* Makes the directories of rel (relative to dir) that are missing: the
 * skeleton between the new root and a place. A directory inside a place
 * placed before already exists there (EEXIST comes before EROFS). */
static int make_dirs(int dir, const char *rel)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", rel);
    for (char *s = path;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdirat(dir, path, 0755) < 0 && errno != EEXIST)
            return -errno;
        if (c == '\0')
            return 0;
        *s = c;
    }
}

/* A clone of the tree at fd (its submounts too, with their flags) mounted
 * at rel in the new root. */
static int place(int root, int fd, const char *rel)
{
    int err = make_dirs(root, rel);
    if (err < 0)
        return err;
    int tree =
        open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
    if (tree < 0)
        return -errno;
    err = move_mount(tree, "", root, rel, MOVE_MOUNT_F_EMPTY_PATH) < 0 ? -errno : 0;
    close(tree);
    return err;
}

static int by_length(const void *a, const void *b)
{
    const struct held_dir *x = a, *y = b;
    size_t lx = strlen(x->path), ly = strlen(y->path);
    return lx != ly ? (lx > ly) - (lx < ly) : strcmp(x->path, y->path);
}

#ifdef ASYMU_SANITIZED
/* Sanitizer builds only: LeakSanitizer's check at exit reads /proc/self
 * (maps, task; landlock.c). Its suppressions are built in
 * (tests/sanitize/lsan_suppressions.c). */
static int place_sanitizer(int root)
{
    int fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    int err = fd < 0 ? 0 : place(root, fd, "proc");
    if (fd >= 0)
        close(fd);
    return err;
}
#endif

/* The tmpfs with every place in it, its own directories read-only: a
 * descriptor on its root, or a negative errno with step set. */
static int build(struct held_dir *dirs, size_t n, const char **step)
{
    *step = "mount the new root";
    if (mount("asymu-root", STAGE, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755") < 0)
        return -errno;
    int root = open(STAGE, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0)
        return -errno;
    qsort(dirs, n, sizeof *dirs, by_length); /* a place before those inside it */
    int err = 0;
    for (size_t i = 0; i < n && err == 0; i++)
        if (i == 0 || strcmp(dirs[i].path, dirs[i - 1].path) != 0)
            if ((err = place(root, dirs[i].fd, dirs[i].path + 1)) < 0)
                *step = dirs[i].path;
#ifdef ASYMU_SANITIZED
    if (err == 0 && (err = place_sanitizer(root)) < 0)
        *step = "place /proc for LeakSanitizer";
#endif
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
    if (err == 0 && mount_setattr(root, "", AT_EMPTY_PATH, &ro, sizeof ro) < 0) {
        err = -errno;
        *step = "make the new root read-only";
    }
    if (err < 0)
        close(root);
    return err < 0 ? err : root;
}

int newroot_enter(struct held_dir *dirs, size_t n, char *why, size_t whylen)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(dirs[i].path, "/") == 0)
            return 0; /* the whole host is a place (--sysroot /): nothing to leave out */
    const char *step = "open /";
    int old = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int root = old < 0 ? -errno : build(dirs, n, &step);
    int err = root < 0 ? root : 0;
    /* pivot_root(".", ".") puts the old root on top of the new one; from
     * it, umount2(MNT_DETACH) takes the host's whole tree away (Linux's
     * pivot_root(2), "new_root and put_old may be the same directory").
     * An initramfs root cannot be pivoted from (EINVAL): chroot instead;
     * the host's tree stays mounted but no path leads there (seccomp
     * allows no chroot to climb out, and every descriptor is opened
     * again in the new root). */
    step = err < 0 ? step : "pivot into the new root";
    if (err == 0 && fchdir(root) < 0)
        err = -errno;
    if (err == 0 && syscall(SYS_pivot_root, ".", ".") == 0) {
        if (fchdir(old) < 0 || umount2(".", MNT_DETACH) < 0 || chdir("/") < 0) {
            err = -errno;
            step = "detach the host's tree";
        }
    } else if (err == 0 && (errno != EINVAL || chroot(".") < 0 || chdir("/") < 0)) {
        err = -errno;
    }
    if (root >= 0)
        close(root);
    if (old >= 0)
        close(old);
    if (err < 0)
        snprintf(why, whylen, "cannot set up the new root (%s): %s (use --no-sandbox)", step,
                 strerror(-err));
    return err < 0 ? err : 1;
}
