#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Builds a Debian 12 guest root for one architecture from packages by name.

    build-root.py [--set SET] ARCH OUTDIR     (ARCH: arm64 or armhf)

SET picks the packages and the root's name: `base` (the default,
ROOT_PACKAGES into OUTDIR/root-ARCH: CPython's tests and the CTest tests
of `make test`) or `programs` (PROGRAM_PACKAGES into
OUTDIR/root-programs-ARCH: the heavy real programs of the programs table,
tests/conformance/programs.py, which only `make conformance` builds).
Resolves the recursive closure of Depends and Pre-Depends of the set
for ARCH with python3-apt (candidate versions from the machine's own apt
sources, the first alternative of each group that exists), downloads the
.debs with `apt-get download` into OUTDIR/debs (shared by both
architectures, kept between runs), unpacks them with `dpkg-deb -x` into
OUTDIR/root-ARCH, then adds what a Debian install makes in its maintainer
scripts and the packages do not ship (/etc/passwd, /etc/hosts, ...) and
byte-compiles the Python library as Debian's py3compile does. A root whose
package list has not changed is left as it is.
"""
import fcntl
import os
import shutil
import subprocess
import sys

import apt_pkg

ROOT_PACKAGES = [
    "python3.11", "libpython3.11-testsuite", "bash", "coreutils", "util-linux",
    "procps", "sqlite3", "perl-base", "strace", "gdb", "trace-cmd", "rt-app", "rt-tests",
    # stress-ng's fork stressor against the fork cost of docs/timing.md (issue 27).
    "stress-ng",
    # Real programs for bench/ (issue 14).
    "gzip", "xz-utils", "bzip2",
    # What every Debian system has (Essential or Priority: important) and the
    # tests look at: /bin/sh, /etc/passwd templates, the C.UTF-8 locale,
    # /etc/services, zoneinfo.
    "dash", "base-files", "base-passwd", "libc-bin", "netbase", "tzdata",
]
# The programs table (tests/conformance/programs.py, docs/conformance.md
# "Real programs"): interpreters, runtimes, a compiler and tools, each run
# by a row of the table; a root of its own so that `make test`'s roots stay
# small.
PROGRAM_PACKAGES = [
    "perl", "lua5.4", "git", "ruby", "php-cli", "nodejs", "openjdk-17-jre-headless",
    "gcc", "libc6-dev", "libasan8", "rt-tests", "stress-ng",
    "bash", "coreutils", "dash", "base-files", "base-passwd", "libc-bin", "netbase", "tzdata",
]
SETS = {"base": ("root-{arch}", ROOT_PACKAGES),
        "programs": ("root-programs-{arch}", PROGRAM_PACKAGES)}
# Links update-alternatives would make in the maintainer scripts, when
# their target is in the root: NAME -> TARGET ({arch}: the Debian one).
ALTERNATIVES = {
    "usr/bin/java": "/usr/lib/jvm/java-17-openjdk-{arch}/bin/java",
    "usr/bin/php": "/usr/bin/php8.2",
    "usr/bin/lua": "/usr/bin/lua5.4",
    "usr/bin/cc": "/usr/bin/gcc",
}
STAMP = ".asymu-conformance-packages"

ETC_FILES = {
    "etc/hosts": "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n",
    # Debian's default (libc-bin's /usr/share/libc-bin/nsswitch.conf).
    "etc/nsswitch.conf": (
        "passwd:         files\ngroup:          files\nshadow:         files\n"
        "gshadow:        files\n\nhosts:          files dns\nnetworks:       files\n\n"
        "protocols:      db files\nservices:       db files\nethers:         db files\n"
        "rpc:            db files\n\nnetgroup:       nis\n"),
    "etc/hostname": "localhost\n",
}


def fail(msg):
    sys.exit(f"build-root: {msg}")


class Resolver:
    """Candidate versions for ARCH, including Architecture: all packages."""

    def __init__(self, arch):
        apt_pkg.init()
        self.arch = arch
        self.native = apt_pkg.config.find("APT::Architecture")
        self.cache = apt_pkg.Cache(None)
        self.policy = apt_pkg.DepCache(self.cache)

    def _candidate(self, name, arch):
        try:
            pkg = self.cache[name, arch]
        except KeyError:
            return None, None
        return pkg, self.policy.get_candidate_ver(pkg)

    def version(self, name):
        """The Version that installs NAME on ARCH, or None."""
        pkg, ver = self._candidate(name, self.arch)
        if ver is not None:
            return ver
        _, ver = self._candidate(name, self.native)
        if ver is not None and ver.arch == "all":
            return ver
        # A virtual package: its first provider that is a candidate.
        for p in (pkg, self._candidate(name, self.native)[0]):
            for _, _, provider in (p.provides_list if p else []):
                if provider.arch not in (self.arch, "all"):
                    continue
                if self.policy.get_candidate_ver(provider.parent_pkg) == provider:
                    return provider
        return None

    def closure(self, roots):
        chosen = {}
        todo = list(roots)
        while todo:
            name = todo.pop()
            ver = self.version(name)
            if ver is None:
                fail(f"no {self.arch} candidate for {name} in the apt sources")
            key = ver.parent_pkg.name
            if key in chosen:
                continue
            chosen[key] = ver
            deps = ver.depends_list
            for group in deps.get("PreDepends", []) + deps.get("Depends", []):
                names = [alt.target_pkg.name.removesuffix(":any") for alt in group]
                for alt in names:
                    if self.version(alt) is not None:
                        todo.append(alt)
                        break
                else:
                    fail(f"{key}: nothing satisfies {' | '.join(names)}")
        return self.settle(chosen)

    @staticmethod
    def _unmet(ver, chosen):
        """The first versioned dependency of VER that CHOSEN breaks, or None."""
        deps = ver.depends_list
        for group in deps.get("PreDepends", []) + deps.get("Depends", []):
            picked = [(d, chosen.get(d.target_pkg.name.removesuffix(":any"))) for d in group]
            picked = [(d, v) for d, v in picked if v is not None]
            if picked and not any(not d.target_ver or
                                  apt_pkg.check_dep(v.ver_str, d.comp_type, d.target_ver)
                                  for d, v in picked):
                d = picked[0][0]
                return f"{d.target_pkg.name} ({d.comp_type} {d.target_ver})"
        return None

    def settle(self, chosen):
        """Versioned dependencies hold in CHOSEN: a package whose candidate
        needs a newer version of another than ARCH has (an Architecture: all
        package that a mirror's security index updated for amd64 before
        arm64's, say libpython3.11-testsuite's deb12u9 needing python3.11
        deb12u9) takes its newest older version whose dependencies hold."""
        for _ in range(len(chosen)):
            changed = False
            for name, ver in sorted(chosen.items()):
                unmet = self._unmet(ver, chosen)
                if unmet is None:
                    continue
                best = None
                for v in ver.parent_pkg.version_list:
                    if (v.arch in (self.arch, "all") and v.downloadable and
                            apt_pkg.version_compare(v.ver_str, ver.ver_str) < 0 and
                            self._unmet(v, chosen) is None and
                            (best is None or apt_pkg.version_compare(v.ver_str, best.ver_str) > 0)):
                        best = v
                if best is None:
                    fail(f"{name} {ver.ver_str} needs {unmet}, which {self.arch} lacks")
                print(f"build-root: {name} {best.ver_str}, not {ver.ver_str}, which needs {unmet}",
                      flush=True)
                chosen[name] = best
                changed = True
            if not changed:
                return chosen
        fail("versioned dependencies do not settle")


def deb_name(name, ver):
    return f"{name}_{ver.ver_str.replace(':', '%3a')}_{ver.arch}.deb"


def download(chosen, debdir):
    os.makedirs(debdir, exist_ok=True)
    missing = []
    for name, ver in sorted(chosen.items()):
        if not os.path.exists(os.path.join(debdir, deb_name(name, ver))):
            spec = name if ver.arch == "all" else f"{name}:{ver.arch}"
            missing.append(f"{spec}={ver.ver_str}")
    if missing:
        print(f"build-root: downloading {len(missing)} packages", flush=True)
        r = subprocess.run(["apt-get", "download", "-q"] + missing, cwd=debdir)
        if r.returncode != 0:
            fail("apt-get download failed (is the Debian mirror reachable?)")


def write(root, rel, text, mode=0o644):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def finish_install(root, arch, sibling):
    """What dpkg's maintainer scripts would have made."""
    for rel, text in ETC_FILES.items():
        write(root, rel, text)
    for f in ("passwd", "group"):
        shutil.copy(os.path.join(root, f"usr/share/base-passwd/{f}.master"),
                    os.path.join(root, "etc", f))
    write(root, "etc/shadow", "root:*:19000:0:99999:7:::\n", 0o640)
    for d, mode in (("root", 0o700), ("tmp", 0o1777), ("var/tmp", 0o1777)):
        os.makedirs(os.path.join(root, d), exist_ok=True)
        os.chmod(os.path.join(root, d), mode)
    # dash's postinst makes /bin/sh; tzdata's makes /etc/localtime (UTC).
    if not os.path.lexists(os.path.join(root, "bin/sh")):
        os.symlink("dash", os.path.join(root, "bin/sh"))
    if not os.path.lexists(os.path.join(root, "etc/localtime")):
        os.symlink("/usr/share/zoneinfo/Etc/UTC", os.path.join(root, "etc/localtime"))
    for link, target in ALTERNATIVES.items():
        target = target.format(arch=arch)
        if os.path.exists(root + target) and not os.path.lexists(os.path.join(root, link)):
            os.symlink(target, os.path.join(root, link))
    write(root, "etc/timezone", "Etc/UTC\n")
    byte_compile(root, sibling)


def reuse_bytecode(lib, sibling_lib):
    """Links the compiled files of a root of the other architecture, built
    before, into this one: the Python library's sources are the same files
    (size and modification time, which each .pyc records) in both, so
    compileall finds them current and compiles only what differs."""
    for d, _, files in os.walk(sibling_lib):
        if os.path.basename(d) != "__pycache__":
            continue
        here = os.path.join(lib, os.path.relpath(d, sibling_lib))
        if not os.path.isdir(os.path.dirname(here)):
            continue
        os.makedirs(here, exist_ok=True)
        for f in files:
            if not os.path.exists(os.path.join(here, f)):
                os.link(os.path.join(d, f), os.path.join(here, f))


def byte_compile(root, sibling=None):
    """py3compile's job at install time: without it every run of the
    read-only root would compile the whole test suite again."""
    host = shutil.which("python3.11")
    if host is None:
        print("build-root: no host python3.11, the root stays uncompiled", flush=True)
        return
    lib = os.path.join(root, "usr/lib/python3.11")
    if not os.path.isdir(lib):
        return
    if sibling and os.path.isdir(os.path.join(sibling, "usr/lib/python3.11")):
        reuse_bytecode(lib, os.path.join(sibling, "usr/lib/python3.11"))
    # Files that are meant not to compile (badsyntax_*.py) make this exit 1.
    subprocess.run([host, "-m", "compileall", "-q", "-j", "2", "-s", root, "-p", "/",
                    "-o", "0", "-o", "1", "-o", "2", lib],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def build(arch, outdir, package_set="base"):
    name, packages = SETS[package_set]
    resolver = Resolver(arch)
    chosen = resolver.closure(packages)
    listing = "".join(f"{n} {v.ver_str} {v.arch}\n" for n, v in sorted(chosen.items()))
    root = os.path.join(outdir, name.format(arch=arch))
    stamp = os.path.join(root, STAMP)
    if os.path.exists(stamp) and open(stamp).read() == listing:
        return root
    debdir = os.path.join(outdir, "debs")
    download(chosen, debdir)
    tmp = root + ".new"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    print(f"build-root: unpacking {len(chosen)} packages into {root}", flush=True)
    for name, ver in sorted(chosen.items()):
        r = subprocess.run(["dpkg-deb", "-x", os.path.join(debdir, deb_name(name, ver)), tmp])
        if r.returncode != 0:
            fail(f"dpkg-deb -x failed for {deb_name(name, ver)}")
    other = {"arm64": "armhf", "armhf": "arm64"}[arch]
    sibling = os.path.join(outdir, SETS[package_set][0].format(arch=other))
    finish_install(tmp, arch, sibling if os.path.exists(os.path.join(sibling, STAMP)) else None)
    write(tmp, STAMP, listing)
    shutil.rmtree(root, ignore_errors=True)
    os.rename(tmp, root)
    return root


def main():
    args = sys.argv[1:]
    package_set = "base"
    if len(args) >= 2 and args[0] == "--set":
        package_set, args = args[1], args[2:]
    if len(args) != 2 or args[0] not in ("arm64", "armhf") or package_set not in SETS:
        sys.exit(f"usage: build-root.py [--set {'|'.join(SETS)}] arm64|armhf OUTDIR")
    arch, outdir = args
    os.makedirs(outdir, exist_ok=True)
    # The smoke test and `make conformance` may build the same root at once.
    lock_name = ".lock-" + SETS[package_set][0].format(arch=arch).removeprefix("root-")
    with open(os.path.join(outdir, lock_name), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        print(build(arch, outdir, package_set))


if __name__ == "__main__":
    main()
