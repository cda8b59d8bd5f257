/* SPDX-License-Identifier: GPL-2.0-or-later */
/* first_program.c - where the first program of a run comes from and where
 * it starts: PROGRAM as a path inside --sysroot (as chroot and qemu-user's
 * -L take it) or a host path, and the guest's starting directory (--cwd,
 * else the host's if the guest has it, else /). */
#include "first_program.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "machine.h"
#include "script.h"
#include "task.h"

/* Whether host path abs lies in directory root (both real paths). */
static bool inside(const char *root, const char *abs)
{
    size_t n = strcmp(root, "/") == 0 ? 0 : strlen(root);
    return strncmp(abs, root, n) == 0 && (abs[n] == '/' || abs[n] == '\0');
}

int first_program_open(const struct emu_config *cfg, char *exe, size_t len)
{
    const char *prog = cfg->program ? cfg->program : cfg->argv[0];
    char root[PATH_MAX], abs[PATH_MAX];
    /* An absolute PROGRAM that is not a host path inside the sysroot is
     * first looked for inside it, its symbolic links resolved there. */
    if (prog[0] == '/' && realpath(cfg->sysroot, root) && strcmp(root, "/") != 0 &&
        !(realpath(prog, abs) && inside(root, abs))) {
        int dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
        struct open_how how = {.flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT};
        int fd = dir < 0 ? -1 : (int)syscall(SYS_openat2, dir, prog, &how, sizeof how);
        if (dir >= 0)
            close(dir);
        if (fd >= 0) {
            snprintf(exe, len, "%s", prog);
            return fd;
        }
    }
    int fd = open(prog, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    guest_path_of(cfg->sysroot, prog, exe, len);
    return fd;
}

/* Sets t's working directory to guest path dir when it is a directory of
 * the guest (its symbolic links resolved, as chdir does): 0 or -errno. */
static int start_in(struct task *t, const char *dir)
{
    char path[VFS_PATH_MAX], real[VFS_PATH_MAX];
    int err = vfs_join("/", dir, path, sizeof path);
    if (err == 0)
        err = vfs_directory(&t->machine->vfs, t, path, real, sizeof real);
    if (err == 0)
        snprintf(t->proc->cwd, sizeof t->proc->cwd, "%s", real);
    return err;
}

int first_program_cwd(struct task *t, const struct emu_config *cfg)
{
    if (cfg->cwd) {
        int err = start_in(t, cfg->cwd);
        if (err < 0)
            fprintf(stderr, "asymu: --cwd %s: %s\n", cfg->cwd, strerror(-err));
        return err;
    }
    char host[PATH_MAX], guest[PATH_MAX];
    if (getcwd(host, sizeof host)) {
        guest_path_of(cfg->sysroot, host, guest, sizeof guest);
        if (start_in(t, guest) == 0)
            return 0;
    }
    snprintf(t->proc->cwd, sizeof t->proc->cwd, "/");
    return 0;
}
