# SPDX-License-Identifier: GPL-2.0-or-later
# More of the socket layer (docs/ipc.md): TCP after its peer closed or
# reset the connection, UDP-Lite, IPv6 hop limits and traffic classes with their control messages
# truncated as Linux truncates them; and the machine's host and domain names.
# ASYMU_ONLY: qemu-user filters SOL_UDPLITE options and loses MSG_CTRUNC in
# its own control buffers, the host kernel (6.x) sends an IPV6_TCLASS of -1
# as 255 where 5.15 uses the socket's class, and sethostname would rename
# the host.

foreach(cmd tcp-peer-closed tcp-reset)
  asymu_e2e_guest(NAME sockets-${cmd} PROGRAM sockets GUEST_ARGS ${cmd})
endforeach()
foreach(cmd udplite ipv6-cmsg)
  asymu_e2e_guest(NAME sockets-${cmd} PROGRAM sockets GUEST_ARGS ${cmd} ASYMU_ONLY)
endforeach()
asymu_e2e_guest(NAME hostname PROGRAM hostname ASYMU_ONLY)
