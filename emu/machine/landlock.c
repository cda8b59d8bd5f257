/* SPDX-License-Identifier: GPL-2.0-or-later */
/* landlock.c - the host files the emulator may open once the machine is up:
 * read beneath the sysroot and -L, read and write beneath the guest's
 * private /tmp and /dev/shm and, under --rw, the sysroot. Everything else (the user's
 * home, /etc, the host's /proc) is refused with EACCES by the kernel, even
 * to a compromised emulator. The calls are the raw syscalls: glibc has no
 * wrappers, and Debian 12's headers know only ABI 2, so the later rights are
 * defined here by the values of the kernel's uapi. */
#include "sandbox.h"

#include <errno.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0) /* ABI 4 */
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* struct landlock_ruleset_attr as of ABI 6; older kernels take a prefix. */
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};

#define READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* What the guest's changes to a writable place need: files, directories,
 * symlinks, fifos (mkfifo; sysfs-fs opens host files non-blocking, so a
 * fifo cannot stall the emulator), renames across directories,
 * truncation, and the node of a guest AF_UNIX socket. Never devices or
 * execution. */
#define WRITE                                                                                    \
    (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                             \
     LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | \
     LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM |  \
     LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE)

/* The file system rights each ABI version knows: a right is handled (and
 * so denied unless a rule grants it) only where the kernel knows it. */
static uint64_t fs_rights(int abi)
{
    uint64_t all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0-12 */
    if (abi >= 2)
        all |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        all |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5)
        all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return all;
}

int landlock_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v < 0 ? -errno : (int)v;
}

static int allow_beneath(int ruleset, int dir_fd, uint64_t access)
{
    struct landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = dir_fd};
    if (dir_fd < 0)
        return 0;
    return syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) < 0
               ? -errno
               : 0;
}

#ifdef ASYMU_SANITIZED
#include <fcntl.h>
#include <stdlib.h>

static int allow_path(int ruleset, const char *path, uint64_t access)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    int err = fd < 0 ? -errno : allow_beneath(ruleset, fd, access);
    if (fd >= 0)
        close(fd);
    return err;
}

/* Sanitizer builds only: LeakSanitizer reads /proc/self/maps, lists
 * /proc/self/task and reads the executable's symbols at exit (Unicorn is
 * linked in: its frames are named from there); its suppressions are built
 * in (tests/sanitize/lsan_suppressions.c). Release builds never read
 * these. */
static int allow_sanitizer(int ruleset)
{
    /* Best effort: inside the new root of a --sysroot run (newroot.c) a
     * place may be absent (the executable, seen through /proc/self/exe),
     * and what is absent cannot be read either. */
    int err = allow_path(ruleset, "/proc/self", READ);
    if (err == 0 || err == -ENOENT)
        err = allow_path(ruleset, "/proc/self/exe", LANDLOCK_ACCESS_FS_READ_FILE);
    return err == -ENOENT ? 0 : err;
}
#endif

static int add_rules(int ruleset, const struct sandbox_paths *p, uint64_t handled)
{
    int err = allow_beneath(ruleset, p->root_fd, (p->root_writable ? READ | WRITE : READ) & handled);
    if (err == 0)
        err = allow_beneath(ruleset, p->lib_fd, READ);
    if (err == 0)
        err = allow_beneath(ruleset, p->tmp_fd, (READ | WRITE) & handled);
    if (err == 0)
        err = allow_beneath(ruleset, p->shm_fd, (READ | WRITE) & handled);
    if (err == 0)
        err = allow_beneath(ruleset, p->programs_fd, READ);
#ifdef ASYMU_SANITIZED
    if (err == 0)
        err = allow_sanitizer(ruleset);
#endif
    return err;
}

int landlock_restrict(const struct sandbox_paths *p, char *why, size_t whylen)
{
    int abi = landlock_abi();
    if (abi == -ENOSYS || abi == -EOPNOTSUPP)
        return 0;
    if (abi < 0) {
        snprintf(why, whylen, "cannot query Landlock: %s (use --no-sandbox)", strerror(-abi));
        return abi;
    }
    struct ruleset_attr attr = {.handled_access_fs = fs_rights(abi)};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        /* The emulator makes no host TCP connection: with no rule, none. */
        attr.handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
        size = sizeof attr.handled_access_fs + sizeof attr.handled_access_net;
    }
    if (abi >= 6) {
        /* Nor signals a host process, nor reaches an abstract socket. */
        attr.scoped = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
        size = sizeof attr;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    int err = ruleset < 0 ? -errno : add_rules(ruleset, p, attr.handled_access_fs);
    if (err == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
        err = -errno;
    if (ruleset >= 0)
        close(ruleset);
    if (err < 0) {
        snprintf(why, whylen, "cannot apply the Landlock rules (ABI %d): %s (use --no-sandbox)",
                 abi, strerror(-err));
        return err;
    }
    return abi;
}
