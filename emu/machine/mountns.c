/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mountns.c - the host seen read-only by the confined emulator, except the
 * guest's writable places. Landlock grants reading beneath the sysroot
 * (the whole host with the default --sysroot /), and a file opened for
 * reading can still have its mode, times and extended attributes changed
 * (fchmod, futimens, fsetxattr check ownership, not the open mode), which
 * Landlock has no right for. So, where asymu may (root), it moves into a
 * private mount namespace whose every mount is read-only, binds the
 * writable places (the private /tmp and /dev/shm, the sysroot under --rw)
 * read-write at their own paths, and opens every directory it holds again
 * in that namespace: a change to any other host file is then EROFS,
 * whatever route reaches it. Then, unless the sysroot is the whole host,
 * it leaves the host's tree for a new root holding only those directories
 * (newroot.c), where no look-up reaches another host path, and opens
 * them again there. Without the privilege (EPERM) it does
 * nothing; docs/security.md says what then remains. The janitor, forked
 * before, stays in the host's namespace and still cleans up there. */
#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* The host path of descriptor fd, read through fds, a descriptor on
 * /proc/self/fd ("" when it has none). */
static void path_of(int fds, int fd, char out[PATH_MAX])
{
    char name[16];
    snprintf(name, sizeof name, "%d", fd);
    ssize_t n = fd < 0 ? -1 : readlinkat(fds, name, out, PATH_MAX - 1);
    out[n > 0 && out[0] == '/' ? n : 0] = '\0';
}

/* Binds path onto itself, read-write (the bind copies the read-only flag
 * of the mount it comes from; mount_setattr clears it on the new mount). */
static int writable_here(const char *path)
{
    struct mount_attr rw = {.attr_clr = MOUNT_ATTR_RDONLY};
    if (mount(path, path, NULL, MS_BIND | MS_REC, NULL) < 0 ||
        mount_setattr(AT_FDCWD, path, AT_RECURSIVE, &rw, sizeof rw) < 0)
        return -errno;
    return 0;
}

/* The directory descriptors asymu holds (but fds itself), with their
 * paths: the roots of every look-up it can make. Other descriptors are
 * the files it holds (stdio, the program, the trace): a path cannot
 * continue from them. An anonymous inode has no path: nothing to climb. */
static int held_directories(int fds, struct held_dir **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    int lfd = openat(fds, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = lfd < 0 ? NULL : fdopendir(lfd);
    if (!d) {
        int err = -errno;
        if (lfd >= 0)
            close(lfd);
        return err;
    }
    struct held_dir *dirs = NULL;
    size_t n = 0;
    int err = 0;
    struct dirent *e;
    while (err == 0 && (e = readdir(d))) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        struct stat st;
        if (*end || end == e->d_name || fd == dirfd(d) || fd == fds || fstat((int)fd, &st) < 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        struct held_dir *more = realloc(dirs, (n + 1) * sizeof *dirs);
        if (!more) {
            err = -ENOMEM;
            break;
        }
        dirs = more;
        dirs[n].fd = (int)fd;
        path_of(fds, (int)fd, dirs[n].path);
        n += dirs[n].path[0] != '\0';
    }
    closedir(d);
    if (err < 0)
        free(dirs);
    *out = err < 0 ? NULL : dirs;
    *count = err < 0 ? 0 : n;
    return err;
}

/* Each directory descriptor still points into the tree it was opened in
 * (the host's namespace, where everything is writable and '..' climbs
 * anywhere): open it again by its path, in place (same number, same
 * flags). */
static int reopen_directories(const struct held_dir *dirs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int fd = dirs[i].fd;
        int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);
        if (fl < 0 || fdfl < 0)
            return -errno;
        int keep = fl & (O_PATH | O_ACCMODE | O_NONBLOCK | O_DIRECTORY | O_NOATIME);
        int nfd = open(dirs[i].path, keep | O_DIRECTORY | O_CLOEXEC);
        int err = nfd < 0 || dup3(nfd, fd, fdfl & FD_CLOEXEC ? O_CLOEXEC : 0) < 0 ? -errno : 0;
        if (nfd >= 0)
            close(nfd);
        if (err < 0)
            return err;
    }
    return 0;
}

/* The read-only namespace set up: every held directory opened again in
 * it, then in the new root (newroot.c) where there is one. */
static int move_directories(int fds, char *why, size_t whylen, const char **step)
{
    struct held_dir *dirs;
    size_t n;
    int err = held_directories(fds, &dirs, &n);
    *step = "list the places";
    if (err == 0 && (err = reopen_directories(dirs, n)) < 0)
        *step = "open the places again";
    int moved = err < 0 ? err : newroot_enter(dirs, n, why, whylen);
    if (moved < 0)
        err = moved, *step = NULL; /* why is set */
    if (moved > 0 && (err = reopen_directories(dirs, n)) < 0)
        *step = "open the places again in the new root";
    free(dirs);
    return err;
}

/* root is the sysroot's path under --rw, else "". */
static int mountns_enter(int fds, const char *root, const char *tmp, const char *shm, char *why,
                         size_t whylen)
{
    if (strcmp(root, "/") == 0)
        return 0; /* --rw on the whole host: nothing to keep read-only */
    if (unshare(CLONE_NEWNS) < 0) {
        if (errno == EPERM)
            return 0; /* not root: the layer is left out */
        snprintf(why, whylen, "cannot unshare the mount namespace: %s (use --no-sandbox)",
                 strerror(errno));
        return -errno;
    }
    /* Private first: nothing done here may reach the host's namespace.
     * Either step failing (a kernel before 5.12 has no mount_setattr; it
     * changes all mounts or none) leaves the copy as the host's: the
     * layer is left out, as without the privilege. */
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
        mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof ro) < 0)
        return 0;
    const char *step = "";
    int err = 0;
    const char *const writable[] = {root, tmp, shm};
    for (size_t i = 0; i < 3 && err == 0; i++)
        if (writable[i][0] && (err = writable_here(writable[i])) < 0)
            step = writable[i];
    if (err == 0)
        err = move_directories(fds, why, whylen, &step);
    if (err < 0 && step)
        snprintf(why, whylen,
                 "cannot set up the read-only mount namespace (%s): %s "
                 "(use --no-sandbox)",
                 step, strerror(-err));
    return err < 0 ? err : 1;
}

int mountns_readonly(const struct sandbox_paths *p, char *why, size_t whylen)
{
    char root[PATH_MAX], tmp[PATH_MAX], shm[PATH_MAX];
    int fds = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fds < 0) {
        snprintf(why, whylen, "cannot open /proc/self/fd: %s (use --no-sandbox)", strerror(errno));
        return -errno;
    }
    path_of(fds, p->root_writable ? p->root_fd : -1, root);
    path_of(fds, p->tmp_fd, tmp);
    path_of(fds, p->shm_fd, shm);
    int err = mountns_enter(fds, root, tmp, shm, why, whylen);
    close(fds);
    return err;
}
