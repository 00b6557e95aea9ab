"""Stands in for the app in SSH tests: reports its terminal, resizes and input."""

import os
import signal
import sys


def size() -> str:
    s = os.get_terminal_size(0)
    return f"{s.columns}x{s.lines}"


signal.signal(signal.SIGWINCH, lambda *a: print(f"RESIZED {size()}", flush=True))
print(f"READY side={sys.argv[1]} term={os.environ.get('TERM')} size={size()} "
      f"ctty={os.isatty(0) and os.tcgetpgrp(0) == os.getpgrp()}", flush=True)
line = sys.stdin.readline()
print(f"GOT {line.strip()}", flush=True)
