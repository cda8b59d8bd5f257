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
 * whatever route reaches it. Without the privilege (EPERM) it does
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

/* The host path of descriptor fd ("" when it has none). */
static void path_of(int fd, char out[PATH_MAX])
{
    char link[32];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = fd < 0 ? -1 : readlink(link, out, PATH_MAX - 1);
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

/* Each directory descriptor still points into the old namespace, where
 * everything is writable (and '..' from it climbs there): open it again by
 * its path, in place (same number, same flags). Other descriptors are the
 * files asymu holds (stdio, the program, the trace): not lookup roots. */
static int reopen_directories(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -errno;
    int err = 0;
    struct dirent *e;
    while (err == 0 && (e = readdir(d))) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        struct stat st;
        char path[PATH_MAX];
        if (*end || end == e->d_name || fd == dirfd(d) || fstat((int)fd, &st) < 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        path_of((int)fd, path);
        int fl = fcntl((int)fd, F_GETFL), fdfl = fcntl((int)fd, F_GETFD);
        if (!path[0] || fl < 0 || fdfl < 0)
            continue; /* not a path (an anonymous inode): nothing to climb */
        int keep = fl & (O_PATH | O_ACCMODE | O_NONBLOCK | O_DIRECTORY | O_NOATIME);
        int nfd = open(path, keep | O_DIRECTORY | O_CLOEXEC);
        if (nfd < 0 || dup3(nfd, (int)fd, fdfl & FD_CLOEXEC ? O_CLOEXEC : 0) < 0)
            err = -errno;
        if (nfd >= 0)
            close(nfd);
    }
    closedir(d);
    return err;
}

int mountns_readonly(const struct sandbox_paths *p, char *why, size_t whylen)
{
    char root[PATH_MAX], tmp[PATH_MAX], shm[PATH_MAX];
    path_of(p->root_writable ? p->root_fd : -1, root);
    path_of(p->tmp_fd, tmp);
    path_of(p->shm_fd, shm);
    if (p->root_writable && strcmp(root, "/") == 0)
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
    if (err == 0 && (err = reopen_directories()) < 0)
        step = "open the places again";
    if (err < 0)
        snprintf(why, whylen,
                 "cannot set up the read-only mount namespace (%s): %s "
                 "(use --no-sandbox)",
                 step, strerror(-err));
    return err < 0 ? err : 1;
}
