/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lsan_suppressions.c - LeakSanitizer's suppressions, built into every
 * sanitized and fuzzing executable (CMakeLists.txt links this object into
 * each): LeakSanitizer asks for them when the process exits, so they hold
 * wherever the process then is (a --sysroot run's new root and mount
 * namespace see no file of the host's, LSAN_OPTIONS=suppressions=FILE would
 * not be found). Each line is an allocation that is kept for the life of
 * the process:
 * - fuse_session_mount: the mount point string libfuse frees only in
 *   fuse_session_unmount, which asymu never calls (the unconfined janitor
 *   process unmounts: emu/machine/crash.c).
 * - libtraceevent.so: Debian's libtraceevent 1.7 leaks what it parsed of an
 *   event format it then refuses (a few bytes per malformed format of a
 *   trace.dat `asymu report` reads; fuzz-report finds them). Not asymu's
 *   memory, and bounded by the file. */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
    return "leak:fuse_session_mount\n"
           "leak:libtraceevent.so\n";
}
