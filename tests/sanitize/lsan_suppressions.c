/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lsan_suppressions.c - LeakSanitizer's suppressions, built into every
 * sanitized and fuzzing executable (CMakeLists.txt links this object into
 * each): LeakSanitizer asks for them when the process exits, so they hold
 * wherever the process then is (a --sysroot run's new root and mount
 * namespace see no file of the host's, LSAN_OPTIONS=suppressions=FILE would
 * not be found). Each line is an allocation that is kept for the life of
 * the process, matched by its library's name (a module is matched without
 * symbolizing, which clang's runtime does by forking llvm-symbolizer, and
 * asymu's sandbox refuses fork; what a library keeps from
 * asymu's calls is left out of the count by leakcheck.h instead):
 * - libtraceevent.so: Debian's libtraceevent 1.7 leaks what it parsed of an
 *   event format it then refuses (a few bytes per malformed format of a
 *   trace.dat `asymu report` reads; fuzz-report finds them). Not asymu's
 *   memory, and bounded by the file. */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
    return "leak:libtraceevent.so\n";
}
