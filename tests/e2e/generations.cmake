# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/generations.cmake: the Linux generations (spec section 7). Each
# test runs one program twice, under --policy upstream (Linux 5.15) and
# --policy linux-6.6, with the output each generation gives: the names are
# pol-7-<what differs>-<policy>, and docs/policies.md (rules G1-G6) says which
# kernel function each answer comes from. Uses policies.cmake's helpers.

# asymu_e2e_generations(NAME what [POLICIES p...] RUN program args...):
# pol-7-what-upstream and pol-7-what-linux-6.6 (or pol-7-what-p for each of
# POLICIES), expected outputs expected/pol-7-what-<policy>.out.
function(asymu_e2e_generations)
  cmake_parse_arguments(PARSE_ARGV 0 G "" "NAME" "RUN;POLICIES")
  if(NOT G_POLICIES)
    set(G_POLICIES upstream linux-6.6)
  endif()
  foreach(policy IN LISTS G_POLICIES)
    asymu_e2e_policy(NAME pol-7-${G_NAME}-${policy} POLICY ${policy} RUN ${G_RUN})
  endforeach()
endfunction()

# G1: a 32-bit task asks for {2,5} and gets {2}; a 64-bit exec keeps {2}
# (5.15: the successful call dropped the saved mask) or restores the {2,5}
# it asked for (6.6).
asymu_e2e_generations(NAME user-mask-restored-after-exec64
                      RUN ${SHOW32} set:2,5 exec:${SHOW64} aff)
# G3: {4,5} has no 32-bit CPU, so the 32-bit exec falls back to 0-3. 5.15
# saved nothing and the 64-bit exec keeps 0-3; 6.6 still has the user's
# {4,5} and restores it.
asymu_e2e_generations(NAME fallback-keeps-user-mask
                      RUN ${LAUNCH} 4-5 ${SHOW32} aff exec:${SHOW64} aff)
# G3: a second 32-bit exec narrows A = 0-3 without a log line under 5.15,
# but narrows the user mask {4,5} again under 6.6: a second override.
asymu_e2e_generations(NAME exec32-narrows-user-mask
                      RUN ${LAUNCH} 4-5 ${SHOW32} exec:${SHOW32} dmesg:Overriding)
# G3: the override mask is M & online under 5.15 (0-2 with cpu3 offline) and
# the cpuset's mask, all of M, under 6.6 (0-3; getaffinity still reads 0-2).
# Once cpu3 is back, 6.6's task may run there (0-3) and 5.15's may not
# (0-2). Only 6.6 runs here: 5.15's answer to the same commands is
# pol-U1-fallback-online-only (policies.cmake), which an upstream run here
# repeated line for line.
asymu_e2e_generations(NAME fallback-mask-includes-offline POLICIES linux-6.6
                      RUN ${SHOW64} online:3:0 exec:${LAUNCH} 4-7 ${SHOW32} show:5
                          dmesg:Overriding online:3:1 aff)
# G5: the restore of {4,5} fails while both are offline. 5.15 had saved
# nothing; 6.6 keeps the user mask through the failure, so after they come
# back the 32-bit exec overrides again and the 64-bit exec restores {4,5}
# (5.15: that exec saved 0-3, which the 64-bit exec restores).
asymu_e2e_generations(NAME failed-restore-keeps-user-mask
                      RUN ${SHOW64} set:4,5 exec:${SHOW32} aff online:4:0 online:5:0
                          exec:${SHOW64} aff online:4:1 online:5:1 exec:${SHOW32} aff
                          exec:${SHOW64} aff)
# G6: a 32-bit task pinned to cpu3 falls back to 0-3 when cpu3 goes offline.
# 6.6's fallback drops the user mask {3}, so the 64-bit exec applies every
# CPU; 5.15 has no saved mask (the call dropped it) and keeps 0-3.
asymu_e2e_generations(NAME fallback-drops-user-mask
                      RUN ${SHOW32} set:3 online:3:0 aff exec:${SHOW64} aff)

# G4: tasks of the root cpuset keep offline CPUs in A (6.6): {4,5} with cpu5
# offline stores 4-5, and so does the 64-bit exec that applies it again;
# 5.15 stores only the active CPUs (U8): 4.
asymu_e2e_generations(NAME setaffinity-keeps-offline-cpus
                      RUN ${SHOW64} online:5:0 set:4-5 status:self exec:${SHOW64} status:self)
# U3 against G1: a 32-bit task of {2,5} (A = {2}) asks for {2}, its own
# mask. 5.15 takes the equal-mask exit and keeps the saved {2,5}, which the
# 64-bit exec restores; 6.6 records {2} as the user's mask and applies it.
asymu_e2e_generations(NAME equal-mask-keeps-saved-mask
                      RUN ${LAUNCH} 2,5 ${SHOW32} set:2 exec:${SHOW64} aff)
