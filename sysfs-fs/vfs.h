/* vfs.h - the public interface of sysfs-fs/: the guest's file namespace.
 * "/" is a host directory (--sysroot) to which every lookup stays confined;
 * /dev, /proc and /sys are virtual and come from kernel state through a
 * provider that emu/ fills in. */
#ifndef ASYMU_VFS_H
#define ASYMU_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define VFS_PATH_MAX 4096

enum vfs_node_kind {
    VNODE_DIR,
    VNODE_NULL,      /* /dev/null */
    VNODE_ZERO,      /* /dev/zero */
    VNODE_RANDOM,    /* /dev/urandom, /dev/random: seeded */
    VNODE_GENERATED, /* content made at open by the provider */
    VNODE_SYMLINK,   /* target given by the provider */
};

struct vfs_node {
    const char *path; /* absolute guest path, "/proc/self/exe" */
    enum vfs_node_kind kind;
    unsigned mode;    /* permission bits */
};

/* What the kernel layer provides to the virtual trees. ctx is the calling
 * task; the VFS never looks inside it. */
struct vfs_provider {
    /* Target of a VNODE_SYMLINK: its length, or a negative errno. */
    int (*readlink)(void *ctx, const struct vfs_node *node, char *buf, size_t len);
    /* Content of a VNODE_GENERATED file (malloc'ed, caller frees). */
    int (*generate)(void *ctx, const struct vfs_node *node, char **data, size_t *size);
};

#define VFS_MAX_BANNED_DEVS 16

/* A host directory mounted in the guest tree. */
struct vfs_mount {
    const char *prefix; /* "/" or "/tmp" */
    int fd;             /* O_PATH directory, or -1 */
    bool writable;
};

enum { VFS_MOUNT_ROOT, VFS_MOUNT_TMP, VFS_NMOUNTS };

struct vfs {
    struct vfs_mount mounts[VFS_NMOUNTS];
    int lib_fd;  /* O_PATH directory for -L, or -1 */
    char tmp_path[VFS_PATH_MAX]; /* host directory behind /tmp */
    bool keep_tmp;
    dev_t banned[VFS_MAX_BANNED_DEVS]; /* host pseudo filesystems never shown */
    unsigned nbanned;
    const struct vfs_provider *provider;
};

struct vfs_options {
    const char *sysroot;   /* guest "/" */
    bool rw;               /* the root is writable (--rw) */
    const char *libprefix; /* -L, or NULL */
    bool keep_tmp;         /* leave /tmp's host directory at exit (--keep-tmp) */
};

/* Opens the guest root and the -L prefix, and makes a private host directory
 * for /tmp. Returns 0, or a negative errno with a reason naming the directory. */
int vfs_init(struct vfs *v, const struct vfs_options *o, const struct vfs_provider *provider,
             char *why, size_t whylen);
/* Closes everything and removes /tmp's directory unless it is kept. */
void vfs_destroy(struct vfs *v);

/* The directory fd and last component for an operation on abspath itself
 * (mkdir, unlink, rename, symlink...): the parent is opened confined to its
 * mount. Returns the parent fd (close it) or a negative errno; -EROFS when
 * `write` and the mount is read-only. */
int vfs_parent(struct vfs *v, const char *abspath, bool write, char *name, size_t namelen);

/* Joins cwd and path and normalises the result lexically ("//", ".", "..");
 * out is an absolute guest path. -ENAMETOOLONG, -ENOENT for "". */
int vfs_join(const char *cwd, const char *path, char *out, size_t len);

/* The virtual node at an absolute normalised guest path: *node is NULL for
 * paths of the host root. Returns -ENOENT for unknown paths inside the
 * virtual trees. */
int vfs_lookup_virtual(const char *abspath, const struct vfs_node **node);

/* Opens a host file under the root (with -L tried first for reads).
 * flags are host O_* flags; writes fail with -EROFS. Returns a host fd. */
int vfs_open_host(struct vfs *v, const char *abspath, int flags, int mode);
/* stat/lstat of an absolute guest path, virtual or host. */
int vfs_stat(struct vfs *v, void *ctx, const char *abspath, bool follow, struct stat *st);
int vfs_readlink(struct vfs *v, void *ctx, const char *abspath, char *buf, size_t len);
/* Lists a directory's entries: calls emit(name, d_type, arg) for each. */
int vfs_list_virtual(const char *abspath, void (*emit)(const char *name, unsigned char type,
                                                       void *arg),
                     void *arg);
/* Fills st for a virtual node. */
void vfs_stat_virtual(const struct vfs_node *node, struct stat *st);

#endif
