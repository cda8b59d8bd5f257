# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 24, item 10a: under --tmp-size 64K, /tmp and /dev/shm hold 16
# entries (tmpfs's nr_inodes: one per page of the limit).
i=0
while touch /tmp/f$i 2>/dev/null; do i=$((i + 1)); done
echo "files $i"
mkdir /tmp/d 2>&1
ln -s x /tmp/s 2>&1
mkfifo /tmp/p 2>&1
touch /dev/shm/x 2>&1
mkdir /tmp/f1 2>&1
rm /tmp/f0 && mkdir /tmp/d && echo "mkdir after rm"
ln -s x /tmp/s 2>&1
exit 0
