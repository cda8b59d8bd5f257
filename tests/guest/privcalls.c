/* SPDX-License-Identifier: GPL-2.0-or-later */
/* privcalls.c - the administrative calls Linux refuses an asymu guest
 * (emu/kernel/sys_admin.c, emu/fs/sys_mount_api.c; docs/processes.md,
 * "Calls Linux refuses here"). Modes: "root" (the guest's default),
 * "nobody" (after setuid(65534)), "restart" and "halt" (reboot ends the
 * machine: pid 1 killed by SIGHUP or SIGINT). One line per call. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <linux/reboot.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void show(const char *what, long r)
{
    printf("%s: %s\n", what, r < 0 ? err_name(errno) : r == 0 ? "0" : "ok");
}

static void sysctl(const char *path)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    if (!f || !fgets(buf, sizeof buf, f))
        snprintf(buf, sizeof buf, "%s\n", err_name(errno));
    if (f)
        fclose(f);
    printf("%s: %s", path, buf);
}

#define MAGIC1 LINUX_REBOOT_MAGIC1
#define MAGIC2 LINUX_REBOOT_MAGIC2

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "root";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(mode, "restart") || !strcmp(mode, "halt")) {
        /* A child reboots: the machine ends with pid 1 killed. */
        pid_t c = fork();
        if (c == 0) {
            syscall(SYS_reboot, MAGIC1, MAGIC2,
                    !strcmp(mode, "restart") ? LINUX_REBOOT_CMD_RESTART : LINUX_REBOOT_CMD_HALT,
                    NULL);
            printf("reboot returned: %s\n", err_name(errno));
            _exit(1);
        }
        waitpid(c, NULL, 0);
        printf("pid 1 still runs\n");
        return 1;
    }
    if (!strcmp(mode, "nobody") && setuid(65534) < 0)
        return 2;
    printf("mode %s, euid %d\n", mode, (int)geteuid());
    int tmpfd = open("/tmp/privcalls-file", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (write(tmpfd, "x", 1) != 1)
        return 3;
    show("reboot bad magic", syscall(SYS_reboot, 1, MAGIC2, LINUX_REBOOT_CMD_CAD_ON, NULL));
    show("reboot bad magic2", syscall(SYS_reboot, MAGIC1, 1, LINUX_REBOOT_CMD_CAD_ON, NULL));
    show("reboot CAD_ON", syscall(SYS_reboot, MAGIC1, MAGIC2, LINUX_REBOOT_CMD_CAD_ON, NULL));
    show("reboot CAD_OFF",
         syscall(SYS_reboot, MAGIC1, LINUX_REBOOT_MAGIC2C, LINUX_REBOOT_CMD_CAD_OFF, NULL));
    show("reboot bad cmd", syscall(SYS_reboot, MAGIC1, MAGIC2, 0x12345678, NULL));
    show("kexec_load", syscall(SYS_kexec_load, 0, 0, NULL, 0));
    show("kexec_file_load", syscall(SYS_kexec_file_load, tmpfd, tmpfd, 1, "", 0));
    show("init_module", syscall(SYS_init_module, "x", 1, ""));
    show("finit_module", syscall(SYS_finit_module, tmpfd, "", 0));
    show("delete_module", syscall(SYS_delete_module, "nope", 0));
    show("swapon bad flags", syscall(SYS_swapon, "/tmp/privcalls-file", 0x100000));
    show("swapon file", syscall(SYS_swapon, "/tmp/privcalls-file", 0));
    show("swapon missing", syscall(SYS_swapon, "/tmp/no-such-file", 0));
    show("swapoff file", syscall(SYS_swapoff, "/tmp/privcalls-file"));
    show("acct NULL", syscall(SYS_acct, NULL));
    show("acct dir", syscall(SYS_acct, "/tmp"));
    show("acct missing", syscall(SYS_acct, "/tmp/no-such-file"));
    show("quotactl Q_SYNC NULL", syscall(SYS_quotactl, 0x80000100, NULL, 0, NULL));
    show("quotactl Q_GETQUOTA NULL", syscall(SYS_quotactl, 0x80000700, NULL, 0, NULL));
    show("quotactl bad type", syscall(SYS_quotactl, 0x80000703, "/", 0, NULL));
    show("quotactl on a file", syscall(SYS_quotactl, 0x80000700, "/tmp/privcalls-file", 0, NULL));
    show("quotactl missing", syscall(SYS_quotactl, 0x80000700, "/tmp/no-such-file", 0, NULL));
    show("quotactl_fd", syscall(SYS_quotactl_fd, tmpfd, 0x80000700, 0, NULL));
    show("quotactl_fd bad fd", syscall(SYS_quotactl_fd, 999, 0x80000700, 0, NULL));
    show("pivot_root", syscall(SYS_pivot_root, "/tmp", "/tmp"));
    show("pivot_root missing", syscall(SYS_pivot_root, "/tmp/no-such-dir", "/tmp"));
    show("pivot_root file", syscall(SYS_pivot_root, "/tmp/privcalls-file", "/tmp"));
    show("pivot_root empty", syscall(SYS_pivot_root, "", "/tmp"));
    show("open_tree bad flags", syscall(SYS_open_tree, AT_FDCWD, "/tmp", 0x2));
    show("open_tree recursive alone", syscall(SYS_open_tree, AT_FDCWD, "/tmp", 0x8000));
    long fd = syscall(SYS_open_tree, AT_FDCWD, "/tmp", 0);
    show("open_tree O_PATH", fd);
    if (fd >= 0) {
        int fl = fcntl((int)fd, F_GETFL);
        printf("open_tree fd is O_PATH: %s\n", (fl & O_PATH) ? "yes" : "no");
        close((int)fd);
    }
    show("open_tree clone", syscall(SYS_open_tree, AT_FDCWD, "/tmp", 1));
    show("open_tree missing", syscall(SYS_open_tree, AT_FDCWD, "/tmp/no-such-dir", 0));
    show("move_mount", syscall(SYS_move_mount, AT_FDCWD, "/tmp", AT_FDCWD, "/mnt", 0));
    show("move_mount bad flags",
         syscall(SYS_move_mount, AT_FDCWD, "/tmp", AT_FDCWD, "/tmp", 0x1000));
    show("fsopen tmpfs", syscall(SYS_fsopen, "tmpfs", 0));
    show("fsopen bad flags", syscall(SYS_fsopen, "tmpfs", 2));
    show("fsconfig bad fd", syscall(SYS_fsconfig, 999, 6, NULL, NULL, 0));
    show("fsconfig not a context", syscall(SYS_fsconfig, tmpfd, 6, NULL, NULL, 0));
    show("fsconfig bad cmd", syscall(SYS_fsconfig, tmpfd, 99, NULL, NULL, 0));
    show("fsconfig negative fd", syscall(SYS_fsconfig, -1, 6, NULL, NULL, 0));
    show("fsmount not a context", syscall(SYS_fsmount, tmpfd, 0, 0));
    show("fsmount bad atime", syscall(SYS_fsmount, tmpfd, 0, 0x30));
    show("fspick", syscall(SYS_fspick, AT_FDCWD, "/tmp", 0));
    char attr[32] = {0};
    show("mount_setattr nop", syscall(SYS_mount_setattr, AT_FDCWD, "/tmp", 0, attr, 32));
    attr[0] = 1; /* MOUNT_ATTR_RDONLY */
    show("mount_setattr rdonly", syscall(SYS_mount_setattr, AT_FDCWD, "/tmp", 0, attr, 32));
    show("mount_setattr small", syscall(SYS_mount_setattr, AT_FDCWD, "/tmp", 0, attr, 16));
    show("landlock version", syscall(SYS_landlock_create_ruleset, NULL, 0, 1));
    show("landlock_add_rule", syscall(SYS_landlock_add_rule, 3, 1, NULL, 0));
    show("landlock_restrict_self", syscall(SYS_landlock_restrict_self, 3, 0));
#ifdef SYS_memfd_secret
    show("memfd_secret", syscall(SYS_memfd_secret, 0));
#else
    printf("memfd_secret: not in this table\n");
#endif
    uint32_t pattr[32] = {0, 128};
    show("perf_event_open bad flags", syscall(SYS_perf_event_open, pattr, 0, -1, -1, 0x10));
    show("perf_event_open", syscall(SYS_perf_event_open, pattr, 0, -1, -1, 0));
    show("bpf", syscall(SYS_bpf, 0, NULL, 0));
    show("userfaultfd", syscall(SYS_userfaultfd, O_CLOEXEC));
    show("userfaultfd user mode bad flag", syscall(SYS_userfaultfd, 1 | 2));
    show("fanotify_init", syscall(SYS_fanotify_init, 0, 0));
    show("fanotify_mark bad fd", syscall(SYS_fanotify_mark, 999, 1, 1, AT_FDCWD, "/tmp"));
    show("fanotify_mark not a group", syscall(SYS_fanotify_mark, tmpfd, 1, 1, AT_FDCWD, "/tmp"));
    char handle[8 + 128] = {0};
    handle[0] = 128;
    int mnt = 0;
    show("name_to_handle_at", syscall(SYS_name_to_handle_at, AT_FDCWD, "/tmp", handle, &mnt, 0));
    show("name_to_handle_at bad flag",
         syscall(SYS_name_to_handle_at, AT_FDCWD, "/tmp", handle, &mnt, 1));
    show("name_to_handle_at empty",
         syscall(SYS_name_to_handle_at, AT_FDCWD, "", handle, &mnt, 0));
    show("name_to_handle_at missing",
         syscall(SYS_name_to_handle_at, AT_FDCWD, "/tmp/no-such-file", handle, &mnt, 0));
    show("open_by_handle_at", syscall(SYS_open_by_handle_at, AT_FDCWD, handle, O_RDONLY));
    handle[0] = 0;
    show("open_by_handle_at empty", syscall(SYS_open_by_handle_at, AT_FDCWD, handle, O_RDONLY));
    show("remap_file_pages prot", syscall(SYS_remap_file_pages, 0x10000, 4096, 1, 0, 0));
    show("remap_file_pages", syscall(SYS_remap_file_pages, 0x10000, 4096, 0, 0, 0));
    sysctl("/proc/sys/kernel/modules_disabled");
    sysctl("/proc/sys/kernel/kexec_load_disabled");
    sysctl("/proc/sys/kernel/perf_event_paranoid");
    sysctl("/proc/sys/kernel/unprivileged_bpf_disabled");
    sysctl("/proc/sys/vm/unprivileged_userfaultfd");
    /* The machine's file system types (sysfs(2) on arm answers over them). */
    FILE *f = fopen("/proc/filesystems", "r");
    char line[64];
    printf("/proc/filesystems:");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        printf(" [%s]", line);
    }
    printf("\n");
    if (f)
        fclose(f);
    close(tmpfd);
    return 0;
}
