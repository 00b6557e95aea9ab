"""Issue 11, secrets stay secret: hidden cards come from a secret deal seed.

The public seed (shown on the start screen and by ``deathzap log``) fixes the dice;
the Command Hands and the order of every deck come from the game's secret
``deal_seed``, which the save keeps and nothing prints. So knowing the public seed
and the log does not rebuild the other side's hand, while the game itself replays,
resumes, undoes and redoes to the same cards and dice. Saves from before the secret
seed still load and replay exactly as they were played.
"""

from __future__ import annotations

import copy
import random
import tomllib
from pathlib import Path

import pytest
from ch_fixtures import play_random_action

from deathzap_tui import saves
from deathzap_tui.cli import main
from deathzap_tui.forcefile import load_force
from deathzap_tui.paths import PROJECT_ROOT
from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import ROLL
from deathzap_tui.session import Session

FORCES = PROJECT_ROOT / "forces"
RED = FORCES / "ch-ironbark-rangers.toml"
BLACK = FORCES / "ch-cinder-collective.toml"
OLD_SAVE = Path(__file__).resolve().parents[2] / "golden" / "ch_save_before_deal_seed.toml"
"""A Command Hand save written before there was a deal seed (public seed 1): ROLLed
dice, a reshuffled deck, an undo, a redo and an undo again."""
DEAL_SEED = 2**62 + 0x5EC12E7
"""Nineteen digits: a log or a message holds them only if the secret leaked."""


@pytest.fixture(autouse=True)
def deals_from_the_public_seed() -> None:
    """Overrides the suite's fixture of that name: games here get secret deal seeds."""


def game(seed: int = 7, deal_seed: int | None = DEAL_SEED, log=()) -> Game:
    red, black = (load_force(p).force for p in (RED, BLACK))
    return Game(RULESET, red, black, RULESET.options(), seed, log, deal_seed=deal_seed)


def cards(g: Game) -> tuple[dict[str, list[str]], list[str]]:
    return g.state.hands, g.state.deck


def play(g: Game, actions: int, rnd: random.Random) -> None:
    """Random legal actions with generated dice (``ROLL``), set-up included."""
    for _ in range(actions):
        if g.state.over or not play_random_action(g, rnd):
            break


def test_the_same_public_seed_gives_the_same_dice_but_not_the_same_cards() -> None:
    one, two = game(deal_seed=1), game(deal_seed=2)
    assert one.state.hands != two.state.hands
    assert one.state.deck != two.state.deck
    for g in (one, two):
        g.play({"type": "rolloff"}, [ROLL, ROLL, "south"])
    assert [e.data["answers"] for e in one.log] == [e.data["answers"] for e in two.log]


def test_the_public_seed_and_the_log_do_not_rebuild_the_hands(saves_dir: Path) -> None:
    session = Session.new(RED, BLACK, seed=7, save_path="secret")
    session.game.play({"type": "rolloff"}, [ROLL, ROLL, "south"])
    public = saves.read_save_data(session.path)
    secret = public.pop("deal_seed")
    assert secret == session.game.deal_seed
    # What a player knows (the public seed, forces, options, the log) deals other
    # hands, whether read as an old save or taking the public seed for the secret.
    for guess in (None, public["seed"]):
        rebuilt = game(public["seed"], guess)
        assert rebuilt.state.hands != session.game.state.hands
        assert rebuilt.state.deck != session.game.state.deck


def test_two_new_games_with_the_same_seed_deal_differently(saves_dir: Path) -> None:
    one, two = (Session.new(RED, BLACK, seed=7, save_path=f"g{i}") for i in (1, 2))
    assert one.game.deal_seed != two.game.deal_seed
    assert cards(one.game) != cards(two.game)
    assert one.game.state.rng == two.game.state.rng  # the dice are the public seed's


def test_the_save_keeps_the_secret_and_resuming_deals_the_same(saves_dir: Path) -> None:
    session = Session.new(RED, BLACK, seed=7, save_path="kept", deal_seed=DEAL_SEED)
    play(session.game, 80, random.Random(3))
    data = tomllib.loads(session.path.read_text(encoding="utf-8"))
    assert data["deal_seed"] == DEAL_SEED and data["seed"] == 7
    for again in (Session.resume("kept"), Session(saves.load_game(session.path), None)):
        assert again.game.deal_seed == DEAL_SEED
        assert again.game.state == session.game.state
        assert again.game.state.deal_rng == session.game.state.deal_rng
        assert again.narrative() == session.narrative()


def test_undo_and_redo_never_reshuffle(saves_dir: Path) -> None:
    g = game()
    play(g, 400, random.Random(5))
    assert g.state.decks_used > 1, "play long enough for the deck to be reshuffled"
    states = [copy.deepcopy(g.state)]
    for _ in range(6):
        g.undo()
        states.append(copy.deepcopy(g.state))
    for back in reversed(states[:-1]):
        g.redo()
        assert g.state == back and cards(g) == cards(Game(
            g.ruleset, g.red, g.black, g.options, g.seed, g.log, deal_seed=g.deal_seed))
    assert game(log=g.log).state == g.state  # a replay of the log: same cards and dice


def test_log_and_views_never_show_the_secret(saves_dir: Path, capsys) -> None:
    session = Session.new(RED, BLACK, seed=7, save_path="shown", deal_seed=DEAL_SEED)
    play(session.game, 60, random.Random(9))
    session.save()
    assert main(["log", "shown"]) == 0
    out = capsys.readouterr().out
    assert "seed 7" in out.splitlines()[0]
    for text in (str(DEAL_SEED), f"{DEAL_SEED:x}", f"{DEAL_SEED:X}"):
        assert text not in out
        for viewer in (None, "red", "black", "watch"):
            assert text not in repr(RULESET.view(session.game.state, viewer))
            assert text not in repr(RULESET.intents(session.game.state, viewer))


def test_a_save_from_before_the_deal_seed_replays_as_it_was_played(
        saves_dir: Path, capsys) -> None:
    assert "deal_seed" not in saves.read_save_data(OLD_SAVE)
    old = saves.load_game(OLD_SAVE)  # its generated dice are checked as it replays
    assert old.deal_seed is None and old.state.deal_rng is old.state.rng
    assert old.state.decks_used == 2 and old.can_redo
    assert old.state.deck[:5] == ["KD", "5S", "6D", "5D", "8S"]
    assert old.state.rng.state == 0xDF269EB9F59B7137
    assert main(["log", str(OLD_SAVE)]) == 0
    assert capsys.readouterr().out == OLD_SAVE.with_suffix(".txt").read_text(encoding="utf-8")
    # Saved again it keeps its form, and copies keep its one generator one.
    saves.save_game(old, saves_dir / "again.toml")
    assert "deal_seed" not in saves.read_save_data(saves_dir / "again.toml")
    assert saves.load_game(saves_dir / "again.toml").state == old.state
    twin = copy.deepcopy(old.state)
    assert twin.deal_rng is twin.rng and twin.rng is not old.state.rng
