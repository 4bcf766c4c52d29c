"""The garbage collector in a long-running server: what start-up built is never collected.

A full (generation 2) collection walks every object the collector tracks. Right after start-up
most of them are the app's modules, compiled templates and catalogs, which live as long as the
process: about 165,000 objects, and each full collection walked all of them and held up every
request for 80-90 ms (the p99 of bench/load.py). ``gc.freeze()`` moves everything alive at that
point to a permanent generation that collections skip; what requests create later is collected
as before (full collections then took about 11 ms in the same run).
"""

from __future__ import annotations

import gc
from functools import cache

from .templating import environment


@cache  # once per process
def freeze_startup_heap() -> None:
    """Compile every template (they would otherwise be built by the first requests, after the
    freeze), collect what start-up left over, and freeze the rest. Once per process: a process
    that starts several apps (the test suite) would otherwise pin each earlier app's objects
    for good when they become garbage."""
    for name in environment.list_templates(extensions=["html"]):
        environment.get_template(name)
    gc.collect()
    gc.freeze()
