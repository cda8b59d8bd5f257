# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/fuzzfound.cmake: the fuzz harnesses' findings, replayed
# (tests/fuzz/README.md; e2e tests in tests/e2e/fuzzfound.cmake).
asymu_guest_program(fuzzfound fuzzfound.c)
