# SPDX-License-Identifier: GPL-2.0-or-later
# Guest programs of the security guarantees (docs/security.md).
asymu_guest_program(readonly readonly.c)
asymu_guest_program(limits limits.c EXTRA -pthread)
asymu_guest_program(manythreads manythreads.c EXTRA -pthread)
asymu_guest_program(clonesig clonesig.c)
asymu_guest_program(killall killall.c)
asymu_guest_program(dirlist dirlist.c)
asymu_guest_program(rlimits rlimits.c)
