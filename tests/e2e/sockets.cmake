# SPDX-License-Identifier: GPL-2.0-or-later
# Sockets inside the machine (docs/ipc.md): `sockets CMD` runs a parent and a
# child over AF_UNIX, loopback TCP/UDP, socketpair. Expected outputs were
# compared with Linux through qemu-user; the ASYMU_ONLY ones differ there for
# a reason the guest program names (qemu-user's own cmsg buffers and flag
# filtering, the host's raised rmem_max, a host that reaches real networks
# and has more interfaces than `lo`).

foreach(cmd unix-stream pair mmsg unix-dgram seqpacket abstract peercred tcp tcp6 udp
            nonblock-connect sigpipe)
  asymu_e2e_guest(NAME sockets-${cmd} PROGRAM sockets GUEST_ARGS ${cmd})
endforeach()
foreach(cmd scm-rights refused options netunreach readonly ifaddrs procnet)
  asymu_e2e_guest(NAME sockets-${cmd} PROGRAM sockets GUEST_ARGS ${cmd} ASYMU_ONLY)
endforeach()

# A guest connect() to 10.0.0.1:80 fails with ENETUNREACH and asymu itself
# makes no socket syscall: under the seccomp sandbox one would stop it with
# status 70, and strace on the host sees none.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    add_test(NAME e2e-sockets-no-host-socket-${isa}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/no-host-socket.sh $<TARGET_FILE:asymu>
              ${CMAKE_BINARY_DIR}/tests/guest/sockets-${isa})
    set_tests_properties(e2e-sockets-no-host-socket-${isa} PROPERTIES
      LABELS e2e SKIP_RETURN_CODE 77 TIMEOUT 60)
  endforeach()
endif()
