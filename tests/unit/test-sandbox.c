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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sandbox.h"

#define REFUSED 70 /* the SIGSYS handler's status */

/* Scratch host directories: the guest's places and one outside them. */
static char base[256], root[PATH_MAX], lib[PATH_MAX], tmp[PATH_MAX], outside[PATH_MAX];
static pid_t parent;

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
    put_file(root, "file", "root file\n");
    put_file(lib, "libfile", "lib file\n");
    put_file(outside, "secret", "host secret\n");
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
static struct outcome run_confined(bool rw, int (*act)(const struct sandbox_paths *p, int outside_fd))
{
    int errpipe[2];
    assert_int_equal(pipe(errpipe), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(errpipe[1], STDERR_FILENO);
        close(errpipe[0]);
        struct sandbox_paths p = {
            .root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC),
            .root_writable = rw,
            .lib_fd = open(lib, O_PATH | O_DIRECTORY | O_CLOEXEC),
            .tmp_fd = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC),
            .shm_fd = -1,
            .programs_fd = -1,
        };
        int outside_fd = open(outside, O_PATH | O_DIRECTORY | O_CLOEXEC);
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

/* The child was stopped by the filter at syscall nr, with its message. */
static void assert_refused(struct outcome o, long nr)
{
    char want[256];
    snprintf(want, sizeof want,
             "asymu: the sandbox refused host syscall %ld; this is a bug: rerun with "
             "--no-sandbox and report it\n",
             nr);
    assert_string_equal(o.err, want);
    assert_int_equal(o.status, REFUSED);
}

static void assert_result(struct outcome o, int errnum)
{
    assert_string_equal(o.err, "");
    assert_int_equal(o.status, errnum);
}

static bool have_landlock(void)
{
    return landlock_abi() > 0;
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
    assert_result(run_confined(false, write_root_file), EACCES);
    assert_result(run_confined(false, make_root_dir), EACCES);
    assert_result(run_confined(true, write_lib_file), EACCES);
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
        cmocka_unit_test(test_landlock_places),
        cmocka_unit_test(test_rw_sysroot_is_writable),
        cmocka_unit_test(test_syscall_arguments),
#ifndef ASYMU_SANITIZED
        cmocka_unit_test(test_no_new_processes),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
