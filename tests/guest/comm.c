/* SPDX-License-Identifier: GPL-2.0-or-later */
/* comm.c - a thread's name (comm): prctl(PR_SET_NAME) cuts it to 15 bytes
 * and sets the calling thread's only; PR_GET_NAME, /proc/PID/comm (the
 * main thread's), /proc/PID/task/TID/comm and the Name: line of status
 * follow it, and so does the kernel log, which names a task by its comm
 * when an offlined CPU leaves it with no CPU of its affinity. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

/* The first line of a /proc file, without its newline. */
static void show_file(const char *label, const char *path, const char *prefix)
{
    char buf[4096];
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    if (n < 0) {
        printf("%s: %s\n", label, err_name(errno));
        return;
    }
    buf[n] = '\0';
    char *line = prefix ? strstr(buf, prefix) : buf;
    if (!line) {
        printf("%s: no %s line\n", label, prefix);
        return;
    }
    line[strcspn(line, "\n")] = '\0';
    printf("%s: \"%s\"\n", label, line);
}

static void show_get_name(const char *label)
{
    char name[32];
    memset(name, 'x', sizeof name);
    int r = prctl(PR_GET_NAME, name);
    printf("%s: %d \"%s\" byte 15: %d\n", label, r, name, name[15]);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int worker_tid, worker_named, main_done;

static void *worker(void *arg)
{
    (void)arg;
    show_get_name("worker inherits");
    prctl(PR_SET_NAME, "worker-with-a-long-name");
    show_get_name("worker PR_GET_NAME");
    pthread_mutex_lock(&lock);
    worker_tid = (int)syscall(SYS_gettid);
    worker_named = 1;
    pthread_cond_broadcast(&cond);
    while (!main_done)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* The kernel log's "no longer affine" records, after their "pri,seq,ts,-;". */
static void show_kmsg(void)
{
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
    char buf[2048];
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buf, sizeof buf - 1)) > 0) {
        buf[n] = '\0';
        char *text = strchr(buf, ';');
        if (text && strstr(text, "no longer affine"))
            printf("kmsg: %s", text + 1);
    }
    if (fd >= 0)
        close(fd);
}

int main(void)
{
    char path[64];
    printf("PR_SET_NAME: %d\n", prctl(PR_SET_NAME, "main-thread-name-too-long"));
    show_get_name("main PR_GET_NAME");
    show_file("/proc/self/comm", "/proc/self/comm", NULL);
    show_file("/proc/self/status", "/proc/self/status", "Name:");

    pthread_t th;
    pthread_create(&th, NULL, worker, NULL);
    pthread_mutex_lock(&lock);
    while (!worker_named)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", worker_tid);
    show_file("worker's task comm", path, NULL);
    snprintf(path, sizeof path, "/proc/self/task/%d/status", worker_tid);
    show_file("worker's task status", path, "Name:");
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", getpid());
    show_file("main's task comm", path, NULL);
    show_file("/proc/self/comm after the worker's", "/proc/self/comm", NULL);
    /* pthread_setname_np on another thread writes its task/TID/comm. */
    printf("pthread_setname_np(worker): %d\n", pthread_setname_np(th, "renamed-by-main"));
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", worker_tid);
    show_file("worker's task comm", path, NULL);
    char name[32] = "";
    printf("pthread_getname_np(worker): %d \"%s\"\n", pthread_getname_np(th, name, sizeof name),
           name);
    /* Another process's comm cannot be written. */
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    snprintf(path, sizeof path, "/proc/%d/comm", child);
    int cfd = open(path, O_WRONLY);
    printf("write another process's comm: %s\n", write(cfd, "x", 1) < 0 ? err_name(errno) : "ok");
    close(cfd);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    pthread_mutex_lock(&lock);
    main_done = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    pthread_join(th, NULL);

    /* Offlining a CPU is for asymu's machine only: under qemu-user as root
     * it would offline one of the host's. */
    struct utsname u;
    if (uname(&u) != 0 || !strstr(u.release, "asymu"))
        return 0;
    /* cpu3 runs both ISAs: pinned there, this thread loses its only CPU. */
    prctl(PR_SET_NAME, "pinned");
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(3, &set);
    printf("sched_setaffinity: %d\n", sched_setaffinity(0, sizeof set, &set));
    int fd = open("/sys/devices/system/cpu/cpu3/online", O_WRONLY);
    printf("offline cpu3: %zd\n", fd < 0 ? -1 : write(fd, "0", 1));
    if (fd >= 0)
        close(fd);
    sched_yield();
    show_kmsg();
    return 0;
}
