/* umask.c - the file mode creation mask: kept per process, inherited by
 * fork, applied to the files and directories the guest creates, whatever
 * asymu's own mask is (proc.cmake). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void created(const char *what, const char *path)
{
    struct stat st;
    stat(path, &st);
    printf("%s: %04o\n", what, (unsigned)(st.st_mode & 07777));
}

int main(void)
{
    printf("umask(027) was %04o\n", (unsigned)umask(027));
    close(open("/tmp/umask-file", O_CREAT | O_WRONLY, 0666));
    created("open(0666) under 027", "/tmp/umask-file");
    mkdir("/tmp/umask-dir", 0777);
    created("mkdir(0777) under 027", "/tmp/umask-dir");
    close(open("/tmp/umask-file", O_CREAT | O_WRONLY, 0600));
    created("open(O_CREAT) of an existing file keeps its mode", "/tmp/umask-file");
    unlink("/tmp/umask-file");
    rmdir("/tmp/umask-dir");
    fflush(stdout);
    if (fork() == 0) {
        printf("child: umask(0) was %04o\n", (unsigned)umask(0));
        close(open("/tmp/umask-file", O_CREAT | O_WRONLY, 0666));
        created("child: open(0666) under 0", "/tmp/umask-file");
        unlink("/tmp/umask-file");
        fflush(stdout);
        _exit(0);
    }
    wait(NULL);
    printf("parent: umask(0) was %04o\n", (unsigned)umask(0));
    return 0;
}
