"""The compiled Gaps search (``app.solver._gaps_core``, one C file). Everything else about the
package is in pyproject.toml. Optional: without a C compiler the install still works and the
Gaps solver searches in Python alone (``app.solver.gaps``), deciding fewer deals in its budget."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("app.solver._gaps_core", ["app/solver/_gaps_core.c"], optional=True,
                             extra_compile_args=["-O2"])])
