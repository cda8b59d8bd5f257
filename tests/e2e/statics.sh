#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# statics.sh LIB.a...: no process-wide mutable state outside the machine
# (docs/structure.md, "Process-wide state"; issue 25 item 1). Lists the
# variables of static storage the libraries can write - the objects of
# their .data and .bss sections (and .tdata, .tbss: thread-local ones),
# file-scope or function-scope, static or not - and fails on one that is not allowed below, naming it. Constant
# tables (.rodata, and .data.rel.ro for those holding pointers) and string
# literals are not in those sections; names the compiler makes (.LC0,
# __asan_gen_*, __ubsan_*, __sancov_*) start with '.' or "__" and are left
# out. A function-scope static's number (GCC's dmips.1) or function prefix
# (clang's finish_layout.dmips) is dropped before the comparison. An
# allowed entry that no library has any more fails too: the list (and
# docs/structure.md's) must say what is there.
#
# statics.sh --self-test CC: the scan itself, on an object compiled with
# CC that holds three mutable statics (one thread-local) beside constant
# data: all three must be reported, and nothing else.

# LIBRARY FILE NAME, and why it is process-wide.
allowed='
asymu_emu crash.c crash_machine
asymu_emu crash.c altstack
asymu_emu crash.c janitor_fd
asymu_emu crash.c janitor_done
asymu_emu crash.c janitor_stop
asymu_emu engine_exact.c cpu_field
asymu_emu engine_exact.c back_field
asymu_emu engine_exact.c maps_fd
asymu_emu hostmem.c meminfo_fd
asymu_emu pagecopy.c pagemap_fd
asymu_emu pagecopy.c pagemap_pid
asymu_emu shmem.c ranges
asymu_emu shmem.c n_ranges
asymu_emu shmem.c cap_ranges
'
# Why each is allowed:
# - crash.c: crash_machine and altstack are the fatal-signal handler's (a
#   handler is the process's and takes no argument); janitor_fd,
#   janitor_done and janitor_stop are the one janitor process's, which
#   watches the host process and outlives it.
# - engine_exact.c: cpu_field and back_field are offsets inside the linked
#   libunicorn, maps_fd the host's /proc/self/maps opened before the
#   sandbox: facts of the host process, the same for every machine.
# - hostmem.c meminfo_fd, pagecopy.c pagemap_fd and pagemap_pid: host files
#   (/proc/meminfo, /proc/self/pagemap) opened before the sandbox.
# - shmem.c ranges, n_ranges, cap_ranges: host address ranges of shared
#   mappings, which the process's SIGBUS handler looks up.

# Prints "LIBRARY FILE NAME" for each writable object of the archives.
scan() {
    for lib in "$@"; do
        name=$(basename "$lib" .a)
        name=${name#lib}
        "${OBJDUMP:-objdump}" -t "$lib" > /tmp/statics-objdump.$$ || {
            echo "statics.sh: cannot read $lib" >&2
            rm -f /tmp/statics-objdump.$$
            return 1
        }
        awk -v lib="$name" '
            # GNU objdump: "f.c.o:     file format ..."; llvm-objdump (a
            # clang tree CMAKE_OBJDUMP names): "lib.a(f.c.o):<tab>file format ...".
            /[ \t]file format / {
                obj = $1; sub(/:$/, "", obj); sub(/^.*\(/, "", obj); sub(/\)$/, "", obj); sub(/\.o$/, "", obj)
            }
            /^[0-9a-f]+ / && NF >= 4 {
                sec = $(NF - 2) # ADDRESS FLAGS SECTION SIZE NAME
                if (sec !~ /^\.t?(data|bss)/ || sec ~ /^\.data\.rel\.ro/)
                    next
                sym = $NF
                if (sym ~ /^\./ || sym ~ /^__/)
                    next
                sub(/\.[0-9]+$/, "", sym)
                sub(/^.*\./, "", sym)
                print lib, obj, sym
            }' /tmp/statics-objdump.$$
        rm -f /tmp/statics-objdump.$$
    done
}

# check ALLOWED LIB...: 0 when the archives hold exactly the allowed ones.
check() {
    list=$1
    shift
    found=$(scan "$@") || return 1
    echo "$found" | sort -u | while read -r lib file sym; do
        [ -n "$sym" ] || continue
        if ! echo "$list" | grep -qx "$lib $file $sym"; then
            echo "mutable static state outside the machine: $sym in $file ($lib);" \
                 "move it into struct machine, a task or process, or its subsystem's struct," \
                 "or allow it in tests/e2e/statics.sh and docs/structure.md with why"
        fi
    done > /tmp/statics-bad.$$
    echo "$list" | while read -r lib file sym; do
        [ -n "$sym" ] || continue
        if ! echo "$found" | grep -qx "$lib $file $sym"; then
            echo "allowed but gone (drop it from tests/e2e/statics.sh and docs/structure.md):" \
                 "$sym in $file ($lib)"
        fi
    done >> /tmp/statics-bad.$$
    cat /tmp/statics-bad.$$
    bad=$(wc -l < /tmp/statics-bad.$$)
    rm -f /tmp/statics-bad.$$
    echo "$(echo "$found" | grep -c .) writable objects in $# libraries, $bad not as allowed"
    [ "$bad" -eq 0 ]
}

if [ "$1" = "--self-test" ]; then
    dir=$(mktemp -d) || exit 1
    trap 'rm -rf "$dir"' EXIT
    cat > "$dir/probe.c" <<'EOF'
static const int table[4] = {1, 2, 3, 4};
static const char *const names[] = {"a", "b"};
static int counter;
static __thread int per_thread;
const char *probe(int i)
{
    static char scratch[16];
    counter += table[i & 3] + per_thread++;
    scratch[0] = (char)counter;
    return i ? names[i & 1] : scratch;
}
EOF
    "$2" -O2 -c "$dir/probe.c" -o "$dir/probe.c.o" && "${AR:-ar}" rc "$dir/libasymu_probe.a" "$dir/probe.c.o" ||
        exit 1
    out=$(check "" "$dir/libasymu_probe.a")
    status=$?
    echo "$out"
    [ $status -ne 0 ] || { echo "self-test: the scan passed mutable statics"; exit 1; }
    echo "$out" | grep -q ': counter in probe.c (asymu_probe);' &&
        echo "$out" | grep -q ': scratch in probe.c (asymu_probe);' &&
        echo "$out" | grep -q ': per_thread in probe.c (asymu_probe);' &&
        echo "$out" | grep -q '^3 writable objects in 1 libraries, 3 not as allowed$' ||
        { echo "self-test: expected exactly counter, per_thread and scratch"; exit 1; }
    # Allowed, the same object passes.
    check "
asymu_probe probe.c counter
asymu_probe probe.c per_thread
asymu_probe probe.c scratch
" "$dir/libasymu_probe.a" || { echo "self-test: the allowed list was not applied"; exit 1; }
    exit 0
fi

check "$allowed" "$@"
