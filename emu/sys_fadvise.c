/* sys_fadvise.c - posix_fadvise: asymu keeps no page cache, so advice is
 * only checked, as Linux checks it, and otherwise has no effect. */
#include "file_access.h"

#include <errno.h>
#include <sys/stat.h>

/* POSIX_FADV_NORMAL ... POSIX_FADV_NOREUSE on arm and arm64. */
#define GUEST_FADV_MAX 5

static bool file_is_fifo(const struct file *f)
{
    if (f->kind == FILE_PIPE)
        return true;
    struct stat st;
    return (f->kind == FILE_HOST || f->kind == FILE_CONSOLE) && fstat(f->host_fd, &st) == 0 &&
           S_ISFIFO(st.st_mode);
}

static int64_t fadvise(struct task *t, int fd, int64_t len, uint32_t advice)
{
    struct file *f = file_get_io(t, fd);
    if (!f)
        return -EBADF;
    if (file_is_fifo(f))
        return -ESPIPE;
    if (len < 0 || advice > GUEST_FADV_MAX)
        return -EINVAL;
    return 0;
}

/* fadvise64(fd, offset, len, advice) */
SYSCALL_DECL(fadvise64)
{
    return fadvise(t, (int)a[0], (int64_t)a[2], (uint32_t)a[3]);
}

/* arm_fadvise64_64(fd, advice, offset, len): advice moved up so that each
 * 64-bit argument gets an aligned register pair (offset r2:r3, len r4:r5). */
SYSCALL_DECL(arm_fadvise64_64)
{
    return fadvise(t, (int)a[0], (int64_t)((a[5] << 32) | a[4]), (uint32_t)a[1]);
}
