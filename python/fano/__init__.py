# The package of `pip install`: everything comes from the extension module
# fano.fano (python/src/module.cpp), the module a CMake build makes as
# build/python/fano.<ext>; its classes and functions name `fano` as their
# module (so pickle finds them here). See the README's Python section.

from .fano import *  # noqa: F401,F403
from .fano import __doc__, __version__  # noqa: F401
