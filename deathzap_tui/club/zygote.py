"""The zygote: one pre-imported process that forks each SSH session's app (issue 23).

A fresh interpreter per session spends about a second of CPU importing Python,
Textual, the app and the rulesets, and keeps its own copy of all of it (about 40 MB).
``club serve`` therefore starts this process once::

    python -m deathzap_tui.club.zygote SOCKET

It imports what a session runs (:func:`preload`), freezes those objects out of the
garbage collector's reach (so that collecting in a child does not copy the pages
they share), listens on ``SOCKET`` (in the server's private run directory, mode
0600) and prints ``ready``. Each connection is one session: the zygote forks at once
and reports to the server on that connection the child's pid, with a pidfd for it
(:func:`os.pidfd_open`: the server can signal the child and see it end without
racing a reused pid), and later its exit code. The child reads the session's request
itself (so the zygote never holds a session's token or terminal):

    4-byte big-endian length, JSON {argv, env, nice}, with the pty's slave end
    attached (SCM_RIGHTS); ``nice`` (optional, 0 to 19): how much lower than the
    zygote's (the server's) the child's CPU priority is (:func:`nicer`)

``argv`` is an interpreter command line without the interpreter: ``-m MODULE
ARGS...``, ``-c CODE ARGS...`` or ``SCRIPT ARGS...`` (:func:`runnable`). The child
drops what it inherited from the zygote (every descriptor but the pty, which becomes
its stdin, stdout, stderr and controlling terminal in a session of its own; the
zygote's environment, locale and standard streams), then runs
the command as ``python ARGV`` would and ends with its exit code. ``random``'s
generator is reseeded from the OS at every fork (:func:`os.register_at_fork`, done
by the ``random`` module); ``secrets`` reads the OS each time. What the children do
share is the interpreter's string-hash seed (``PYTHONHASHSEED``), chosen at random
when the zygote starts: it is not a secret anywhere in this program.

The zygote installs no signal handlers (it runs in a session of its own, so a
Ctrl-C at the server's terminal does not reach it): its children start with
Python's own, as a new interpreter would. It ends when its standard input (a pipe
from the server) closes. Its
children belong to their sessions, not to it, and are left running.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import importlib
import io
import json
import locale
import os
import runpy
import selectors
import signal
import socket
import struct
import sys
import termios
import threading
import time
import traceback
import types
from typing import Any

READY = "ready"
"""The line the zygote prints once it listens."""
MAX_REQUEST = 1 << 20
PRELOAD = ("deathzap_tui.cli", "deathzap_tui.commands.club", "deathzap_tui.club.lobby",
           "deathzap_tui.commands.join", "deathzap_tui.app.remote.app",
           "deathzap_tui.net.client", "deathzap_tui.net.lock", "deathzap_tui.session",
           "textual.layouts.factory")
"""What a session's app imports: the lobby (``club session``) and the battle screen
it opens, and ``join``'s; the last three lazily, as the game opens and its screens are
laid out (a test that the zygote gets ready fails on a name gone)."""
MAX_NICE = 19
"""The lowest CPU priority (the highest niceness) Linux gives a process."""
GROUP_TRIES, GROUP_PAUSE = 100, 0.05
"""How often, and how far apart, :func:`nicer` tries again on a thread to set an
autogroup's niceness the kernel refused (it sets one at most every 0.1 s,
machine-wide, for a process without ``CAP_SYS_ADMIN``)."""
_kept: list[Any] = []
"""A child's inherited selector: its descriptor is closed, the object never used."""


def runnable(argv: list[str]) -> bool:
    """Whether ``argv`` (an interpreter command line without the interpreter) is one
    a child can run: ``-m MODULE``, ``-c CODE`` or a script, then its arguments."""
    if not argv:
        return False
    if argv[0] in ("-m", "-c"):
        return len(argv) >= 2
    return not argv[0].startswith("-")


def nicer(pid: int, by: int) -> None:
    """Lower process ``pid``'s CPU priority (0: this process) by ``by`` niceness
    levels below what it has, at most to :data:`MAX_NICE`, and its autogroup's to
    the same niceness. A session's app serves one terminal and the server every
    one: on a machine out of CPU the server's share is what every move waits for
    (issue 24). A process may always lower its own priority, or one of its own
    user's processes'.

    The autogroup: where the kernel has them on (``sched_autogroup_enabled``, the
    default of most distributions), each session (``setsid``) is a group, and the
    CPU is shared between groups first, then between a group's processes by their
    niceness. A session's app leads a session of its own (its terminal's), so its
    niceness alone changes nothing against the server's; its group's does. Only
    another session's group is changed, never the caller's own (``pid`` 0: the
    caller has just made its own session). Without ``CAP_SYS_ADMIN`` the kernel
    changes one group at most every 0.1 s, machine-wide: one refused is tried again
    on a thread (:data:`GROUP_TRIES`), so that nothing waits for it."""
    if not by:
        return
    nice = min(MAX_NICE, os.getpriority(os.PRIO_PROCESS, pid) + by)
    os.setpriority(os.PRIO_PROCESS, pid, nice)
    if not _group_nice(pid, nice):
        threading.Thread(target=_group_nice_soon, args=(pid, nice), daemon=True,
                         name="autogroup-nice").start()


def _group_nice(pid: int, nice: int) -> bool:
    """Set ``pid``'s autogroup's niceness (see :func:`nicer`); False if the kernel
    refused it for now (another group's was set within 0.1 s)."""
    group = f"/proc/{pid or 'self'}/autogroup"
    try:
        if pid and _first_word(group) == _first_word("/proc/self/autogroup"):
            return True  # the caller's own group: not a session of its own
        with open(group, "w", encoding="ascii") as f:
            f.write(str(nice))
    except BlockingIOError:
        return False
    except OSError:  # no autogroups in this kernel, or the process has ended
        pass
    return True


def _group_nice_soon(pid: int, nice: int) -> None:
    for _ in range(GROUP_TRIES):
        time.sleep(GROUP_PAUSE)
        if _group_nice(pid, nice):
            return


def _first_word(path: str) -> str:
    with open(path, encoding="ascii") as f:
        return f.read().split(" ", 1)[0]


def preload() -> None:
    """Import what a session runs: the app, every Textual widget, every ruleset."""
    import textual.widgets  # lazy: imported by the zygote only, never by the server

    from deathzap_tui.rules import registry  # lazy: as textual, for the zygote alone

    for module in PRELOAD:
        importlib.import_module(module)
    for name in textual.widgets.__all__:
        getattr(textual.widgets, name)
    for ruleset in registry.ids():
        registry.get(ruleset)
    gc.collect()
    gc.freeze()


def serve(listener: socket.socket) -> None:
    """Fork a child per connection until standard input closes (see the module doc)."""
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is listener:
                conn, _ = listener.accept()
                pid = os.fork()
                if pid == 0:
                    _child(conn, listener, selector)  # never returns
                pidfd = os.pidfd_open(pid)
                with contextlib.suppress(OSError):  # the server gave up on it
                    socket.send_fds(conn, [struct.pack("!i", pid)], [pidfd])
                selector.register(pidfd, selectors.EVENT_READ, (pid, conn))
            elif key.data is None:
                if not os.read(key.fd, 512):
                    return
            else:
                pid, conn = key.data
                _, status = os.waitpid(pid, 0)
                selector.unregister(key.fd)
                os.close(key.fd)
                with contextlib.suppress(OSError):
                    conn.sendall(struct.pack("!i", os.waitstatus_to_exitcode(status)))
                conn.close()


def _child(conn: socket.socket, listener: socket.socket,
           selector: selectors.BaseSelector) -> None:
    """In a forked child: take the session's request and run it; never returns."""
    code = 1
    try:
        argv, env = _take_session(conn, listener, selector)
        code = _run(argv, env)
    except BaseException:  # nothing may unwind into the zygote's loop
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
        os._exit(code)


def _take_session(conn: socket.socket, listener: socket.socket,
                  selector: selectors.BaseSelector) -> tuple[list[str], dict[str, str]]:
    """Read the request; make the pty this process's terminal; drop the rest."""
    data, fds, _flags, _addr = socket.recv_fds(conn, MAX_REQUEST, 1)
    if len(fds) != 1 or len(data) < 4:
        raise ValueError("a session request needs its terminal and a length")
    (size,) = struct.unpack("!I", data[:4])
    if size > MAX_REQUEST:
        raise ValueError("a session request is too long")
    body = data[4:]
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            raise ValueError("the session request was cut short")
        body += chunk
    request = json.loads(body)
    argv, env, nice = request["argv"], request["env"], request.get("nice", 0)
    if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)
            and runnable(argv) and isinstance(env, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
            and type(nice) is int and 0 <= nice <= MAX_NICE):
        raise ValueError("a session request is {argv: [text], env: {text: text}, "
                         "nice: 0-19}")
    (slave,) = fds
    os.setsid()
    nicer(0, nice)  # and its session's autogroup, made by setsid
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.close(slave)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    conn.close()
    listener.detach()
    for key in list(selector.get_map().values()):
        if isinstance(key.data, tuple):
            key.data[1].detach()  # another session's link: closed below
    _kept.append(selector)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    os.environ.clear()
    os.environ.update(env)
    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:
        locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    _fresh_stdio()
    return argv, env


def _fresh_stdio() -> None:
    """Standard streams on the pty, as a new interpreter with this environment makes
    them (the zygote's were made for a pipe)."""
    encoding = locale.getpreferredencoding(False)
    if encoding.lower() in ("ascii", "ansi_x3.4-1968"):
        encoding = "utf-8"  # what Python's coercion of the C locale gives
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))

    def stream(fd: int, mode: str, errors: str) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        tty = raw.isatty()
        buffered: Any = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
        return io.TextIOWrapper(buffered, encoding=encoding, errors=errors,
                                line_buffering=tty or fd == 2,
                                write_through=unbuffered and mode == "w")

    for name, fd, mode, errors in (("stdin", 0, "r", "strict"), ("stdout", 1, "w", "strict"),
                                   ("stderr", 2, "w", "backslashreplace")):
        setattr(sys, name, stream(fd, mode, errors))
        setattr(sys, f"__{name}__", getattr(sys, name))


def _run(argv: list[str], env: dict[str, str]) -> int:
    """Run ``python ARGV`` in this process; its exit code."""
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    try:
        if argv[0] == "-m":
            sys.argv = ["-m", *argv[2:]]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        elif argv[0] == "-c":
            sys.argv = ["-c", *argv[2:]]
            exec(compile(argv[1], "<string>", "exec"), main.__dict__)
        else:
            sys.argv = list(argv)
            sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exc:
        return _exit_code(exc.code)
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except BaseException:  # as the interpreter does: shown, then 1
        traceback.print_exc()
        return 1
    return 0


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m deathzap_tui.club.zygote SOCKET", file=sys.stderr)
        return 2
    preload()
    if threading.active_count() != 1:  # forking would copy a lock some thread holds
        print("deathzap zygote: a thread started while importing; not forking",
              file=sys.stderr)
        return 1
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(args[0])  # left by a zygote killed before it could remove it
    old = os.umask(0o177)
    try:
        listener.bind(args[0])
    finally:
        os.umask(old)
    listener.listen(64)
    print(READY, flush=True)
    try:
        serve(listener)
    finally:
        listener.close()
        os.unlink(args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
