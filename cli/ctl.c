/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ctl.c - `asymu ctl PATH COMMAND [ARGS...]`: sends one request to a
 * running machine's control socket (asymu run --control PATH,
 * docs/control.md) and prints its JSON response line. */
#include "ctl.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define EXIT_ERROR_RESPONSE 1
#define EXIT_NO_CONNECTION 2

int ctl_connect(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

int ctl_send(int fd, const char *buf, size_t len)
{
    while (len) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL); /* a machine that ended: EPIPE */
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* The arguments joined by spaces, with the request's newline. */
static char *request_line(int argc, char **argv)
{
    size_t len = 2;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *line = malloc(len);
    if (!line)
        return NULL;
    line[0] = '\0';
    for (int i = 0; i < argc; i++) {
        strcat(line, argv[i]);
        strcat(line, i + 1 < argc ? " " : "\n");
    }
    return line;
}

char *ctl_response(FILE *in)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, in);
    if (n <= 0 || line[n - 1] != '\n') {
        free(line);
        return NULL;
    }
    return line;
}

int ctl_main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: asymu ctl PATH COMMAND [ARGS...] (docs/control.md)\n");
        return EXIT_NO_CONNECTION;
    }
    int fd = ctl_connect(argv[0]);
    if (fd < 0) {
        fprintf(stderr, "asymu ctl: cannot connect to %s: %s\n", argv[0], strerror(errno));
        return EXIT_NO_CONNECTION;
    }
    char *request = request_line(argc - 1, argv + 1);
    FILE *in = fdopen(fd, "r");
    if (!request || !in || ctl_send(fd, request, strlen(request)) < 0) {
        fprintf(stderr, "asymu ctl: cannot send the request: %s\n", strerror(errno));
        free(request);
        if (in)
            fclose(in);
        else
            close(fd);
        return EXIT_NO_CONNECTION;
    }
    free(request);
    char *response = ctl_response(in);
    fclose(in);
    if (!response) {
        fprintf(stderr, "asymu ctl: %s closed without a response (the machine ended)\n", argv[0]);
        return EXIT_NO_CONNECTION;
    }
    fputs(response, stdout);
    json_t *parsed = json_loads(response, 0, NULL);
    int status = !parsed || json_object_get(parsed, "error") ? EXIT_ERROR_RESPONSE : 0;
    json_decref(parsed);
    free(response);
    return status;
}
