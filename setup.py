"""The solver's two compiled searches, one C file each: the core of the shortest-win search
(``app.solver._core``) and the exhaustive search of Gaps' last round (``app.solver._gaps_core``).
Everything else about the package is in pyproject.toml. Both are optional: without a C compiler
the install still works and the solver searches in Python alone (``app.solver.shortest``, the
same pars on a smaller budget; ``app.solver.gaps``, fewer Gaps deals decided in its budget)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension(name, [source], optional=True, extra_compile_args=["-O2"])
                   for name, source in (("app.solver._core", "app/solver/_core.c"),
                                        ("app.solver._gaps_core", "app/solver/_gaps_core.c"))])
