"""Timing shared by the benchmark scripts."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

CLOCK: Callable[[], float] = time.perf_counter
"""What :func:`timed` reads: wall time, or ``time.process_time`` (this process's CPU
time, which other work on a shared machine does not inflate; ``--cpu``)."""


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``fn`` over ``repeat`` runs (by :data:`CLOCK`)."""
    out = []
    for _ in range(repeat):
        t = CLOCK()
        fn()
        out.append((CLOCK() - t) * 1000)
    return statistics.median(out)
