"""Builds the compiled part of the `sphero` module, _sphero, with the
project's CMake build, for `pip install --no-build-isolation .`
(pyproject.toml). The CMake build folder is $SPHERO_BUILD_DIR, else
build/pip: an existing build (SPHERO_BUILD_DIR=build) is reused as it is,
so that only what changed is compiled."""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.environ.get("SPHERO_BUILD_DIR", os.path.join(SOURCE, "build", "pip")))
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            # A new build is for this Python; an existing one keeps its own.
            subprocess.run(["cmake", "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                            f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", build, "--target", "_sphero", "-j", jobs], check=True)
        built = os.path.join(build, "python", "sphero")
        target = self.get_ext_fullpath(ext.name)
        suffix = target[target.index("_sphero") + len("_sphero"):]
        library = os.path.join(built, "_sphero" + suffix)
        if not os.path.exists(library):
            found = [f for f in os.listdir(built) if f.startswith("_sphero")]
            sys.exit(f"setup.py: {build} builds {found} for another Python than this one ({sys.executable}, "
                     f"extension suffix {suffix}); set SPHERO_BUILD_DIR to a new folder")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(library, target)


setup(ext_modules=[CMakeExtension("sphero._sphero")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": os.path.join("build", "setuptools")},
               "egg_info": {"egg_base": os.path.join("build", "setuptools")}})
