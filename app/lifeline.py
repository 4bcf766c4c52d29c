"""A child process leaves when the process that started it is gone (killed with SIGKILL, or
ended without stopping it), rather than linger as an orphan: a solver process that would go
on searching, a web worker that would go on holding the instance's port (so that a restarted
`tretten serve` failed with "address already in use")."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

CHECK_SECONDS = 0.5


def leave_with(parent: int, leave: Callable[[], None]) -> None:
    """Call ``leave`` (in a thread of this process) once ``parent`` is no longer its parent.
    Linux's parent-death signal would be quicker, but it follows the thread that started the
    child, and it is Linux's alone; half a second is quick enough."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(CHECK_SECONDS)
        leave()

    threading.Thread(target=watch, name="tretten-lifeline", daemon=True).start()
