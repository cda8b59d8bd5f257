/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vfs.c - confined path resolution under the guest root and the table of
 * virtual nodes (/dev, /proc, /sys). Host lookups use openat2(RESOLVE_IN_ROOT)
 * so "..", absolute and relative symlinks all stay inside the root, and files
 * of the host's own pseudo filesystems are refused even when a symlink in the
 * root points at them. */
#include "vfs.h"
#include "mqueue_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <ftw.h>
#include <stdlib.h>
#include <unistd.h>

/* Bans the filesystem mounted at host_path, if something is mounted there. */
static void ban_mount_at(struct vfs *v, const char *host_path)
{
    struct stat st, root;
    if (v->nbanned < VFS_MAX_BANNED_DEVS && stat(host_path, &st) == 0 && stat("/", &root) == 0 &&
        st.st_dev != root.st_dev)
        v->banned[v->nbanned++] = st.st_dev;
}

static int open_dir(const char *path, const char *what, char *why, size_t whylen)
{
    int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        snprintf(why, whylen, "%s '%s': %s", what, path, strerror(err));
        return -err;
    }
    return fd;
}

/* Makes the host directory behind private mount idx: host_path gets
 * $TMPDIR/asymu-NAME-XXXXXX, mode 0700 when the guest writes it (under the
 * size limit of /tmp; the guest sees 01777, vfs_private_root_stat), else
 * 0755 (the scenario's programs, read-only to the guest). 0700: another
 * host user may neither read the guest's files nor plant one in them. */
static int make_private(struct vfs *v, int idx, const char *prefix, const char *name,
                        bool guest_writes, char *host_path, char *why, size_t whylen)
{
    const char *base = getenv("TMPDIR");
    base = base && *base ? base : "/tmp";
    snprintf(host_path, VFS_PATH_MAX, "%s/asymu-%s-XXXXXX", base, name);
    if (!mkdtemp(host_path)) {
        int err = errno;
        snprintf(why, whylen, "cannot create the guest's %s under %s: %s", prefix, base,
                 strerror(err));
        host_path[0] = '\0';
        return -err;
    }
    chmod(host_path, guest_writes ? 0700 : 0755);
    v->mounts[idx] =
        (struct vfs_mount){prefix, -1, guest_writes, guest_writes ? &v->tmp_budget : NULL};
    return v->mounts[idx].fd = open_dir(host_path, prefix, why, whylen);
}

/* /tmp and /dev/shm, with the size limit they share. */
static int make_private_mounts(struct vfs *v, uint64_t tmp_size, char *why, size_t whylen)
{
    int tmp = make_private(v, VFS_MOUNT_TMP, "/tmp", "tmp", true, v->tmp_path, why, whylen);
    if (tmp < 0)
        return tmp;
    int shm = make_private(v, VFS_MOUNT_SHM, "/dev/shm", "shm", true, v->shm_path, why, whylen);
    if (shm < 0)
        return shm;
    budget_init(&v->tmp_budget, tmp, tmp_size ? tmp_size : budget_default(v->tmp_path));
    budget_add_dir(&v->tmp_budget, shm);
    int fds[2] = {tmp, shm};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (fstat(fds[i], &st) < 0)
            return -errno;
        v->private_roots[i] = (struct vfs_private_root){st.st_dev, st.st_ino, 01777};
    }
    return 0;
}

static struct vfs_private_root *private_root(const struct vfs *v, const struct stat *st)
{
    for (int i = 0; i < 2; i++) {
        const struct vfs_private_root *r = &v->private_roots[i];
        if (r->ino && r->dev == st->st_dev && r->ino == st->st_ino)
            return (struct vfs_private_root *)r;
    }
    return NULL;
}

void vfs_private_root_stat(const struct vfs *v, struct stat *st)
{
    const struct vfs_private_root *r = private_root(v, st);
    if (r)
        st->st_mode = (st->st_mode & S_IFMT) | r->mode;
}

bool vfs_private_root_chmod(struct vfs *v, const struct stat *st, mode_t mode)
{
    struct vfs_private_root *r = private_root(v, st);
    if (r)
        r->mode = mode & 07777;
    return r != NULL;
}

int vfs_init(struct vfs *v, const struct vfs_options *o, const struct vfs_provider *provider,
             char *why, size_t whylen)
{
    memset(v, 0, sizeof *v);
    v->lib_fd = -1;
    v->provider = provider;
    v->self_fds = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
    v->keep_tmp = o->keep_tmp;
    for (int i = 0; i < VFS_NMOUNTS; i++)
        v->mounts[i].fd = -1;
    v->mounts[VFS_MOUNT_ROOT] = (struct vfs_mount){"/", -1, o->rw, NULL};
    int err = v->mounts[VFS_MOUNT_ROOT].fd = open_dir(o->sysroot, "--sysroot", why, whylen);
    if (err >= 0 && o->libprefix)
        err = v->lib_fd = open_dir(o->libprefix, "-L", why, whylen);
    if (err >= 0)
        err = make_private_mounts(v, o->tmp_size, why, whylen);
    if (err >= 0 && (!realpath(o->sysroot, v->root_real) || !realpath(v->tmp_path, v->tmp_real) ||
                     !realpath(v->shm_path, v->shm_real)))
        err = -errno;
    if (err < 0) {
        vfs_destroy(v);
        return err;
    }
    static const char *const pseudo[] = {"/proc", "/sys", "/dev", "/dev/pts", "/dev/shm",
                                         "/dev/mqueue", "/sys/fs/cgroup", "/run"};
    for (size_t i = 0; i < sizeof pseudo / sizeof *pseudo; i++)
        ban_mount_at(v, pseudo[i]);
    return 0;
}

int vfs_mount_programs(struct vfs *v, char *why, size_t whylen)
{
    int fd = make_private(v, VFS_MOUNT_PROGRAMS, VFS_PROGRAMS_DIR, "programs", false,
                          v->programs_path, why, whylen);
    if (fd < 0)
        return fd;
    if (realpath(v->programs_path, v->programs_real))
        return 0;
    int err = errno;
    snprintf(why, whylen, "cannot resolve %s: %s", v->programs_path, strerror(err));
    return -err;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

void vfs_destroy(struct vfs *v)
{
    if (v->lib_fd >= 0)
        close(v->lib_fd);
    if (v->self_fds >= 0)
        close(v->self_fds);
    for (int i = 0; i < VFS_NMOUNTS; i++)
        if (v->mounts[i].fd >= 0)
            close(v->mounts[i].fd);
    const char *const private[][2] = {
        {"/tmp", v->tmp_path}, {"/dev/shm", v->shm_path}, {VFS_PROGRAMS_DIR, v->programs_path}};
    for (size_t i = 0; i < sizeof private / sizeof *private; i++) {
        if (!private[i][1][0])
            continue;
        if (v->keep_tmp && private[i][1] != v->programs_path)
            fprintf(stderr, "asymu: the guest's %s is kept in %s\n", private[i][0], private[i][1]);
        else
            nftw(private[i][1], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    memset(v, 0, sizeof *v);
    v->lib_fd = v->self_fds = -1;
}

int vfs_join(const char *cwd, const char *path, char *out, size_t len)
{
    char buf[2 * VFS_PATH_MAX + 2];
    if (path[0] == '\0')
        return -ENOENT;
    if (strlen(path) >= VFS_PATH_MAX || strlen(cwd) >= VFS_PATH_MAX)
        return -ENAMETOOLONG;
    if (path[0] == '/')
        snprintf(buf, sizeof buf, "%s", path);
    else
        snprintf(buf, sizeof buf, "%s/%s", cwd, path);

    size_t o = 0;
    char *save = NULL;
    for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (strcmp(c, ".") == 0)
            continue;
        if (strcmp(c, "..") == 0) {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
            continue;
        }
        size_t n = strlen(c);
        if (o + 1 + n + 1 > len)
            return -ENAMETOOLONG;
        out[o++] = '/';
        memcpy(out + o, c, n);
        o += n;
    }
    if (o == 0)
        out[o++] = '/';
    out[o] = '\0';
    return 0;
}

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* In /dev, /proc or /sys, but not in the host directory behind /dev/shm. */
static bool is_virtual(const char *path)
{
    return (under(path, "/dev") && !under(path, "/dev/shm")) || under(path, "/proc") ||
           under(path, "/sys");
}

/* The guest path of a host directory, through the mount that holds it. */
static int guest_path_of_host(const struct vfs *v, const char *host, char *out, size_t len)
{
    const char *const private[][2] = {
        {"/tmp", v->tmp_real}, {"/dev/shm", v->shm_real}, {VFS_PROGRAMS_DIR, v->programs_real}};
    for (size_t i = 0; i < sizeof private / sizeof *private; i++)
        if (private[i][1][0] && under(host, private[i][1]))
            return snprintf(out, len, "%s%s", private[i][0], host + strlen(private[i][1])) < (int)len
                       ? 0
                       : -ENAMETOOLONG;
    size_t rl = strcmp(v->root_real, "/") == 0 ? 0 : strlen(v->root_real);
    if (strncmp(host, v->root_real, rl) == 0 && (host[rl] == '\0' || host[rl] == '/'))
        return snprintf(out, len, "%s", host[rl] ? host + rl : "/") < (int)len ? 0 : -ENAMETOOLONG;
    return -ENOENT;
}

int vfs_reopen(const struct vfs *v, int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0)
        return -errno;
    if (!(fl & O_PATH)) {
        int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        return copy < 0 ? -errno : copy;
    }
    char name[16];
    snprintf(name, sizeof name, "%d", fd);
    const int how = O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    int r = openat(v->self_fds, name, O_RDONLY | how);
    if (r < 0 && errno == EACCES) /* a file its owner may write, not read */
        r = openat(v->self_fds, name, O_WRONLY | how);
    return r < 0 ? -errno : r;
}

static int open_in(const struct vfs *v, int dirfd, const char *rel, int flags, int mode);
static const struct vfs_mount *mount_of(const struct vfs *v, const char *abspath,
                                        const char **rel);

/* Replaces the guest path in cur by its canonical form (symlinks resolved).
 * The directory is the mount's (or, missing from the private /tmp, the
 * root's /tmp underneath), never -L's, whose host path is no guest path. */
static int canonicalize(struct vfs *v, char *cur, size_t len, bool dir)
{
    const char *rel;
    const struct vfs_mount *m = mount_of(v, cur, &rel);
    int flags = O_PATH | (dir ? O_DIRECTORY : 0);
    int fd = open_in(v, m->fd, rel, flags, 0);
    if (fd == -ENOENT && m == &v->mounts[VFS_MOUNT_TMP] && *rel)
        fd = open_in(v, v->mounts[VFS_MOUNT_ROOT].fd, cur + 1, flags, 0);
    if (fd < 0)
        return fd;
    int err = vfs_fd_path(v, fd, cur, len);
    close(fd);
    return err;
}

int vfs_fd_path(struct vfs *v, int fd, char *out, size_t len)
{
    char name[16], host[VFS_PATH_MAX];
    snprintf(name, sizeof name, "%d", fd);
    ssize_t n = readlinkat(v->self_fds, name, host, sizeof host - 1);
    if (n < 0)
        return -errno;
    host[n] = '\0';
    return guest_path_of_host(v, host, out, len);
}

int vfs_canonical(struct vfs *v, void *ctx, const char *dir, char *out, size_t len)
{
    char cur[VFS_PATH_MAX];
    int err = vfs_follow(v, ctx, dir, cur, sizeof cur);
    if (err == 0 && !is_virtual(cur))
        err = canonicalize(v, cur, sizeof cur, false);
    if (err == 0 && snprintf(out, len, "%s", cur) >= (int)len)
        err = -ENAMETOOLONG;
    return err;
}

int vfs_directory(struct vfs *v, void *ctx, const char *abspath, char *out, size_t len)
{
    struct stat st;
    int err = vfs_stat(v, ctx, abspath, true, &st);
    if (err == 0 && !S_ISDIR(st.st_mode))
        err = -ENOTDIR;
    return err < 0 ? err : vfs_canonical(v, ctx, abspath, out, len);
}

/* The target of a symlink of a private mount (/tmp, /dev/shm) at guest
 * path cur, whose directories hold no symlinks (the walk resolved them):
 * its length, or -ENOENT when cur is not in the private directory (it may
 * be in the sysroot's /tmp underneath), -EINVAL when it is not a symlink.
 * Such links need the walk: their targets are guest paths, which
 * RESOLVE_IN_ROOT on the mount's own directory would read as paths inside
 * it. */
static int private_readlink(const struct vfs *v, const char *cur, char *buf, size_t len)
{
    int idx = vfs_mount_index(v, cur);
    const char *rel = cur + strlen(v->mounts[idx].prefix);
    if (idx == VFS_MOUNT_ROOT || *rel != '/')
        return -EINVAL;
    /* cur is normalised and its directories are no symlinks: the lookup
     * stays inside the directory without openat2's help. */
    ssize_t r = readlinkat(v->mounts[idx].fd, rel + 1, buf, len);
    return r < 0 ? -errno : (int)r;
}

/* The calling process's root directory (chroot(2)): "/" for none. */
static void process_root(const struct vfs *v, void *ctx, char *root, size_t len)
{
    snprintf(root, len, "/");
    if (ctx && v->provider && v->provider->root) {
        int n = v->provider->root(ctx, 0, root, len - 1);
        if (n > 0)
            root[n] = '\0';
        else
            snprintf(root, len, "/");
    }
}

/* A host-backed cur, whose directories the walk has resolved: the length
 * of its target when it is a symlink (read into buf), 0 when it is none
 * (*dir telling whether it is a directory), or -errno. The lookup goes
 * through vfs_open_host, confined to the mount as every other. */
static int host_link(struct vfs *v, const char *cur, char *buf, size_t len, bool *dir)
{
    int fd = vfs_open_host(v, cur, O_PATH | O_NOFOLLOW, 0);
    if (fd < 0)
        return fd;
    struct stat st;
    int r = fstat(fd, &st) < 0 ? -errno : 0;
    *dir = r == 0 && S_ISDIR(st.st_mode);
    if (r == 0 && S_ISLNK(st.st_mode)) {
        ssize_t n = readlinkat(fd, "", buf, len);
        r = n < 0 ? -errno : (int)n;
    }
    close(fd);
    return r;
}

/* Whether abspath is a directory above a private mount's prefix. */
static bool leads_to_mount(const struct vfs *v, const char *abspath)
{
    for (int i = VFS_MOUNT_TMP; i < VFS_NMOUNTS; i++)
        if (v->mounts[i].fd >= 0 && under(v->mounts[i].prefix, abspath) &&
            strcmp(v->mounts[i].prefix, abspath) != 0)
            return true;
    return false;
}

/* What a walk does: start is where a relative path starts; an absolute
 * path starts at the process's root unless global (vfs_follow's paths are
 * guest paths already); follow_last follows a symlink at the end, but a
 * magic link there is left for the open when stop_magic; resolve holds
 * openat2's RESOLVE_* bits. */
struct walk_how {
    const char *start;
    bool global, follow_last, stop_magic;
    unsigned resolve;
};

/* Walks path component by component, as vfs_resolve describes. A walk
 * under a chroot or with RESOLVE_* bits reads every symlink itself
 * (link_path_walk(), step_into(), pick_link()): its root is the process's
 * (or, scoped, the start), ".." stops there (follow_dotdot()), and the host
 * lookup after it meets no symlink left to follow. Other walks leave the
 * root's symlinks to the host's RESOLVE_IN_ROOT, under the sysroot. */
static int walk(struct vfs *v, void *ctx, const struct walk_how *how, const char *path,
                char *out, size_t len)
{
    char rest[2 * VFS_PATH_MAX + 2], cur[VFS_PATH_MAX] = "", root[VFS_PATH_MAX];
    char base[VFS_PATH_MAX];
    const char *cwd = how->start;
    unsigned resolve = how->resolve;
    if (path[0] == '\0')
        return -ENOENT;
    if (strlen(path) >= VFS_PATH_MAX || strlen(cwd) >= VFS_PATH_MAX)
        return -ENAMETOOLONG;
    if (resolve & VFS_RESOLVE_SCOPED)
        snprintf(root, sizeof root, "%s", cwd); /* path_init(): nd->root = the dirfd */
    else
        process_root(v, ctx, root, sizeof root);
    bool own = resolve || strcmp(root, "/") != 0;
    size_t o = 0;
    if (own) {
        /* The start and the root as the walk's lexical ".." needs them:
         * their own symlinks resolved. */
        snprintf(base, sizeof base, "%s", cwd);
        bool needs_base = path[0] != '/' || (resolve & VFS_RESOLVE_SCOPED);
        int err = !needs_base || is_virtual(base) ? 0 : canonicalize(v, base, sizeof base, true);
        if (err < 0)
            return err;
        if (resolve & VFS_RESOLVE_SCOPED)
            snprintf(root, sizeof root, "%s", base);
        if (path[0] == '/' && (resolve & VFS_RESOLVE_BENEATH))
            return -EXDEV; /* nd_jump_root() */
        const char *from = path[0] == '/' ? (how->global ? "/" : root) : base;
        snprintf(cur, sizeof cur, "%s", strcmp(from, "/") == 0 ? "" : from);
        o = strlen(cur);
        snprintf(rest, sizeof rest, "%s", path);
    } else {
        snprintf(rest, sizeof rest, path[0] == '/' ? "%s%s" : "%s/%s",
                 path[0] == '/' ? "" : cwd, path);
    }
    /* NO_XDEV: every step stays on the mount the walk starts on (the
     * root's for an absolute path), traverse_mounts(), follow_dotdot(). */
    char xdev[VFS_PATH_MAX] = "";
    if (resolve & VFS_RESOLVE_NO_XDEV)
        snprintf(xdev, sizeof xdev, "%s", vfs_mount_point(v, o ? cur : "/"));
#define CROSSES(p) (xdev[0] && strcmp(vfs_mount_point(v, (p)), xdev) != 0)
    int links = 0;
    bool tmp_links = true; /* false past a component a private directory lacks */
    char *p = rest;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char comp[VFS_PATH_MAX];
        snprintf(comp, sizeof comp, "%.*s", (int)n, p);
        p += n;
        bool last = !*p; /* a trailing "/" follows, as in Linux */
        if (strcmp(comp, ".") == 0)
            continue;
        if (strcmp(comp, "..") == 0) {
            if (own && strcmp(o ? cur : "/", root) == 0) {
                if (resolve & VFS_RESOLVE_BENEATH)
                    return -EXDEV; /* follow_dotdot(): ".." at the dirfd */
                continue;          /* ".." at the root is the root */
            }
            if (!own && o > 0 && !is_virtual(cur)) {
                int err = canonicalize(v, cur, sizeof cur, true);
                if (err < 0)
                    return err;
                o = strcmp(cur, "/") == 0 ? 0 : strlen(cur);
            }
            while (o > 0 && cur[o - 1] != '/')
                o--;
            if (o > 0)
                o--;
            cur[o] = '\0';
            if (CROSSES(o ? cur : "/"))
                return -EXDEV;
            continue;
        }
        if (o + 1 + n + 1 > sizeof cur)
            return -ENAMETOOLONG;
        cur[o++] = '/';
        memcpy(cur + o, comp, n + 1);
        o += n;
        if (CROSSES(cur))
            return -EXDEV;
        if (last && !how->follow_last)
            continue;
        char target[VFS_PATH_MAX];
        int tn;
        bool magic = false;
        struct vfs_node node;
        /* a cgroup hierarchy or an mqueue mount(2) put in a host
         * directory is virtual below it */
        if (is_virtual(cur) ||
            (own && (vfs_cgroup_rel(v, cur, NULL) || vfs_mqueue_rel(v, cur)))) {
            int err = vfs_lookup_virtual(v, ctx, cur, &node);
            if (own && err < 0 && !last)
                return err;
            if (err <= 0 || node.kind != VNODE_SYMLINK) {
                if (own && err > 0 && !last && node.kind != VNODE_DIR)
                    return -ENOTDIR;
                continue;
            }
            magic = vfs_is_magic_link(&node);
            if (resolve & VFS_RESOLVE_NO_SYMLINKS)
                return -ELOOP; /* pick_link() */
            if (magic) {       /* nd_jump_link() */
                if (resolve & VFS_RESOLVE_NO_MAGICLINKS)
                    return -ELOOP;
                if (resolve & VFS_RESOLVE_SCOPED)
                    return -EXDEV;
                /* proc_pid_get_link() needs the dentry: -ECHILD in RCU
                 * mode, which LOOKUP_CACHED turns into EAGAIN */
                if (resolve & VFS_RESOLVE_CACHED)
                    return -EAGAIN;
            }
            if ((tn = vfs_readlink_virtual(v, ctx, &node, target, sizeof target - 1)) < 0)
                return tn;
            if (magic && last && how->stop_magic) {
                target[tn] = '\0';
                if (CROSSES(target[0] == '/' ? target : cur))
                    return -EXDEV;
                continue; /* the open reopens the file itself */
            }
        } else if (own) {
            bool dir = false;
            tn = host_link(v, cur, target, sizeof target - 1, &dir);
            if (tn == -ENOENT && leads_to_mount(v, cur))
                tn = 0, dir = true; /* "/.asymu" above VFS_PROGRAMS_DIR */
            if (tn < 0 && !last)
                return tn;
            if (tn == 0 && !last && !dir)
                return -ENOTDIR;
            if (tn <= 0)
                continue; /* the open after tells */
            if (resolve & VFS_RESOLVE_NO_SYMLINKS)
                return -ELOOP;
        } else {
            if (!tmp_links)
                continue;
            tn = private_readlink(v, cur, target, sizeof target - 1);
            tmp_links = tn != -ENOENT;
            if (tn < 0)
                continue; /* no symlink, or none there: the lookup after tells */
        }
        if (++links > 40)
            return -ELOOP;
        target[tn] = '\0';
        char next[2 * VFS_PATH_MAX + 2];
        snprintf(next, sizeof next, "%s%s", target, p);
        snprintf(rest, sizeof rest, "%s", next);
        p = rest;
        o -= n + 1; /* a relative target is relative to the link's directory */
        if (target[0] == '/' && (!own || magic)) {
            o = 0; /* a magic link's text is the file's guest path */
            if (magic && CROSSES(target))
                return -EXDEV;
        } else if (target[0] == '/') {
            if (resolve & VFS_RESOLVE_BENEATH)
                return -EXDEV; /* nd_jump_root() */
            snprintf(cur, sizeof cur, "%s", strcmp(root, "/") == 0 ? "" : root);
            o = strlen(cur);
            if (CROSSES(o ? cur : "/"))
                return -EXDEV;
        }
        cur[o] = '\0';
    }
#undef CROSSES
    if (o + 1 > len)
        return -ENAMETOOLONG;
    snprintf(out, len, "%s", o ? cur : "/");
    return 0;
}

int vfs_resolve(struct vfs *v, void *ctx, const char *cwd, const char *path, char *out,
                size_t len)
{
    struct walk_how how = {.start = cwd};
    return walk(v, ctx, &how, path, out, len);
}

int vfs_follow(struct vfs *v, void *ctx, const char *abspath, char *out, size_t len)
{
    struct walk_how how = {.start = "/", .global = true, .follow_last = true};
    return walk(v, ctx, &how, abspath, out, len);
}

int vfs_resolve_how(struct vfs *v, void *ctx, const char *start, const char *path,
                    unsigned resolve, bool follow_last, char *out, size_t len)
{
    struct walk_how how = {.start = start, .follow_last = follow_last, .stop_magic = true,
                           .resolve = resolve};
    return walk(v, ctx, &how, path, out, len);
}

/* Host kernel state never reaches the guest: pseudo filesystems (wherever
 * they are mounted) and device nodes are refused. */
static bool is_banned(const struct vfs *v, int fd)
{
    static const long pseudo_fs[] = {
        0x9fa0,     /* proc */
        0x62656572, /* sysfs */
        0x1cd1,     /* devpts */
        0x27e0eb,   /* cgroup */
        0x63677270, /* cgroup2 */
        0x64626720, /* debugfs */
        0x74726163, /* tracefs */
        0x73636673, /* securityfs */
        0xcafe4a11, /* bpf */
        0x19800202, /* mqueue */
    };
    struct stat st;
    struct statfs sfs;
    if (fstat(fd, &st) < 0 || fstatfs(fd, &sfs) < 0)
        return true;
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return true;
    for (size_t i = 0; i < sizeof pseudo_fs / sizeof *pseudo_fs; i++)
        if ((long)sfs.f_type == pseudo_fs[i])
            return true;
    for (unsigned i = 0; i < v->nbanned; i++)
        if (st.st_dev == v->banned[i])
            return true;
    return false;
}

static int open_in(const struct vfs *v, int dirfd, const char *rel, int flags, int mode);

/* A lookup of rel failed with err: ENOENT instead when the failure came
 * from a banned file system, so that the host's answer (EACCES for
 * /proc/1/environ, EPERM, ENOTDIR...) does not tell the guest what exists
 * there. The nearest directory of rel that opens decides. */
static int hide_banned_error(const struct vfs *v, int dirfd, const char *rel, int err)
{
    char dir[VFS_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", rel);
    for (char *slash; err != -ENOENT && (slash = strrchr(dir, '/'));) {
        *slash = '\0';
        int fd = open_in(v, dirfd, dir, O_PATH, 0);
        if (fd >= 0) {
            close(fd);
            return err;
        }
        if (fd == -ENOENT)
            return -ENOENT; /* banned, or really missing: the same to the guest */
    }
    return err;
}

static int open_in(const struct vfs *v, int dirfd, const char *rel, int flags, int mode)
{
    /* Non-blocking, so that the open of a fifo (the guest may make them in
     * a writable place) never stalls the whole emulator; the guest's own
     * O_NONBLOCK is kept apart (struct file's flags), and emu/fs/fifo.c makes
     * the guest's opens and reads wait as Linux's do. */
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC | (flags & O_PATH ? 0 : O_NONBLOCK)),
        .mode = ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) ? (uint64_t)mode : 0,
        .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
    };
    int fd = (int)syscall(SYS_openat2, dirfd, *rel ? rel : ".", &how, sizeof how);
    if (fd < 0)
        return errno == ENOENT ? -ENOENT : hide_banned_error(v, dirfd, rel, -errno);
    if (is_banned(v, fd)) {
        close(fd);
        return -ENOENT;
    }
    return fd;
}

int vfs_mount_index(const struct vfs *v, const char *abspath)
{
    for (int i = VFS_MOUNT_TMP; i < VFS_NMOUNTS; i++)
        if (v->mounts[i].fd >= 0 && under(abspath, v->mounts[i].prefix))
            return i;
    return VFS_MOUNT_ROOT;
}

/* The mount holding abspath and the path relative to it. */
static const struct vfs_mount *mount_of(const struct vfs *v, const char *abspath,
                                        const char **rel)
{
    const struct vfs_mount *m = &v->mounts[vfs_mount_index(v, abspath)];
    size_t n = strlen(m->prefix);
    if (m == &v->mounts[VFS_MOUNT_ROOT])
        n = 0;
    *rel = abspath[n] ? abspath + n + 1 : "";
    return m;
}

struct vfs_budget *vfs_budget_of(struct vfs *v, const char *abspath)
{
    const char *rel;
    return mount_of(v, abspath, &rel)->budget;
}

int vfs_open_host(struct vfs *v, const char *abspath, int flags, int mode)
{
    bool writable;
    return vfs_open_host_writable(v, abspath, flags, mode, &writable);
}

int vfs_open_host_writable(struct vfs *v, const char *abspath, int flags, int mode,
                           bool *writable)
{
    const char *rel;
    const struct vfs_mount *m = mount_of(v, abspath, &rel);
    *writable = false;
    bool writes = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) ||
                  (flags & O_TMPFILE) == O_TMPFILE;
    if (writes && !m->writable) {
        /* A read-only mount: EROFS for what exists or would be created in
         * an existing directory; other errors as the lookup gives them. */
        int fd = open_in(v, m->fd, rel, O_PATH, 0);
        if (fd >= 0) {
            struct stat st;
            bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
            close(fd);
            return dir && (flags & O_ACCMODE) != O_RDONLY ? -EISDIR : -EROFS;
        }
        if (fd != -ENOENT || !(flags & O_CREAT))
            return fd;
        char name[256];
        int dfd = vfs_parent(v, abspath, false, name, sizeof name);
        if (dfd < 0)
            return dfd;
        close(dfd);
        return -EROFS;
    }
    if (!writes && v->lib_fd >= 0 && m == &v->mounts[VFS_MOUNT_ROOT]) {
        int fd = open_in(v, v->lib_fd, rel, flags, mode);
        if (fd >= 0)
            return fd; /* -L is never written */
    }
    int fd = open_in(v, m->fd, rel, flags, mode);
    *writable = fd >= 0 && m->writable;
    /* /tmp lies over the sysroot's own /tmp: what the private directory
     * lacks is looked up, read-only, in the one underneath. */
    if (fd == -ENOENT && !writes && m == &v->mounts[VFS_MOUNT_TMP] && *rel)
        fd = open_in(v, v->mounts[VFS_MOUNT_ROOT].fd, abspath + 1, flags, mode);
    return fd;
}

int vfs_parent(struct vfs *v, const char *abspath, bool write, char *name, size_t namelen)
{
    const char *rel;
    const struct vfs_mount *m = mount_of(v, abspath, &rel);
    const char *slash = strrchr(rel, '/');
    const char *last = slash ? slash + 1 : rel;
    if (!*last)
        return -EBUSY; /* the mount point itself */
    if (strlen(last) >= namelen)
        return -ENAMETOOLONG;
    snprintf(name, namelen, "%s", last);
    char dir[VFS_PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - rel) : 0, rel);
    int fd = open_in(v, m->fd, dir, O_PATH | O_DIRECTORY, 0);
    if (fd >= 0 && write && !m->writable) {
        close(fd);
        return -EROFS;
    }
    return fd;
}

int vfs_stat(struct vfs *v, void *ctx, const char *abspath, bool follow, struct stat *st)
{
    char followed[VFS_PATH_MAX];
    if (follow) { /* the virtual trees' symlinks and /tmp's, as guest paths */
        int err = vfs_follow(v, ctx, abspath, followed, sizeof followed);
        if (err < 0)
            return err;
        abspath = followed;
    }
    struct vfs_node node;
    int err = vfs_lookup_virtual(v, ctx, abspath, &node);
    if (err < 0)
        return err;
    if (err > 0 && node.kind == VNODE_MQUEUE)
        return mqueue_fs_stat(v, ctx, &node, st);
    if (err > 0) {
        vfs_stat_virtual(&node, st);
        /* trace_pipe and trace_pipe_raw give what they take out of the
         * buffer: only a read takes it */
        if (node.kind == VNODE_GENERATED && !node.pages && !node.pipe) {
            char *data;
            size_t size;
            if (vfs_generate(v, ctx, &node, &data, &size) == 0) {
                free(data);
                st->st_size = 0; /* like sysfs and procfs: the size is unknown */
            }
        }
        return 0;
    }
    int fd = vfs_open_host(v, abspath, O_PATH | (follow ? 0 : O_NOFOLLOW), 0);
    if (fd < 0)
        return fd;
    err = fstat(fd, st) < 0 ? -errno : 0;
    close(fd);
    return err;
}

bool vfs_path_in_root(const char *root, const char *path, char *out, size_t len)
{
    bool inside = strcmp(root, "/") == 0 || under(path, root);
    const char *rel = strcmp(root, "/") == 0 || !inside ? path : path + strlen(root);
    snprintf(out, len, "%s", *rel ? rel : "/");
    return inside;
}

int vfs_readlink(struct vfs *v, void *ctx, const char *abspath, char *buf, size_t len)
{
    struct vfs_node node;
    int err = vfs_lookup_virtual(v, ctx, abspath, &node);
    if (err < 0)
        return err;
    if (err > 0 && vfs_is_magic_link(&node)) {
        /* The file's path as the reader sees it from its root (d_path()):
         * a path outside it stays whole. */
        char text[VFS_PATH_MAX], root[VFS_PATH_MAX], seen[VFS_PATH_MAX];
        int n = vfs_readlink_virtual(v, ctx, &node, text, sizeof text - 1);
        if (n < 0 || text[0] != '/')
            return n < 0 ? n : vfs_readlink_virtual(v, ctx, &node, buf, len);
        text[n] = '\0';
        process_root(v, ctx, root, sizeof root);
        vfs_path_in_root(root, text, seen, sizeof seen);
        n = (int)strlen(seen);
        n = (size_t)n < len ? n : (int)len;
        memcpy(buf, seen, (size_t)n);
        return n;
    }
    if (err > 0)
        return vfs_readlink_virtual(v, ctx, &node, buf, len);
    int fd = vfs_open_host(v, abspath, O_PATH | O_NOFOLLOW, 0);
    if (fd < 0)
        return fd;
    ssize_t n = readlinkat(fd, "", buf, len);
    err = n < 0 ? (errno == ENOENT ? -EINVAL : -errno) : (int)n;
    close(fd);
    return err;
}
