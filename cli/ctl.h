/* ctl.h - `asymu ctl PATH COMMAND [ARGS...]` (ctl.c): one request to a
 * control socket. Exit status 0, 1 for an error response, 2 when it cannot
 * connect (or the machine ends before answering). */
#ifndef ASYMU_CTL_H
#define ASYMU_CTL_H

int ctl_main(int argc, char **argv);

#endif
