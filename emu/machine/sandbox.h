/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sandbox.h - how asymu confines itself once the machine is up: Landlock
 * limits the host files it may open to the guest's places (landlock.c), and
 * a seccomp filter with argument checks limits its host syscalls to those
 * its own work needs (sandbox.c). docs/security.md has the threat model. */
#ifndef ASYMU_SANDBOX_H
#define ASYMU_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

/* The host directories the emulator works in, as descriptors (O_PATH is
 * enough); -1 for none. */
struct sandbox_paths {
    int root_fd;        /* --sysroot: read; written only under --rw */
    bool root_writable; /* --rw */
    int lib_fd;         /* -L: read */
    int tmp_fd;         /* the guest's private /tmp: read and written */
    int shm_fd;         /* the guest's private /dev/shm: read and written */
    int programs_fd;    /* a scenario's programs (VFS_PROGRAMS_DIR): read */
    int control_fd;     /* --control's listening socket: accepted on */
    int gdb_fd;         /* --gdb's listening socket: accepted on */
};

/* The kernel's Landlock ABI version (>= 1), or a negative errno: -ENOSYS
 * (not built in), -EOPNOTSUPP (disabled at boot). */
int landlock_abi(void);

/* Restricts the calling process's file access to p's directories for good.
 * Returns the ABI version in force, 0 when the kernel has no Landlock (then
 * nothing is restricted), or a negative errno with why set. Needs
 * PR_SET_NO_NEW_PRIVS first. */
int landlock_restrict(const struct sandbox_paths *p, char *why, size_t whylen);

/* Where the caller may (root): moves it into a private mount namespace in
 * which every host mount is read-only but p's writable places (bound
 * read-write at their own paths), then into a new root holding only the
 * directories it holds (newroot.c), and opens its directory descriptors
 * again there (mountns.c). 1 when done, 0 when not permitted (EPERM, or
 * --rw on /), or a negative errno with why set. */
int mountns_readonly(const struct sandbox_paths *p, char *why, size_t whylen);

/* A directory descriptor the caller holds and its host path, as
 * /proc/self/fd says (mountns.c). */
struct held_dir {
    int fd;
    char path[4096];
};

/* Where the caller may (inside mountns_readonly's namespace): makes a new
 * root holding only dirs, each at its own path, pivots into it and
 * detaches the host's tree (newroot.c). Sorts dirs. 1 when done, 0 when a
 * directory is / (nothing to leave out), or a negative errno with why
 * set. The caller opens its descriptors again afterwards. */
int newroot_enter(struct held_dir *dirs, size_t n, char *why, size_t whylen);

/* Confines the calling process for good: the read-only mount namespace
 * where it may, Landlock to p, then the seccomp
 * filter. A refused syscall prints its number and exits with status 70.
 * 0, or a negative errno with why set. */
int sandbox_enter(const struct sandbox_paths *p, char *why, size_t whylen);

#endif
