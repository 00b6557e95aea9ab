"""What the wizard's odds panel shows, from a resolution in progress (issue 4).

Pure: no Textual, no Rich. The engine describes the attacks it is resolving in
``ctx.facts`` (``"attacks"``: every attack declared this activation, in order;
``"attack"``: the one being resolved, updated as dice come in; see the ruleset's
``combat`` module); the ruleset turns one such dict into odds
(``Ruleset.attack_odds(state, facts)``). This module only groups and labels.

Per target, one entry: the attack in progress if it is on that target, otherwise the
next one declared against it. Later attacks on the same target are counted
(``queued``) but not folded in: their numbers (shields, figures) are only known once
the earlier ones are done, and the ruleset hook answers for one attack at a time.

Cost: ``attack_odds`` is an exact float DP, ~0.1-2 ms per attack on this machine
(see :data:`BENCHMARK`), so the panel computes synchronously in the key handler: it
cannot make input lag and needs no worker. A refresh computes every entry, so a
ruleset caps the cost of ONE attack at a fraction of the 20 ms (Plasmashok's
``PANEL_WORK``: about 6 ms, three targets of a split fire or a blast near 20 ms;
Double Tap's ``PANEL_DICE``: under 1 ms, three such targets 1.5-2.5 ms).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deathzap_tui.headless.text import clean
from deathzap_tui.rules.odds import AttackFacts, Odds

BENCHMARK = (
    "best of 5 x 50 refreshes, 2-core box, Python 3.11: a DZ3 6-dice shot 0.12 ms, "
    "split fire at 2 targets 0.20 ms, 6 dice at a vehicle 0.05 ms; one 60-shot weapon "
    "group at 10 figures 0.52 ms, 240 shots at 20 figures 3.5 ms (ruleset.attack_odds); "
    "Classic: 6 guns with suppression 0.02 ms, 6 beasts in melee 0.12 ms, 10 monsters "
    "(hits up to 120) into 3 types of 10 figures 3 ms; Plasmashok, no binomial row "
    "cached, best of 40: 12 attack dice of strength 2 0.4 ms, a vehicle's 3 weapons "
    "2.2 ms, 25 dice of strength 6 (near its PANEL_WORK) 4.7 ms idle / 8.8 ms with "
    "the box loaded (load 6), a refresh of 3 such targets 20 ms loaded, 9 ms warm; "
    "Double Tap: a Rifle's 2 attacks from facts 0.02 ms, 58 dodged attacks (its "
    "PANEL_DICE) 0.5 ms, 0.04 ms once the hits are known, a refresh of 3 such targets "
    "1.5 ms idle, 2.4 ms loaded (benchmarks/odds.py)"
)
"""Why the panel computes inline; ``tests/app/wizard/test_oddsview.py`` fails if a refresh
ever takes over 20 ms."""

KIND_WORDS = {"shooting": "shooting", "melee": "melee", "explosion": "explosion",
              "morale": "morale test"}
"""Words for the kinds of attack, where the odds do not give their own
(:attr:`~deathzap_tui.rules.odds.Odds.kind_text`)."""


@dataclass(frozen=True)
class OddsEntry:
    """The odds for one target."""

    target: str
    """The unit id (``"black.1"``)."""
    label: str
    """The target's name, cleaned of control characters (still plain text: escape it
    before any markup)."""
    what: str
    """The attack in words: ``"Repeater (shooting)"``, ``"melee"``, ``"morale test"``."""
    odds: Odds
    """The ruleset's odds (its labelled rows are what the panel shows)."""
    current: bool
    """The attack being resolved now (the dice asked for are its dice)."""
    stage: str
    """The engine's stage of that attack (``declared``, ``hit``, ``shields`` ...)."""
    queued: int = 0
    """Further attacks declared on the same target, not included in ``odds``."""


def _attack_list(facts: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    attacks = [a for a in facts.get("attacks") or () if isinstance(a, Mapping)]
    current = facts.get("attack")
    if isinstance(current, Mapping) and not any(a is current for a in attacks):
        attacks.append(current)
    return attacks


def _what(fact: AttackFacts, odds: Odds) -> str:
    kind = fact.kind
    weapon = clean(fact.weapon, oneline=True)
    words = odds.kind_text or KIND_WORDS.get(kind, clean(kind, oneline=True))
    if weapon == words:  # a melee fact naming its weapon "melee"
        return words
    return f"{weapon} ({words})" if weapon and words else (weapon or words)


def odds_entries(ruleset: Any, state: Any, facts: Mapping[str, Any] | None,
                 names: Mapping[str, str] | None = None) -> list[OddsEntry]:
    """Per-target odds for the attacks declared and still to resolve, the attack in
    progress first, then the others in declaration order. Empty when there is
    nothing to show (no attack facts, all attacks done, or a ruleset with no odds).

    ``names`` maps unit ids to names for the labels (default: the ids).
    """
    if ruleset is None or not facts:
        return []
    current = facts.get("attack")
    if not isinstance(current, Mapping) or AttackFacts.read(current).done:
        current = None
    by_target: dict[str, list[Mapping[str, Any]]] = {}
    for fact in _attack_list(facts):
        read = AttackFacts.read(fact)
        if not read.done:
            by_target.setdefault(read.target, []).append(fact)
    entries: list[OddsEntry] = []
    for target, group in by_target.items():
        head = next((a for a in group if a is current), group[0])
        try:
            odds = ruleset.attack_odds(state, head)
        except Exception:  # an odds bug must not end the evening's game
            odds = None  # facts the ruleset can't read: show nothing for that target
        if odds is None:
            continue
        label = clean((names or {}).get(target) or target, oneline=True)
        fact = AttackFacts.read(head)
        entry = OddsEntry(target=target, label=label, what=_what(fact, odds), odds=odds,
                          current=head is current, stage=fact.stage, queued=len(group) - 1)
        entries.append(entry)
    entries.sort(key=lambda e: not e.current)  # stable: the rest keep their order
    return entries


def entries_for(resolution: Any, ruleset: Any,
                names: Mapping[str, str] | None = None) -> list[OddsEntry]:
    """:func:`odds_entries` for a ``steps.Resolution`` (or ``None``) as it stands."""
    if resolution is None or resolution.step is None:
        return []
    ctx = resolution.ctx
    return odds_entries(ruleset, ctx.state, ctx.facts, names)


def signature(entries: Sequence[OddsEntry]) -> tuple[Any, ...]:
    """Something equal for equal panels: the widget repaints only on a change."""
    return tuple((e.target, e.what, e.current, e.stage, e.queued, e.odds) for e in entries)
