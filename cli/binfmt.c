/* SPDX-License-Identifier: GPL-2.0-or-later */
/* binfmt.c - `asymu binfmt register|unregister`: asymu as the binfmt_misc
 * interpreter of AArch64 and ARM ELF programs (as qemu-user-binfmt makes
 * qemu-user), so that `./arm64-program` runs on the host in an asymu
 * machine; and the interpreter side, asymu started as `asymu-binfmt` by the
 * kernel (docs/guest-root.md, "Running Arm programs directly").
 *
 * The entries match an ELF executable or shared object (ET_EXEC or ET_DYN:
 * the mask's 0xfe on e_type's low byte) of the machine, little-endian,
 * 64-bit for EM_AARCH64 (183) and 32-bit for EM_ARM (40). Flags: F (the
 * kernel opens the interpreter at registration, so it works in a chroot or
 * a container without asymu in it) and P (the program's argv[0] is kept:
 * the interpreter gets its path and argv[0] both). */
#include "binfmt.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BINFMT_DIR "/proc/sys/fs/binfmt_misc"
#define EXIT_USAGE 2

struct binfmt_entry {
    const char *name;
    const char *magic; /* binfmt_misc's \xHH escapes */
};

/* e_ident (class, data, version, OS ABI, padding), e_type, e_machine. */
static const struct binfmt_entry entries[] = {
    {"asymu-aarch64", "\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
                      "\\x02\\x00\\xb7\\x00"},
    {"asymu-arm", "\\x7fELF\\x01\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
                  "\\x02\\x00\\x28\\x00"},
};
/* Any OS ABI byte and ABI version (Linux runs both), ET_EXEC or ET_DYN. */
static const char mask[] = "\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\x00\\xff\\xff\\xff\\xff\\xff"
                           "\\xff\\xff\\xfe\\xff\\xff\\xff";

#define NENTRIES (sizeof entries / sizeof *entries)

static int usage(void)
{
    fprintf(stderr, "usage: asymu binfmt register|unregister [--dir DIR] [--interpreter PATH]\n");
    return EXIT_USAGE;
}

/* The interpreter a registration names: asymu-binfmt next to this asymu (a
 * build tree) or in its installation's LIBEXECDIR/asymu. */
static int default_interpreter(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *dir = dirname(exe);
    snprintf(out, len, "%s/asymu-binfmt", dir);
    if (access(out, X_OK) == 0)
        return 0;
    snprintf(out, len, "%s/%s/asymu-binfmt", dir, ASYMU_PROGRAMS_FROM_BINDIR);
    return access(out, X_OK) == 0 ? 0 : -1;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = write(fd, text, strlen(text));
    int err = n < 0 ? -errno : 0;
    close(fd);
    return err;
}

static int do_register(const char *dir, const char *interpreter)
{
    char path[PATH_MAX + 32], line[1024];
    snprintf(path, sizeof path, "%s/register", dir);
    for (size_t i = 0; i < NENTRIES; i++) {
        snprintf(line, sizeof line, ":%s:M::%s:%s:%s:FP", entries[i].name, entries[i].magic, mask,
                 interpreter);
        int err = write_file(path, line);
        if (err == -EEXIST) {
            fprintf(stderr, "asymu binfmt: %s is already registered in %s (asymu binfmt "
                            "unregister first)\n", entries[i].name, dir);
            return 1;
        }
        if (err < 0) {
            fprintf(stderr, "asymu binfmt: cannot register %s in %s: %s%s\n", entries[i].name,
                    dir, strerror(-err),
                    err == -ENOENT ? " (is binfmt_misc mounted there? mount -t binfmt_misc "
                                     "binfmt_misc " BINFMT_DIR ")" : "");
            return 1;
        }
    }
    printf("registered asymu-aarch64 and asymu-arm in %s: interpreter %s\n", dir, interpreter);
    return 0;
}

static int do_unregister(const char *dir)
{
    int status = 0;
    for (size_t i = 0; i < NENTRIES; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, entries[i].name);
        int err = write_file(path, "-1");
        if (err < 0) {
            fprintf(stderr, "asymu binfmt: cannot unregister %s in %s: %s\n", entries[i].name,
                    dir, err == -ENOENT ? "not registered" : strerror(-err));
            status = 1;
        }
    }
    if (status == 0)
        printf("unregistered asymu-aarch64 and asymu-arm in %s\n", dir);
    return status;
}

int binfmt_main(int argc, char **argv)
{
    if (argc < 1)
        return usage();
    const char *dir = BINFMT_DIR, *interpreter = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
            dir = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--interpreter") == 0)
            interpreter = argv[++i];
        else {
            fprintf(stderr, "asymu binfmt: unknown argument '%s'\n", argv[i]);
            return usage();
        }
    }
    if (strcmp(argv[0], "unregister") == 0)
        return do_unregister(dir);
    if (strcmp(argv[0], "register") != 0) {
        fprintf(stderr, "asymu binfmt: unknown command '%s'\n", argv[0]);
        return usage();
    }
    char found[PATH_MAX];
    if (!interpreter) {
        if (default_interpreter(found, sizeof found) < 0) {
            fprintf(stderr, "asymu binfmt: no asymu-binfmt next to asymu or in its installation; "
                            "name one with --interpreter\n");
            return 1;
        }
        interpreter = found;
    }
    if (interpreter[0] != '/' || strlen(interpreter) > 127) {
        fprintf(stderr, "asymu binfmt: the interpreter must be an absolute path of at most 127 "
                        "bytes: %s\n", interpreter);
        return EXIT_USAGE;
    }
    return do_register(dir, interpreter);
}

bool binfmt_invoked(const char *argv0)
{
    const char *base = strrchr(argv0, '/');
    return strcmp(base ? base + 1 : argv0, "asymu-binfmt") == 0;
}
