/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.c - execve: chains across ISAs that keep the pid, what survives an
 * exec (fds without O_CLOEXEC, ignored signals, the signal mask) and what
 * does not (O_CLOEXEC fds, handlers), #! scripts, and exec errors. The first
 * argument names the case:
 *
 *   chain STATUS PROG...      prints this step, then execs PROG[0] with the
 *                             rest; the last step exits STATUS
 *   chain-pid STATUS PROG...  the same, printing the pids themselves
 *   forkchain STATUS PROG...  a child runs the chain; the parent reports it
 *   forkchain-pid STATUS PROG...  the same, printing the pids
 *   cloexec PROG              opens fds with and without close-on-exec and
 *                             execs PROG cloexec-check NAME=FD...
 *   run PATH ARGS...          execv(PATH, PATH ARGS...): for #! scripts
 *   execfail PATH...          the errno of execv for each PATH
 *
 * The chain passes its state in the environment (EXEC_FIRST_PID and
 * EXEC_STEP), so every step can say whether its pid is the first one's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static void on_signal(int sig)
{
    (void)sig;
}

static const char *disposition(int sig)
{
    struct sigaction sa;
    if (sigaction(sig, NULL, &sa) != 0)
        return "error";
    if (sa.sa_handler == SIG_DFL)
        return "default";
    if (sa.sa_handler == SIG_IGN)
        return "ignored";
    return "handled";
}

/* argv: MODE STATUS PROG... The first step sets the state later steps check. */
static int run_chain(int argc, char **argv, int print_pids)
{
    const char *first = getenv("EXEC_FIRST_PID");
    const char *step_s = getenv("EXEC_STEP");
    int step = step_s ? atoi(step_s) + 1 : 1;
    char buf[32];
    if (!first) {
        snprintf(buf, sizeof buf, "%d", (int)getpid());
        setenv("EXEC_FIRST_PID", buf, 1);
        first = getenv("EXEC_FIRST_PID");
    }
    if (step == 1) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGUSR1, &sa, NULL);
        signal(SIGUSR2, SIG_IGN);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGHUP);
        sigprocmask(SIG_BLOCK, &set, NULL);
    }
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    printf("step %d %s pid %s", step, ISA, atoi(first) == (int)getpid() ? "unchanged" : "CHANGED");
    if (print_pids)
        printf(" (%d, ppid %d)", (int)getpid(), (int)getppid());
    printf(", SIGUSR1 %s, SIGUSR2 %s, SIGHUP %s\n", disposition(SIGUSR1), disposition(SIGUSR2),
           sigismember(&cur, SIGHUP) ? "blocked" : "unblocked");
    int status = atoi(argv[2]);
    if (argc <= 3)
        return status;
    snprintf(buf, sizeof buf, "%d", step);
    setenv("EXEC_STEP", buf, 1);
    /* The next step's argv: PROG MODE STATUS REST... */
    char **next = calloc((size_t)argc, sizeof *next);
    next[0] = argv[3];
    next[1] = argv[1];
    next[2] = argv[2];
    for (int i = 4; i < argc; i++)
        next[i - 1] = argv[i];
    fflush(stdout);
    execv(next[0], next);
    printf("execv failed: %s\n", err_name(errno));
    return 127;
}

static int run_forkchain(int argc, char **argv, int print_pids)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char buf[32];
        snprintf(buf, sizeof buf, "%d", (int)getpid());
        setenv("EXEC_FIRST_PID", buf, 1);
        argv[1] = print_pids ? "chain-pid" : "chain";
        run_chain(argc, argv, print_pids);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) {
        printf("waitpid failed: %s\n", err_name(errno));
        return 1;
    }
    if (print_pids)
        printf("parent (%d): child %d exited %d\n", (int)getpid(), (int)pid,
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    else
        printf("parent: child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

struct fd_case {
    const char *name;
    int fd;
};

static int run_cloexec(const char *prog)
{
    struct fd_case c[8];
    int n = 0;
    int pipefd[2];
    c[n++] = (struct fd_case){"plain", open("/dev/null", O_RDONLY)};
    c[n++] = (struct fd_case){"o_cloexec", open("/dev/null", O_RDONLY | O_CLOEXEC)};
    pipe2(pipefd, O_CLOEXEC);
    c[n++] = (struct fd_case){"pipe2_cloexec", pipefd[0]};
    c[n++] = (struct fd_case){"dupfd_cloexec", fcntl(c[0].fd, F_DUPFD_CLOEXEC, 10)};
    int set = open("/dev/null", O_RDONLY);
    fcntl(set, F_SETFD, FD_CLOEXEC);
    c[n++] = (struct fd_case){"setfd_cloexec", set};
    int cleared = open("/dev/null", O_RDONLY | O_CLOEXEC);
    fcntl(cleared, F_SETFD, 0);
    c[n++] = (struct fd_case){"setfd_cleared", cleared};
    c[n++] = (struct fd_case){"dup3_cloexec", dup3(c[0].fd, 20, O_CLOEXEC)};
    c[n++] = (struct fd_case){"dup2_of_cloexec", dup2(c[1].fd, 21)};

    char *args[12];
    char bufs[8][48];
    int k = 0;
    args[k++] = (char *)prog;
    args[k++] = "cloexec-check";
    for (int i = 0; i < n; i++) {
        printf("before exec %s: F_GETFD %d\n", c[i].name, fcntl(c[i].fd, F_GETFD));
        snprintf(bufs[i], sizeof bufs[i], "%s=%d", c[i].name, c[i].fd);
        args[k++] = bufs[i];
    }
    args[k] = NULL;
    fflush(stdout);
    execv(prog, args);
    printf("execv failed: %s\n", err_name(errno));
    return 127;
}

static int run_cloexec_check(int argc, char **argv)
{
    printf("checked by %s\n", ISA);
    for (int i = 2; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            continue;
        *eq = '\0';
        errno = 0;
        int r = fcntl(atoi(eq + 1), F_GETFD);
        if (r < 0)
            printf("after exec %s: %s\n", argv[i], err_name(errno));
        else
            printf("after exec %s: open, F_GETFD %d\n", argv[i], r);
    }
    return 0;
}

static int run_execfail(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        errno = 0;
        execl(argv[i], argv[i], (char *)NULL);
        printf("exec %d: %s\n", i - 1, err_name(errno));
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "chain") == 0 && argc > 2)
        return run_chain(argc, argv, 0);
    if (strcmp(mode, "chain-pid") == 0 && argc > 2)
        return run_chain(argc, argv, 1);
    if (strcmp(mode, "forkchain") == 0 && argc > 2)
        return run_forkchain(argc, argv, 0);
    if (strcmp(mode, "forkchain-pid") == 0 && argc > 2)
        return run_forkchain(argc, argv, 1);
    if (strcmp(mode, "cloexec") == 0 && argc > 2)
        return run_cloexec(argv[2]);
    if (strcmp(mode, "cloexec-check") == 0)
        return run_cloexec_check(argc, argv);
    if (strcmp(mode, "run") == 0 && argc > 2) {
        fflush(stdout);
        execv(argv[2], argv + 2);
        printf("execv failed: %s\n", err_name(errno));
        return 127;
    }
    if (strcmp(mode, "execfail") == 0)
        return run_execfail(argc, argv);
    printf("usage: exec chain|chain-pid|forkchain|forkchain-pid STATUS PROG... | cloexec PROG"
           " | run PATH ARGS... | execfail PATH...\n");
    return 2;
}
