/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-sandbox.c - the confinement asymu loads (emu/machine/sandbox.c, emu/machine/landlock.c),
 * proved from inside: a forked child enters the same sandbox_enter() the
 * emulator calls, on a scratch sysroot, -L and /tmp, then tries one host
 * operation. Refused syscalls end the child with status 70 and a message
 * naming the syscall; file access outside the places fails with EACCES from
 * Landlock; allowed operations still work. The child reports through its
 * exit status (0, or the errno) and its stderr. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "sandbox.h"

#define REFUSED 70 /* the SIGSYS handler's status */

/* Scratch host directories: the guest's places and one outside them. */
static char base[256], root[PATH_MAX], lib[PATH_MAX], tmp[PATH_MAX], outside[PATH_MAX];
/* A host directory no child holds: outside every root of its look-ups. */
static char hidden[PATH_MAX];
static pid_t parent;
/* The sysroot the child confines itself to: root, or "/" (asymu's default). */
static const char *sysroot_dir = root;
/* The child's O_PATH /proc/self/fd, as the emulator holds it (vfs_init). */
static int self_fds = -1;

static void path(char *out, const char *dir)
{
    snprintf(out, PATH_MAX, "%s/%s", base, dir);
    assert_int_equal(mkdir(out, 0755), 0);
}

static void put_file(const char *dir, const char *name, const char *text)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/test-sandbox-XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(base));
    path(root, "root");
    path(lib, "lib");
    path(tmp, "tmp");
    path(outside, "outside");
    path(hidden, "host");
    put_file(root, "file", "root file\n");
    put_file(lib, "libfile", "lib file\n");
    put_file(outside, "secret", "host secret\n");
    put_file(tmp, "guestfile", "guest file\n");
    put_file(hidden, "secret", "host secret\n");
    char link[PATH_MAX + 16];
    snprintf(link, sizeof link, "%s/link", hidden);
    assert_int_equal(symlink("secret", link), 0);
    snprintf(link, sizeof link, "%s/link", tmp);
    assert_int_equal(symlink("guestfile", link), 0);
    parent = getpid();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    return system(cmd);
}

/* What one child did: its exit status (-1 if a signal ended it) and stderr. */
struct outcome {
    int status;
    char err[512];
};

/* Forks a child that enters the sandbox with these places (the sysroot
 * writable if rw) and exits with act's result: 0, or the errno it failed
 * with. fds opened before the sandbox are passed to act: the outside
 * directory's, as an emulator holding it would. */
static struct outcome run_confined(bool rw,
                                   int (*act)(const struct sandbox_paths *p, int outside_fd))
{
    int errpipe[2];
    assert_int_equal(pipe(errpipe), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(errpipe[1], STDERR_FILENO);
        close(errpipe[0]);
        struct sandbox_paths p = {
            .root_fd = open(sysroot_dir, O_PATH | O_DIRECTORY | O_CLOEXEC),
            .root_writable = rw,
            .lib_fd = open(lib, O_PATH | O_DIRECTORY | O_CLOEXEC),
            .tmp_fd = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC),
            .shm_fd = -1,
            .programs_fd = -1,
        };
        int outside_fd = open(outside, O_PATH | O_DIRECTORY | O_CLOEXEC);
        self_fds = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
        char why[256];
        if (sandbox_enter(&p, why, sizeof why) < 0) {
            dprintf(STDERR_FILENO, "sandbox_enter: %s\n", why);
            _exit(99);
        }
        int r = act(&p, outside_fd);
        _exit(r < 0 ? errno : 0);
    }
    close(errpipe[1]);
    struct outcome o = {0};
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    o.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    ssize_t n = read(errpipe[0], o.err, sizeof o.err - 1);
    o.err[n > 0 ? n : 0] = '\0';
    close(errpipe[0]);
    return o;
}

/* The child was stopped by the filter at syscall nr, with its message
 * (failures name the caller's line). */
static void refused_at(struct outcome o, long nr, const char *file, int line)
{
    char want[256];
    snprintf(want, sizeof want,
             "asymu: the sandbox refused host syscall %ld; this is a bug: rerun with "
             "--no-sandbox and report it\n",
             nr);
    _assert_string_equal(o.err, want, file, line);
    _assert_int_equal(o.status, REFUSED, file, line);
}
#define assert_refused(o, nr) refused_at(o, nr, __FILE__, __LINE__)

static void result_at(struct outcome o, int errnum, const char *file, int line)
{
    _assert_string_equal(o.err, "", file, line);
    _assert_int_equal(o.status, errnum, file, line);
}
#define assert_result(o, errnum) result_at(o, errnum, __FILE__, __LINE__)

static bool have_landlock(void)
{
    return landlock_abi() > 0;
}

/* A change outside the writable places: the read-only mount namespace's
 * EROFS comes first where asymu may set it up (root), else Landlock's. */
static int denied_change(void)
{
    return geteuid() == 0 ? EROFS : EACCES;
}

/* The /proc/self/fd/../root route to a host file: as root, in the new root
 * (newroot.c), /proc/PID/fd's parent holds nothing but fd (ENOENT); else
 * it is the host's root and otherwise stops it. Sanitizer builds put all
 * of /proc in the new root: the route reaches the held directory outside,
 * whose own rules stop it. */
static int proc_route_errno(int otherwise)
{
#ifdef ASYMU_SANITIZED
    return otherwise;
#else
    return geteuid() == 0 ? ENOENT : otherwise;
#endif
}

/* ---- seccomp: paths only relative to descriptors ---- */

static int open_cwd_relative(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    char secret[PATH_MAX + 16];
    snprintf(secret, sizeof secret, "%s/secret", outside);
    return openat(AT_FDCWD, secret, O_RDONLY);
}

#ifndef ASYMU_SANITIZED
/* AT_FDCWD with its upper 32 bits clear is AT_FDCWD to the kernel too. */
static int open_cwd_zero_extended(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return (int)syscall(SYS_openat, (long)(uint32_t)AT_FDCWD, "/etc/passwd", O_RDONLY);
}
#endif

static int unlink_cwd_relative(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return unlinkat(AT_FDCWD, "/nonexistent", 0);
}

static int rename_into_cwd(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    return (int)syscall(SYS_renameat2, p->tmp_fd, "a", AT_FDCWD, "b", 0);
}

static int symlink_cwd_relative(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return symlinkat("/etc/passwd", AT_FDCWD, "link");
}

static void test_paths_need_a_descriptor(void **state)
{
    (void)state;
#ifdef ASYMU_SANITIZED
    /* LeakSanitizer needs openat(AT_FDCWD) there: Landlock still refuses. */
    if (have_landlock())
        assert_result(run_confined(false, open_cwd_relative), EACCES);
#else
    assert_refused(run_confined(false, open_cwd_relative), SYS_openat);
    assert_refused(run_confined(false, open_cwd_zero_extended), SYS_openat);
#endif
    assert_refused(run_confined(false, unlink_cwd_relative), SYS_unlinkat);
    assert_refused(run_confined(false, rename_into_cwd), SYS_renameat2);
    assert_refused(run_confined(false, symlink_cwd_relative), SYS_symlinkat);
}

/* ---- every remaining path or descriptor call, with hostile arguments ---- */

/* The host file a takeover wants to change: its absolute path, and the
 * /proc/self/fd route to it ("fd/.." is /proc/self, "root" the host's /,
 * as /proc/1/root would be where pid 1 may be traced). */
static char secret_abs[PATH_MAX + 16], proc_route[PATH_MAX + 64];
/* A new name outside, absolute and by the /proc/self/fd route. */
static char new_abs[PATH_MAX + 16], new_proc_route[PATH_MAX + 64];

static void hostile_paths(void)
{
    snprintf(secret_abs, sizeof secret_abs, "%s/secret", outside);
    snprintf(proc_route, sizeof proc_route, "../root%s", secret_abs);
    snprintf(new_abs, sizeof new_abs, "%s/new", outside);
    snprintf(new_proc_route, sizeof new_proc_route, "../root%s", new_abs);
}

/* The kernel reads a directory argument as an int: these are AT_FDCWD. */
#define CWD_SIGN_EXTENDED ((long)(int)AT_FDCWD)      /* 0xffffffffffffff9c */
#define CWD_ZERO_EXTENDED ((long)(uint32_t)AT_FDCWD) /* 0x00000000ffffff9c */
#define HIGH_GARBAGE(fd) ((long)(((uint64_t)0xabcd << 32) | (uint32_t)(fd)))

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#define SYS_setxattrat_ 463
#define SYS_getxattrat_ 464
#define SYS_listxattrat_ 465
#define SYS_removexattrat_ 466

/* An O_PATH descriptor on the outside file: Landlock does not check O_PATH
 * opens, so a takeover can get one. */
static int outside_opath(int outside_fd)
{
    return openat(outside_fd, "secret", O_PATH | O_CLOEXEC);
}

#define ACT(name, expr)                                                                            \
    static int name(const struct sandbox_paths *p, int outside_fd)                                 \
    {                                                                                              \
        (void)p, (void)outside_fd;                                                                 \
        return (int)(expr);                                                                        \
    }

/* Path-based metadata changes: none is allowed, whatever the directory. */
ACT(chmodat_absolute, syscall(SYS_fchmodat, p->tmp_fd, secret_abs, 04755, 0))
ACT(chmodat_outside_fd, syscall(SYS_fchmodat, outside_fd, "secret", 04755, 0))
ACT(chmodat_proc_route, syscall(SYS_fchmodat, self_fds, proc_route, 04755, 0))
ACT(chmodat2_empty_path,
    syscall(SYS_fchmodat2, outside_opath(outside_fd), "", 04755, AT_EMPTY_PATH))
ACT(chmod_path, syscall(SYS_chmod, secret_abs, 04755))
ACT(utimensat_absolute, syscall(SYS_utimensat, p->tmp_fd, secret_abs, NULL, 0))
ACT(utimensat_proc_route, syscall(SYS_utimensat, self_fds, proc_route, NULL, 0))
ACT(utimensat_empty_path,
    syscall(SYS_utimensat, outside_opath(outside_fd), "", NULL, AT_EMPTY_PATH))
ACT(utimensat_nofollow, syscall(SYS_utimensat, p->tmp_fd, secret_abs, NULL, AT_SYMLINK_NOFOLLOW))
ACT(futimesat_path, syscall(SYS_futimesat, p->tmp_fd, secret_abs, NULL))
ACT(utimes_path, syscall(SYS_utimes, secret_abs, NULL))
ACT(setxattrat_absolute,
    syscall(SYS_setxattrat_, p->tmp_fd, secret_abs, 0, "security.capability", NULL, 0))
ACT(getxattrat_absolute, syscall(SYS_getxattrat_, p->tmp_fd, secret_abs, 0, "user.x", NULL, 0))
ACT(listxattrat_absolute, syscall(SYS_listxattrat_, p->tmp_fd, secret_abs, 0, NULL, 0))
ACT(removexattrat_absolute, syscall(SYS_removexattrat_, p->tmp_fd, secret_abs, 0, "user.x"))
ACT(setxattr_path, syscall(SYS_setxattr, secret_abs, "user.x", "v", 1, 0))
ACT(lsetxattr_path, syscall(SYS_lsetxattr, secret_abs, "user.x", "v", 1, 0))
ACT(removexattr_path, syscall(SYS_removexattr, secret_abs, "user.x"))
ACT(getxattr_path, syscall(SYS_getxattr, secret_abs, "user.x", NULL, 0))
ACT(fchownat_absolute, syscall(SYS_fchownat, p->tmp_fd, secret_abs, 0, 0, 0))
ACT(chown_path, syscall(SYS_chown, secret_abs, 0, 0))
ACT(fchown_fd, syscall(SYS_fchown, outside_opath(outside_fd), 0, 0))
/* AT_FDCWD as the kernel reads it, from either extension of the register. */
#ifndef ASYMU_SANITIZED /* LeakSanitizer needs openat and newfstatat there */
ACT(openat_sign_extended, syscall(SYS_openat, CWD_SIGN_EXTENDED, secret_abs, O_RDONLY))
ACT(stat_sign_extended, syscall(SYS_newfstatat, CWD_SIGN_EXTENDED, "x", &(struct stat){0}, 0))
ACT(stat_zero_extended, syscall(SYS_newfstatat, CWD_ZERO_EXTENDED, "x", &(struct stat){0}, 0))
#endif
ACT(mkdirat_sign_extended, syscall(SYS_mkdirat, CWD_SIGN_EXTENDED, "x", 0755))
ACT(mknodat_sign_extended, syscall(SYS_mknodat, CWD_SIGN_EXTENDED, "x", S_IFIFO | 0600, 0))
ACT(linkat_second_sign_extended,
    syscall(SYS_linkat, p->tmp_fd, "guestfile", CWD_SIGN_EXTENDED, "x", 0))
ACT(renameat2_second_zero_extended,
    syscall(SYS_renameat2, p->tmp_fd, "guestfile", CWD_ZERO_EXTENDED, "x", 0))
ACT(symlinkat_sign_extended, syscall(SYS_symlinkat, "guestfile", CWD_SIGN_EXTENDED, "x"))
ACT(faccessat2_sign_extended, syscall(SYS_faccessat2, CWD_SIGN_EXTENDED, "x", F_OK, 0))
ACT(faccessat_sign_extended, syscall(SYS_faccessat, CWD_SIGN_EXTENDED, "x", F_OK))
ACT(statx_sign_extended, syscall(SYS_statx, CWD_SIGN_EXTENDED, "x", 0, 0, &(char[256]){0}))
ACT(readlinkat_sign_extended, syscall(SYS_readlinkat, CWD_SIGN_EXTENDED, "x", &(char[8]){0}, 8))
ACT(unlinkat_sign_extended, syscall(SYS_unlinkat, CWD_SIGN_EXTENDED, "x", 0))
ACT(openat2_sign_extended, syscall(SYS_openat2, CWD_SIGN_EXTENDED, "x",
                                   &(struct { uint64_t f, m, r; }){O_RDONLY, 0, 0}, 24))

static void test_path_metadata_refused(void **state)
{
    (void)state;
    hostile_paths();
    assert_refused(run_confined(false, chmodat_absolute), SYS_fchmodat);
    assert_refused(run_confined(false, chmodat_outside_fd), SYS_fchmodat);
    assert_refused(run_confined(false, chmodat_proc_route), SYS_fchmodat);
    assert_refused(run_confined(false, chmodat2_empty_path), SYS_fchmodat2);
    assert_refused(run_confined(false, chmod_path), SYS_chmod);
    assert_refused(run_confined(false, utimensat_absolute), SYS_utimensat);
    assert_refused(run_confined(false, utimensat_proc_route), SYS_utimensat);
    assert_refused(run_confined(false, utimensat_empty_path), SYS_utimensat);
    assert_refused(run_confined(false, utimensat_nofollow), SYS_utimensat);
    assert_refused(run_confined(false, futimesat_path), SYS_futimesat);
    assert_refused(run_confined(false, utimes_path), SYS_utimes);
    assert_refused(run_confined(false, setxattrat_absolute), SYS_setxattrat_);
    assert_refused(run_confined(false, getxattrat_absolute), SYS_getxattrat_);
    assert_refused(run_confined(false, listxattrat_absolute), SYS_listxattrat_);
    assert_refused(run_confined(false, removexattrat_absolute), SYS_removexattrat_);
    assert_refused(run_confined(false, setxattr_path), SYS_setxattr);
    assert_refused(run_confined(false, lsetxattr_path), SYS_lsetxattr);
    assert_refused(run_confined(false, removexattr_path), SYS_removexattr);
    assert_refused(run_confined(false, getxattr_path), SYS_getxattr);
    assert_refused(run_confined(false, fchownat_absolute), SYS_fchownat);
    assert_refused(run_confined(false, chown_path), SYS_chown);
    assert_refused(run_confined(false, fchown_fd), SYS_fchown);
    /* The host file is as it was. */
    struct stat st;
    assert_int_equal(stat(secret_abs, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
}

static void test_at_fdcwd_both_extensions(void **state)
{
    (void)state;
    hostile_paths();
    assert_refused(run_confined(false, mkdirat_sign_extended), SYS_mkdirat);
    assert_refused(run_confined(false, mknodat_sign_extended), SYS_mknodat);
    assert_refused(run_confined(false, linkat_second_sign_extended), SYS_linkat);
    assert_refused(run_confined(false, renameat2_second_zero_extended), SYS_renameat2);
    assert_refused(run_confined(false, symlinkat_sign_extended), SYS_symlinkat);
    assert_refused(run_confined(false, faccessat2_sign_extended), SYS_faccessat2);
    assert_refused(run_confined(false, faccessat_sign_extended), SYS_faccessat);
    assert_refused(run_confined(false, statx_sign_extended), SYS_statx);
    assert_refused(run_confined(false, readlinkat_sign_extended), SYS_readlinkat);
    assert_refused(run_confined(false, unlinkat_sign_extended), SYS_unlinkat);
    assert_refused(run_confined(false, openat2_sign_extended), SYS_openat2);
#ifndef ASYMU_SANITIZED /* LeakSanitizer needs openat and newfstatat there */
    assert_refused(run_confined(false, openat_sign_extended), SYS_openat);
    assert_refused(run_confined(false, stat_sign_extended), SYS_newfstatat);
    assert_refused(run_confined(false, stat_zero_extended), SYS_newfstatat);
#endif
}

/* Descriptor calls on the outside file: an O_PATH descriptor does no
 * metadata change (EBADF), and opening it for real is Landlock's EACCES,
 * by its O_PATH descriptor's /proc/self/fd link or by the '..' route. */
static int reopen_outside(const struct sandbox_paths *p, int outside_fd)
{
    (void)p;
    char name[16];
    snprintf(name, sizeof name, "%d", outside_opath(outside_fd));
    return openat(self_fds, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}
ACT(open_proc_route, openat(self_fds, proc_route, O_RDONLY | O_CLOEXEC))
ACT(open_proc_route_write, openat(self_fds, proc_route, O_WRONLY | O_CLOEXEC))
ACT(open_absolute_via_tmp, openat(p->tmp_fd, secret_abs, O_RDONLY | O_CLOEXEC))
ACT(openat2_absolute,
    syscall(SYS_openat2, p->tmp_fd, secret_abs, &(struct { uint64_t f, m, r; }){O_RDWR, 0, 0}, 24))
ACT(fchmod_opath, fchmod(outside_opath(outside_fd), 04755))
ACT(futimens_opath, futimens(outside_opath(outside_fd), NULL))
ACT(fsetxattr_opath, fsetxattr(outside_opath(outside_fd), "security.capability", "v", 1, 0))
ACT(fremovexattr_opath, fremovexattr(outside_opath(outside_fd), "user.x"))
ACT(ftruncate_opath, ftruncate(outside_opath(outside_fd), 0))
ACT(fallocate_opath, fallocate(outside_opath(outside_fd), 0, 0, 4096))
ACT(mknod_fifo_outside, mknodat(outside_fd, "fifo", S_IFIFO | 0600, 0))
ACT(mknod_fifo_absolute, mknodat(p->tmp_fd, new_abs, S_IFIFO | 0600, 0))
ACT(mknod_fifo_proc_route, mknodat(self_fds, new_proc_route, S_IFIFO | 0600, 0))
ACT(mknod_device_in_tmp, mknodat(p->tmp_fd, "null", S_IFCHR | 0666, makedev(1, 3)))
ACT(mkdir_absolute, mkdirat(p->tmp_fd, new_abs, 0755))
ACT(mkdir_proc_route, mkdirat(self_fds, new_proc_route, 0755))
ACT(unlink_absolute, unlinkat(p->tmp_fd, secret_abs, 0))
/* Hard links of the outside file into /tmp, where it could then be opened:
 * Landlock's refer rule or, as root, the read-only namespace's separate
 * mounts (EXDEV); renames in or out: removing or making a file outside
 * (EACCES), or, as root, across mounts (EXDEV). */
ACT(link_outside_into_tmp, linkat(outside_fd, "secret", p->tmp_fd, "l", 0))
ACT(link_opath_into_tmp, linkat(outside_opath(outside_fd), "", p->tmp_fd, "l", AT_EMPTY_PATH))
ACT(rename_outside_into_tmp, syscall(SYS_renameat2, outside_fd, "secret", p->tmp_fd, "r", 0))
ACT(rename_tmp_to_outside, syscall(SYS_renameat2, p->tmp_fd, "guestfile", outside_fd, "g", 0))
/* A directory argument with garbage above its low 32 bits is that
 * descriptor to the kernel: allowed, and bounded by Landlock. */
ACT(open_high_garbage, syscall(SYS_openat, HIGH_GARBAGE(p->tmp_fd), "guestfile", O_RDONLY))
ACT(open_high_garbage_outside, syscall(SYS_openat, HIGH_GARBAGE(outside_fd), "secret", O_RDONLY))

static void test_descriptors_on_outside_files(void **state)
{
    (void)state;
    hostile_paths();
    assert_result(run_confined(false, fchmod_opath), EBADF);
    assert_result(run_confined(false, futimens_opath), EBADF);
    assert_result(run_confined(false, fsetxattr_opath), EBADF);
    assert_result(run_confined(false, fremovexattr_opath), EBADF);
    assert_result(run_confined(false, ftruncate_opath), EBADF);
    assert_result(run_confined(false, fallocate_opath), EBADF);
    if (!have_landlock())
        return;
    assert_result(run_confined(false, reopen_outside), EACCES);
    assert_result(run_confined(false, open_proc_route), proc_route_errno(EACCES));
    assert_result(run_confined(false, open_proc_route_write), proc_route_errno(denied_change()));
    assert_result(run_confined(false, open_absolute_via_tmp), EACCES);
    assert_result(run_confined(false, openat2_absolute), denied_change());
    assert_result(run_confined(false, mknod_fifo_outside), denied_change());
    assert_result(run_confined(false, mknod_fifo_absolute), denied_change());
    assert_result(run_confined(false, mknod_fifo_proc_route), proc_route_errno(denied_change()));
    assert_result(run_confined(false, mknod_device_in_tmp), EACCES);
    assert_result(run_confined(false, mkdir_absolute), denied_change());
    assert_result(run_confined(false, mkdir_proc_route), proc_route_errno(denied_change()));
    assert_result(run_confined(false, unlink_absolute), denied_change());
    assert_result(run_confined(false, link_outside_into_tmp), EXDEV);
    assert_result(run_confined(false, link_opath_into_tmp), EXDEV);
    assert_result(run_confined(false, rename_outside_into_tmp), geteuid() == 0 ? EXDEV : EACCES);
    assert_result(run_confined(false, rename_tmp_to_outside), geteuid() == 0 ? EXDEV : EACCES);
    assert_result(run_confined(false, open_high_garbage), 0);
    assert_result(run_confined(false, open_high_garbage_outside), EACCES);
    struct stat st;
    assert_int_equal(stat(secret_abs, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
}

/* What asymu itself does (sys_path.c, owner.c, sys_xattr.c): open the file
 * of an O_PATH descriptor again through /proc/self/fd, then fchmod,
 * futimens, fsetxattr; works in the private /tmp. */
static int change_by_descriptor(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    int opath = openat(p->tmp_fd, "guestfile", O_PATH | O_CLOEXEC);
    char name[16];
    snprintf(name, sizeof name, "%d", opath);
    int fd = openat(self_fds, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct timespec ts[2] = {{1000000000, 5}, {1000000000, 7}};
    if (fd < 0 || fchmod(fd, 01640) < 0 || futimens(fd, ts) < 0)
        return -1;
    return fsetxattr(fd, "user.asymu", "v", 1, 0);
}

static void test_metadata_by_descriptor_in_tmp(void **state)
{
    (void)state;
    if (!have_landlock())
        skip();
    assert_result(run_confined(false, change_by_descriptor), 0);
    char f[PATH_MAX + 16], v[4] = "";
    snprintf(f, sizeof f, "%s/guestfile", tmp);
    struct stat st;
    assert_int_equal(stat(f, &st), 0);
    assert_int_equal(st.st_mode & 07777, 01640);
    assert_int_equal(st.st_mtim.tv_sec, 1000000000);
    assert_int_equal(st.st_mtim.tv_nsec, 7);
    assert_int_equal(getxattr(f, "user.asymu", v, sizeof v), 1);
    assert_int_equal(v[0], 'v');
    assert_int_equal(chmod(f, 0644), 0);
}

/* With the default --sysroot / Landlock lets every host file be opened for
 * reading, and fchmod, futimens and fsetxattr do not care how a file was
 * opened: the read-only mount namespace (mountns.c, root only) makes them
 * EROFS on every file but the writable places'. */
static int change_opened(int fd, int which)
{
    if (fd < 0)
        return -1;
    struct timespec ts[2] = {{1, 0}, {1, 0}};
    return which == 0   ? fchmod(fd, 04777)
           : which == 1 ? futimens(fd, ts)
                        : fsetxattr(fd, "security.capability", "v", 1, 0);
}
ACT(read_then_chmod, change_opened(openat(p->tmp_fd, secret_abs, O_RDONLY | O_CLOEXEC), 0))
ACT(read_then_utimens, change_opened(openat(p->tmp_fd, secret_abs, O_RDONLY | O_CLOEXEC), 1))
ACT(read_then_setxattr, change_opened(openat(p->tmp_fd, secret_abs, O_RDONLY | O_CLOEXEC), 2))
ACT(climb_then_chmod,
    change_opened(openat(p->tmp_fd, "../outside/secret", O_RDONLY | O_CLOEXEC), 0))
ACT(outside_fd_then_chmod, change_opened(openat(outside_fd, "secret", O_RDONLY | O_CLOEXEC), 0))
ACT(proc_route_then_chmod, change_opened(openat(self_fds, proc_route, O_RDONLY | O_CLOEXEC), 0))
ACT(root_file_then_chmod, change_opened(openat(p->root_fd, "file", O_RDONLY | O_CLOEXEC), 0))
ACT(tmp_file_then_chmod, change_opened(openat(p->tmp_fd, "guestfile", O_RDONLY | O_CLOEXEC), 0))

static void test_readonly_host(void **state)
{
    (void)state;
    if (!have_landlock() || geteuid() != 0)
        skip();
    hostile_paths();
    assert_result(run_confined(false, root_file_then_chmod), EROFS);
    sysroot_dir = "/";
    assert_result(run_confined(false, read_then_chmod), EROFS);
    assert_result(run_confined(false, read_then_utimens), EROFS);
    assert_result(run_confined(false, read_then_setxattr), EROFS);
    assert_result(run_confined(false, climb_then_chmod), EROFS);
    assert_result(run_confined(false, outside_fd_then_chmod), EROFS);
    assert_result(run_confined(false, proc_route_then_chmod), EROFS);
    assert_result(run_confined(false, tmp_file_then_chmod), 0);
    sysroot_dir = root;
    struct stat st;
    assert_int_equal(stat(secret_abs, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    char f[PATH_MAX + 16];
    snprintf(f, sizeof f, "%s/guestfile", tmp);
    assert_int_equal(stat(f, &st), 0);
    assert_int_equal(st.st_mode & 07777, 04777);
    assert_int_equal(chmod(f, 0644), 0);
}

/* ---- look-ups (stat, statx, access, readlink): only inside the roots ---- */

/* Landlock does not cover look-ups and seccomp cannot read a path. As root
 * the child's root is a tree of the directories it holds and nothing else
 * (newroot.c): a host path outside them is ENOENT by every route (issue
 * 24, item 1). */
static char hidden_abs[PATH_MAX + 16], hidden_link_abs[PATH_MAX + 16];
static char hidden_proc_route[PATH_MAX + 64], hidden_parent_route[PATH_MAX + 64];

static void hidden_paths(void)
{
    snprintf(hidden_abs, sizeof hidden_abs, "%s/secret", hidden);
    snprintf(hidden_link_abs, sizeof hidden_link_abs, "%s/link", hidden);
    snprintf(hidden_proc_route, sizeof hidden_proc_route, "../root%s", hidden_abs);
    /* /proc/PARENT/root: another process's root, the host's */
    snprintf(hidden_parent_route, sizeof hidden_parent_route, "../../%d/root%s", (int)parent,
             hidden_abs);
}

#define STAT_BUF (&(struct stat){0})
ACT(stat_hidden_absolute, syscall(SYS_newfstatat, p->tmp_fd, hidden_abs, STAT_BUF, 0))
ACT(statx_hidden_absolute, syscall(SYS_statx, p->root_fd, hidden_abs, 0, 0x7ff, &(char[256]){0}))
ACT(access_hidden_absolute, syscall(SYS_faccessat, p->lib_fd, hidden_abs, F_OK))
ACT(access2_hidden_absolute, syscall(SYS_faccessat2, p->tmp_fd, hidden_abs, F_OK, 0))
ACT(readlink_hidden_absolute,
    syscall(SYS_readlinkat, p->tmp_fd, hidden_link_abs, &(char[64]){0}, 64))
ACT(opath_hidden_absolute, openat(p->tmp_fd, hidden_abs, O_PATH | O_CLOEXEC))
ACT(stat_hidden_climb_tmp, syscall(SYS_newfstatat, p->tmp_fd, "../host/secret", STAT_BUF, 0))
/* '..' as far as it goes from the sysroot, then a host directory */
ACT(stat_hidden_climb_root,
    syscall(SYS_newfstatat, p->root_fd, "../../../../../../../../../../etc", STAT_BUF, 0))
ACT(stat_hidden_climb_outside_fd,
    syscall(SYS_newfstatat, outside_fd, "../host/secret", STAT_BUF, 0))
ACT(stat_hidden_proc_route, syscall(SYS_newfstatat, self_fds, hidden_proc_route, STAT_BUF, 0))
#ifndef ASYMU_SANITIZED /* there all of /proc is in the tree (newroot.c) */
ACT(stat_hidden_parent_route, syscall(SYS_newfstatat, self_fds, hidden_parent_route, STAT_BUF, 0))
ACT(readlink_proc_exe, syscall(SYS_readlinkat, self_fds, "../exe", &(char[64]){0}, 64))
ACT(access_host_proc, syscall(SYS_faccessat, p->tmp_fd, "/proc/1", F_OK))
#endif
ACT(stat_host_etc, syscall(SYS_newfstatat, p->tmp_fd, "/etc", STAT_BUF, 0))

/* Look-ups inside the roots still answer exactly (EDOM: a wrong answer). */
static int wrong(void)
{
    errno = EDOM;
    return -1;
}

static int lookups_inside(const struct sandbox_paths *p, int outside_fd)
{
    struct stat st;
    struct statx stx;
    char buf[PATH_MAX], abs[PATH_MAX + 16], name[16];
    if (syscall(SYS_newfstatat, p->root_fd, "file", &st, 0) < 0)
        return -1;
    if (st.st_mode != (S_IFREG | 0644) || st.st_size != 10)
        return wrong();
    /* a place's absolute path, as asymu's own */
    snprintf(abs, sizeof abs, "%s/guestfile", tmp);
    if (syscall(SYS_newfstatat, p->tmp_fd, abs, &st, 0) < 0)
        return -1;
    if (st.st_mode != (S_IFREG | 0644) || st.st_size != 11)
        return wrong();
    if (syscall(SYS_statx, p->lib_fd, "libfile", 0, STATX_SIZE | STATX_MODE, &stx) < 0)
        return -1;
    if (stx.stx_size != 9 || stx.stx_mode != (S_IFREG | 0644))
        return wrong();
    if (syscall(SYS_newfstatat, outside_fd, "secret", &st, 0) < 0)
        return -1;
    if (st.st_size != 12)
        return wrong();
    if (syscall(SYS_faccessat, p->root_fd, "file", R_OK) < 0 ||
        syscall(SYS_faccessat2, p->tmp_fd, "guestfile", W_OK, 0) < 0)
        return -1;
    ssize_t n = readlinkat(p->tmp_fd, "link", buf, sizeof buf);
    if (n < 0)
        return -1;
    if (n != 9 || memcmp(buf, "guestfile", 9) != 0)
        return wrong();
    /* A descriptor's path (vfs.c maps it to the guest's) is as before. */
    snprintf(name, sizeof name, "%d", p->tmp_fd);
    n = readlinkat(self_fds, name, buf, sizeof buf - 1);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return strcmp(buf, tmp) == 0 ? 0 : wrong();
}

static void test_lookups_stay_in_roots(void **state)
{
    (void)state;
    hidden_paths();
    assert_result(run_confined(false, lookups_inside), 0);
    if (geteuid() != 0) {
        print_message("skipped: not root, so no mount namespace and no new root: look-ups "
                      "by path still reach every host path (docs/security.md, Known limits)\n");
        skip();
    }
    assert_result(run_confined(false, stat_hidden_absolute), ENOENT);
    assert_result(run_confined(false, statx_hidden_absolute), ENOENT);
    assert_result(run_confined(false, access_hidden_absolute), ENOENT);
    assert_result(run_confined(false, access2_hidden_absolute), ENOENT);
    assert_result(run_confined(false, readlink_hidden_absolute), ENOENT);
    assert_result(run_confined(false, opath_hidden_absolute), ENOENT);
    assert_result(run_confined(false, stat_hidden_climb_tmp), ENOENT);
    assert_result(run_confined(false, stat_hidden_climb_root), ENOENT);
    assert_result(run_confined(false, stat_hidden_climb_outside_fd), ENOENT);
    assert_result(run_confined(false, stat_hidden_proc_route), ENOENT);
#ifndef ASYMU_SANITIZED /* there all of /proc is in the tree (newroot.c) */
    assert_result(run_confined(false, stat_hidden_parent_route), ENOENT);
    assert_result(run_confined(false, readlink_proc_exe), ENOENT);
    assert_result(run_confined(false, access_host_proc), ENOENT);
#endif
    assert_result(run_confined(false, stat_host_etc), ENOENT);
    /* With the whole host as the sysroot there is nothing to leave out
     * (the guest sees it all): the look-up answers, as before. */
    sysroot_dir = "/";
    assert_result(run_confined(false, stat_hidden_absolute), 0);
    sysroot_dir = root;
    /* The host's file is still there. */
    struct stat st;
    assert_int_equal(stat(hidden_abs, &st), 0);
    assert_int_equal(st.st_size, 12);
}

/* ---- glibc's own calls at size thresholds (issue 24, item 3) ---- */

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* qsort of 1 KiB or more asks sysinfo(2) for the RAM size (glibc's msort);
 * 256 gids, 64 epoll items and a long ftrace trace all sort that much. */
static int sort_large(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    enum { N = 4096 };
    static int v[N];
    for (int i = 0; i < N; i++)
        v[i] = (i * 7919) % N;
    qsort(v, N, sizeof *v, by_value);
    for (int i = 0; i < N; i++)
        if (v[i] != i)
            return -1;
    /* malloc beyond the mmap threshold, and its release */
    char *big = malloc(64 << 20);
    if (!big)
        return -1;
    memset(big, 1, 64 << 20);
    free(big);
    return 0;
}

static void test_libc_slow_paths(void **state)
{
    (void)state;
    assert_result(run_confined(false, sort_large), 0);
}

/* ---- Landlock: only the guest's places, writes only where writable ---- */

static int read_root_file(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    char buf[16] = "";
    int fd = openat(p->root_fd, "file", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, buf, sizeof buf) != 10 || strncmp(buf, "root file\n", 10) != 0)
        return -1;
    fd = openat(p->lib_fd, "libfile", O_RDONLY | O_CLOEXEC);
    return fd < 0 ? -1 : 0;
}

/* A descriptor the emulator holds outside the places gives nothing. */
static int read_outside_file(const struct sandbox_paths *p, int outside_fd)
{
    (void)p;
    return openat(outside_fd, "secret", O_RDONLY | O_CLOEXEC);
}

/* ".." out of the sysroot, as a bug in the RESOLVE_IN_ROOT lookup would. */
static int climb_out_of_root(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    return openat(p->root_fd, "../outside/secret", O_RDONLY | O_CLOEXEC);
}

static int write_root_file(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    return openat(p->root_fd, "file", O_WRONLY | O_CLOEXEC);
}

static int make_root_dir(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    return mkdirat(p->root_fd, "newdir", 0755);
}

static int write_lib_file(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    return openat(p->lib_fd, "libfile", O_WRONLY | O_CLOEXEC);
}

/* The private /tmp takes files, directories, renames and removals. */
static int work_in_tmp(const struct sandbox_paths *p, int outside_fd)
{
    (void)outside_fd;
    int fd = openat(p->tmp_fd, "f", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, "x", 1) != 1 || ftruncate(fd, 0) < 0)
        return -1;
    /* renameat2, as emu/fs/sys_path.c calls it (glibc's renameat is another syscall). */
    if (mkdirat(p->tmp_fd, "d", 0755) < 0 ||
        syscall(SYS_renameat2, p->tmp_fd, "f", p->tmp_fd, "d/g", 0) < 0)
        return -1;
    if (unlinkat(p->tmp_fd, "d/g", 0) < 0)
        return -1;
    return unlinkat(p->tmp_fd, "d", AT_REMOVEDIR);
}

static void test_landlock_places(void **state)
{
    (void)state;
    if (!have_landlock())
        skip();
    assert_result(run_confined(false, read_root_file), 0);
    assert_result(run_confined(false, read_outside_file), EACCES);
    assert_result(run_confined(false, climb_out_of_root), EACCES);
    assert_result(run_confined(false, write_root_file), denied_change());
    assert_result(run_confined(false, make_root_dir), denied_change());
    assert_result(run_confined(true, write_lib_file), denied_change());
    assert_result(run_confined(false, work_in_tmp), 0);
    struct stat st;
    char d[PATH_MAX + 8];
    snprintf(d, sizeof d, "%s/d", tmp);
    assert_int_equal(stat(d, &st), -1); /* removed again */
}

static void test_rw_sysroot_is_writable(void **state)
{
    (void)state;
    if (!have_landlock())
        skip();
    assert_result(run_confined(true, write_root_file), 0);
    assert_result(run_confined(true, make_root_dir), 0);
    char d[PATH_MAX + 16];
    snprintf(d, sizeof d, "%s/newdir", root);
    assert_int_equal(rmdir(d), 0);
    /* Still nothing outside. */
    assert_result(run_confined(true, read_outside_file), EACCES);
}

/* ---- seccomp: ioctl, signals, limits, processes ---- */

static int ioctl_tiocsti(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    char c = 'x';
    return ioctl(STDIN_FILENO, TIOCSTI, &c);
}

/* An allowed request on a pipe: the kernel's own answer. */
static int ioctl_tcgets_on_pipe(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    int fds[2];
    struct winsize ws;
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    return ioctl(fds[0], TIOCGWINSZ, &ws);
}

static int tgkill_parent(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return (int)syscall(SYS_tgkill, parent, parent, 0);
}

static int tgkill_self(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return (int)syscall(SYS_tgkill, getpid(), gettid(), 0);
}

static int kill_parent(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return kill(parent, 0);
}

static int prlimit_parent(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    struct rlimit rl;
    return prlimit(parent, RLIMIT_NOFILE, NULL, &rl);
}

static int prlimit_self(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
        return -1;
    return prlimit(getpid(), RLIMIT_NOFILE, NULL, &rl);
}

static int fcntl_setown(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return fcntl(STDERR_FILENO, F_SETOWN, parent);
}

static int run_program(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    char *argv[] = {"true", NULL};
    return execve("/bin/true", argv, argv + 1);
}

static int unmount_root(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return umount2(root, MNT_DETACH);
}

static void test_syscall_arguments(void **state)
{
    (void)state;
    assert_refused(run_confined(false, ioctl_tiocsti), SYS_ioctl);
    assert_result(run_confined(false, ioctl_tcgets_on_pipe), ENOTTY);
    assert_refused(run_confined(false, tgkill_parent), SYS_tgkill);
    assert_result(run_confined(false, tgkill_self), 0);
    assert_refused(run_confined(false, kill_parent), SYS_kill);
    assert_refused(run_confined(false, prlimit_parent), SYS_prlimit64);
    assert_result(run_confined(false, prlimit_self), 0);
    assert_refused(run_confined(false, fcntl_setown), SYS_fcntl);
    assert_refused(run_confined(false, run_program), SYS_execve);
    assert_refused(run_confined(false, unmount_root), SYS_umount2);
}

#ifndef ASYMU_SANITIZED /* LeakSanitizer's tracer needs clone there */
static int start_process(const struct sandbox_paths *p, int outside_fd)
{
    (void)p, (void)outside_fd;
    return fork();
}

static void test_no_new_processes(void **state)
{
    (void)state;
    assert_refused(run_confined(false, start_process), SYS_clone);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths_need_a_descriptor),
        cmocka_unit_test(test_path_metadata_refused),
        cmocka_unit_test(test_at_fdcwd_both_extensions),
        cmocka_unit_test(test_descriptors_on_outside_files),
        cmocka_unit_test(test_metadata_by_descriptor_in_tmp),
        cmocka_unit_test(test_readonly_host),
        cmocka_unit_test(test_lookups_stay_in_roots),
        cmocka_unit_test(test_libc_slow_paths),
        cmocka_unit_test(test_landlock_places),
        cmocka_unit_test(test_rw_sysroot_is_writable),
        cmocka_unit_test(test_syscall_arguments),
#ifndef ASYMU_SANITIZED
        cmocka_unit_test(test_no_new_processes),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
