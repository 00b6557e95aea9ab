"""Playing one game from several terminals.

- :mod:`.protocol`  framing (length-prefixed JSON, size cap) and message checks
- :mod:`.wire`      steps, answers and board views as plain JSON data
- :mod:`.views`     what one player may see (the per-viewer hook, in one place)
- :mod:`.referee`   the host: the only writer of a game, on a Unix socket
- :mod:`.client`    :class:`RemoteSession`, the :class:`~deathzap_tui.session.Session`
                    facade over a connection to a referee
- :mod:`.lock`      one writer per save (``<save>.lock``)
- :mod:`.lastseen`  what a player has already seen (``<save>.seen``)
- :mod:`.sshd`      the built-in SSH server (asyncssh), one app per session on a pty
"""
