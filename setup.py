"""The compiled core of the shortest-win search (``app.solver._core``, one C file). Everything else
about the package is in pyproject.toml. Optional: without a C compiler the install still works and
the solver searches in Python (``app.solver.shortest``), the same pars on a smaller budget."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("app.solver._core", ["app/solver/_core.c"], optional=True,
                             extra_compile_args=["-O2"])])
