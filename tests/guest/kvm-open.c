/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kvm-open.c - /dev/kvm as a guest process finds it (docs/kvm.md): a
 * character device 10,232 mode 0660 that a 64-bit process opens and asks
 * for the API version; arm64 Linux has no compat KVM, so a 32-bit process
 * gets ENODEV from open. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define KVM_GET_API_VERSION 0xae00

int main(void)
{
    struct stat st;
    if (stat("/dev/kvm", &st) != 0) {
        printf("stat: %s\n", errno == ENOENT ? "ENOENT" : strerror(errno));
        return 0;
    }
    printf("character device %s %u,%u mode %04o\n", S_ISCHR(st.st_mode) ? "yes" : "no",
           major(st.st_rdev), minor(st.st_rdev), (unsigned)(st.st_mode & 07777));
    int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        printf("open: %s\n", errno == ENODEV ? "ENODEV" : strerror(errno));
        return 0;
    }
    printf("KVM_GET_API_VERSION: %d\n", ioctl(fd, KVM_GET_API_VERSION, 0));
    close(fd);
    return 0;
}
