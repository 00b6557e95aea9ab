-- Issue 23: the club store's first schema (SQLite). Times are seconds since the epoch.
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,          -- NFKC + casefold: one member per name
    created_at INTEGER NOT NULL
);
CREATE TABLE member_keys (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    key_type TEXT NOT NULL,
    blob BLOB NOT NULL UNIQUE,              -- a key belongs to one member
    fingerprint TEXT NOT NULL,
    comment TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX member_keys_member ON member_keys (member_id);
CREATE TABLE forces (
    id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    toml TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (member_id, name)
);
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY,
    challenger_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    opponent_id INTEGER REFERENCES members (id) ON DELETE CASCADE,   -- NULL: open
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL,                  -- JSON
    force TEXT NOT NULL,                    -- TOML
    public INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    ruleset TEXT NOT NULL,
    header TEXT NOT NULL,                   -- JSON: a save's table without its events
    red_id INTEGER REFERENCES members (id) ON DELETE SET NULL,
    black_id INTEGER REFERENCES members (id) ON DELETE SET NULL,
    public INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    result TEXT NOT NULL DEFAULT '',
    events INTEGER NOT NULL DEFAULT 0,      -- how many rows of events it has
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX games_red ON games (red_id);
CREATE INDEX games_black ON games (black_id);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,                   -- 0, 1, 2...: the event's place in the log
    data TEXT NOT NULL,                     -- JSON, as a save journal's line holds it
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)              -- decides two writers racing on one game
);
CREATE TABLE game_seen (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    member_id INTEGER NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    events INTEGER NOT NULL,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, member_id)
);
CREATE TABLE in_flight (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data TEXT NOT NULL,                     -- JSON: deathzap_tui.inflight.InFlight
    updated_at INTEGER NOT NULL
);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    server TEXT NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL
);
CREATE INDEX sessions_key ON sessions (fingerprint);
CREATE TABLE key_actions (
    fingerprint TEXT NOT NULL,
    what TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX key_actions_key ON key_actions (fingerprint, what, at);
