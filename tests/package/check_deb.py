"""Package.DebianPackage: the Debian package as `cpack -G DEB` makes it.

Builds fano_<version>_amd64.deb from the build folder into WORK, then checks
with dpkg-deb alone (no installation): its control fields (name, version,
architecture, the run-time libraries it depends on, read from the programs
by dpkg-shlibdeps, each installed on this machine under that name), its
files (the two programs, the man page, the headers, the static libraries,
the CMake package, the copyright file; no Python module), and the command
run from an extracted copy: `fano --version`, a solve and a query.

Environment: BUILD (the build folder), WORK (a scratch folder),
FANO_VERSION (CMakeLists.txt's).
"""

import os
import shutil
import subprocess
import sys

BUILD = os.environ["BUILD"]
WORK = os.path.abspath(os.environ["WORK"])
VERSION = os.environ["FANO_VERSION"]


def run(*cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        print(r.stdout[-4000:], r.stderr[-4000:], sep="\n")
        sys.exit(f"failed (exit {r.returncode}): {' '.join(cmd)}")
    return r.stdout


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    run("cpack", "-G", "DEB", "-B", WORK, "--config", os.path.join(BUILD, "CPackConfig.cmake"))
    deb = os.path.join(WORK, f"fano_{VERSION}_amd64.deb")
    assert os.path.isfile(deb), os.listdir(WORK)

    # The control fields.
    fields = {f: run("dpkg-deb", "-f", deb, f).strip()
              for f in ("Package", "Version", "Architecture", "Depends", "Maintainer")}
    print(fields)
    assert fields["Package"] == "fano" and fields["Version"] == VERSION, fields
    assert fields["Architecture"] == "amd64" and fields["Maintainer"], fields
    depends = [d.strip().split(" ")[0] for d in fields["Depends"].split(",")]
    for lib in ("libc6", "libstdc++6", "libtbb12"):
        assert lib in depends, (lib, fields["Depends"])
    # Each dependency names a package this machine has, installed.
    for d in depends:
        status = run("dpkg-query", "-W", "-f", "${Status}", d)
        assert status.endswith("installed"), (d, status)

    # The files.
    files = set()
    for line in run("dpkg-deb", "-c", deb).splitlines():
        path = line.split()[-1]
        files.add(path[1:] if path.startswith("./") else path)
    want = ["/usr/bin/fano", "/usr/bin/fano-serve", "/usr/share/man/man1/fano.1",
            "/usr/include/fano/analysis.hpp", "/usr/include/fano/buffer.hpp",
            "/usr/include/fano/version.hpp", "/usr/lib/cmake/fano/fanoConfig.cmake",
            "/usr/lib/cmake/fano/fanoTargets.cmake", "/usr/lib/libfano_core.a",
            "/usr/lib/libfano_memory.a", "/usr/share/doc/fano/copyright"]
    missing = [f for f in want if f not in files]
    assert not missing, (missing, sorted(files))
    assert not [f for f in files if "python" in f or f.endswith(".so")], sorted(files)

    # The command from an extracted copy: it finds nothing of the build tree.
    root = os.path.join(WORK, "root")
    run("dpkg-deb", "-x", deb, root)
    fano = os.path.join(root, "usr", "bin", "fano")
    env = {"PATH": "/usr/bin:/bin", "HOME": WORK, "XDG_CACHE_HOME": os.path.join(WORK, "cache")}
    version = run(fano, "--version", env=env, cwd=WORK)
    assert version.startswith(f"fano {VERSION}"), version
    table = os.path.join(WORK, "standard.fanotb")
    solved = run(fano, "solve", "--out", table, env=env, cwd=WORK)
    assert "value of the empty board (White to move): draw" in solved, solved
    query = run(fano, "query", "--tb", table, "-/-/-/-/-/-/C b", env=env, cwd=WORK)
    assert "loss" in query or "win" in query, query
    copyright_file = open(os.path.join(root, "usr/share/doc/fano/copyright")).read()
    assert "License: MIT" in copyright_file and "Permission is hereby granted" in copyright_file
    page = open(os.path.join(root, "usr/share/man/man1/fano.1")).read()
    assert page.startswith(".TH FANO 1") and "SPDX-License-Identifier: MIT" in page
    print("ok")


if __name__ == "__main__":
    main()
