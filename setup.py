"""Builds the extension module of the Python package `fano` with CMake.

`pip install --no-build-isolation .` (or `python3 -m build --no-isolation
--wheel`) runs this: it configures the project with the tests and the
command off, builds only the target fano_python and puts the module into the
package as fano/fano.<ext>. The CMake build folder persists between builds:
$FANO_PIP_BUILD_DIR, else build-python/ in the source tree (or the sdist's
folder); setuptools' own files go to its setuptools/ subfolder.
$CMAKE_BUILD_PARALLEL_LEVEL sets the compile jobs (default 2).
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# pip builds the wheel (and its metadata) with the `wheel` package, which pip
# does not install when build isolation is off: without it setuptools says
# only "invalid command 'bdist_wheel'".
if {"bdist_wheel", "dist_info"} & set(sys.argv):
    try:
        import wheel  # noqa: F401
    except ImportError:
        sys.exit("setup.py: this Python (" + sys.executable + ") has no 'wheel' package, which "
                 "building the module needs; use Debian's Python, /usr/bin/python3 -m venv "
                 "--system-site-packages (docs/python.md), or pip install wheel numpy first")

ROOT = Path(__file__).resolve().parent
BUILD = Path(os.environ.get("FANO_PIP_BUILD_DIR") or ROOT / "build-python").resolve()


def project_version():
    """The version of CMakeLists.txt's project(fano ... VERSION x.y.z)."""
    text = (ROOT / "CMakeLists.txt").read_text()
    m = re.search(r"project\(\s*fano\b[^)]*?\bVERSION\s+([0-9]+(?:\.[0-9]+)*)", text)
    if not m:
        raise RuntimeError("no project(fano ... VERSION x.y.z) in CMakeLists.txt")
    return m.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        cmake_dir = BUILD / "cmake"
        # The interpreter itself (a venv's python3 is a link to it): the same
        # cache for every venv of one Python.
        python = os.path.realpath(sys.executable)
        subprocess.run(
            ["cmake", "-S", str(ROOT), "-B", str(cmake_dir), "-DCMAKE_BUILD_TYPE=Release",
             "-DFANO_BUILD_TESTS=OFF", "-DFANO_BUILD_TOOLS=OFF", "-DFANO_INSTALL=OFF",
             "-DFANO_BUILD_PYTHON=ON", "-DFANO_PYTHON_PACKAGE=ON",
             f"-DPython_EXECUTABLE={python}"],
            check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", str(cmake_dir), "--target", "fano_python",
                        "-j", jobs], check=True)
        built = cmake_dir / "python" / ("fano" + sysconfig.get_config_var("EXT_SUFFIX"))
        out = Path(self.get_ext_fullpath(ext.name))
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, out)

BUILD.mkdir(parents=True, exist_ok=True)

setup(
    version=project_version(),
    ext_modules=[Extension("fano.fano", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD / "setuptools")},
             "egg_info": {"egg_base": str(BUILD)}},
)
