"""The action layout is frozen: every index pinned by name, append-only, recorded by models.

A saved model maps its outputs to action indices, so an index that moves
silently changes what every model does. ``PINNED`` spells out the whole
layout of the ladder every preset uses; ``VERSION_1`` is the block table of
version 1, which a later version may only extend at its end.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from agents.learned import INFO_ENTRY, ModelInfo, check_action_layout, load_model
from envs import actions as A
from envs.engine import Engine
from envs.observer import observation_size
from envs.rules import PRESETS
from envs.single_seat import PlayerEnv
from tests.models import tiny_model

PINNED = {
    "stand": 0, "hit": 1, "reveal_hit": 2, "take_bank": 3, "refuse_bank": 4,
    "claim_bank": 5, "double": 6, "split": 7, "change_four": 8, "mort": 9,
    "decline": 10, "fusilar": 11, "pass": 12, "sell_bank": 13,
    "bet_1": 14, "bet_2": 15, "bet_5": 16, "bet_10": 17,
    "raise_1": 18, "raise_2": 19, "raise_5": 20, "raise_10": 21,
    "bid_1": 22, "bid_2": 23, "bid_5": 24, "bid_10": 25,
    "side_bet_1_1": 26, "side_bet_1_2": 27, "side_bet_1_5": 28, "side_bet_1_10": 29,
    "side_bet_2_1": 30, "side_bet_2_2": 31, "side_bet_2_5": 32, "side_bet_2_10": 33,
    "side_bet_3_1": 34, "side_bet_3_2": 35, "side_bet_3_5": 36, "side_bet_3_10": 37,
    "side_bet_4_1": 38, "side_bet_4_2": 39, "side_bet_4_5": 40, "side_bet_4_10": 41,
    "side_bet_5_1": 42, "side_bet_5_2": 43, "side_bet_5_5": 44, "side_bet_5_10": 45,
    "side_bet_6_1": 46, "side_bet_6_2": 47, "side_bet_6_5": 48, "side_bet_6_10": 49,
    "side_bet_7_1": 50, "side_bet_7_2": 51, "side_bet_7_5": 52, "side_bet_7_10": 53,
}
"""Every index of the layout for the ladder (1, 2, 5, 10) of all eight presets."""

VERSION_1 = (
    (1, "core", A.FIXED, ("stand", "hit", "reveal_hit", "take_bank", "refuse_bank",
                          "claim_bank", "double", "split", "change_four", "mort", "decline",
                          "fusilar", "pass", "sell_bank")),
    (1, "bet", A.PER_STAKE, ()),
    (1, "raise", A.PER_STAKE, ()),
    (1, "bid", A.PER_STAKE, ()),
    (1, "side_bet", A.PER_TARGET_STAKE, ()),
)
"""The blocks of layout version 1, as they were when versions began: never edit."""


def version_1_names(ladder: tuple[int, ...]) -> list[str]:
    """The version-1 layout of a ladder, spelled out here independently of envs.actions."""
    return (list(VERSION_1[0][3]) + [f"bet_{k}" for k in ladder]
            + [f"raise_{k}" for k in ladder] + [f"bid_{k}" for k in ladder]
            + [f"side_bet_{o}_{k}" for o in range(1, 8) for k in ladder])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_index_of_every_preset_is_pinned_by_name(preset: str) -> None:
    engine = Engine(preset, 2)
    layout = engine.layout
    assert {name: layout.index(name) for name in layout.names} == PINNED
    assert layout.size == len(PINNED) == len(engine.action_mask())
    assert PlayerEnv(preset, 2).get_action_meanings() == list(PINNED)
    bets = {k: (layout.bet(k), layout.raise_(k), layout.side_bet(3, k))
            for k in PRESETS[preset].bet_ladder}
    assert bets == {k: (PINNED[f"bet_{k}"], PINNED[f"raise_{k}"], PINNED[f"side_bet_3_{k}"])
                    for k in (1, 2, 5, 10)}
    assert (layout.bet_start, layout.raise_start, layout.bid_start, layout.side_bet_start) == (
        PINNED["bet_1"], PINNED["raise_1"], PINNED["bid_1"], PINNED["side_bet_1_1"])
    assert layout.side_bet_of(PINNED["side_bet_6_5"]) == (6, 5)


def test_the_named_core_constants_are_their_pinned_indices() -> None:
    constants = {name: getattr(A, name.upper()) for name in A.CORE_ACTIONS}
    assert constants == {name: PINNED[name] for name in A.CORE_ACTIONS}


@pytest.mark.parametrize("ladder", [(1, 2, 5, 10), (1,), (1, 3), (2, 4, 8, 16, 32, 64)])
def test_the_layout_only_ever_grows_after_version_1(ladder: tuple[int, ...]) -> None:
    assert A.LAYOUT[:len(VERSION_1)] == VERSION_1
    versions = [row[0] for row in A.LAYOUT]
    assert versions == sorted(versions) and A.ACTION_LAYOUT_VERSION == versions[-1]
    names = A.ActionLayout(ladder).names
    assert names[:len(version_1_names(ladder))] == version_1_names(ladder)
    assert len(set(names)) == len(names), "action names must be unique"


def test_an_unknown_action_name_lists_the_names() -> None:
    with pytest.raises(ValueError, match=r"unknown action 'surrender'; actions are: stand, hit"):
        A.ActionLayout((1, 2)).index("surrender")


# ------------------------------------------------------------------ saved models
def _info(**changes: object) -> ModelInfo:
    fields = {"role": "player", "rules": "catalan", "num_seats": 2,
              "observation_size": observation_size(2), "action_names": tuple(PINNED),
              "net_arch": (4,), "activation": "tanh", "timesteps": 0,
              "rules_values": {"bet_ladder": [1, 2, 5, 10]}, **changes}
    return ModelInfo(**fields)  # type: ignore[arg-type]


def test_a_model_records_its_layout_and_loads_on_the_same_one(tmp_path: Path) -> None:
    file = tiny_model(tmp_path, _info())
    recorded = json.loads(zipfile.ZipFile(file).read(INFO_ENTRY))
    assert recorded["action_layout_version"] == A.ACTION_LAYOUT_VERSION
    assert recorded["action_names"] == list(PINNED)
    agent = load_model(file)
    assert agent.info is not None and agent.info.action_layout_version == 1
    env = PlayerEnv("catalan", 2, opponents="reader")
    obs, _ = env.reset(seed=4)
    mask = env.action_masks()
    assert mask[agent.act(obs, mask)]


def test_a_description_from_before_layout_versions_reads_as_version_1() -> None:
    text = json.loads(_info().to_json())
    del text["action_layout_version"]
    assert ModelInfo.from_json(json.dumps(text), "m.zip").action_layout_version == 1
    for bad in (0, "1", True):
        with pytest.raises(ValueError, match="needs 'action_layout_version' as an int from 1"):
            ModelInfo.from_json(json.dumps({**text, "action_layout_version": bad}), "m.zip")


def test_a_model_of_a_newer_layout_is_refused_naming_both_versions(tmp_path: Path) -> None:
    newer = _info(action_layout_version=A.ACTION_LAYOUT_VERSION + 1,
                  action_names=(*PINNED, "surrender"))
    message = (f"trained on action layout version {A.ACTION_LAYOUT_VERSION + 1}, but this "
               f"sette uses action layout version {A.ACTION_LAYOUT_VERSION}: from index 54 "
               f"the model has surrender where this layout has nothing")
    with pytest.raises(ValueError, match=message):
        load_model(tiny_model(tmp_path, newer))


def test_a_model_of_an_older_layout_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a version-1 model will be once a version 2 adds an action after the side bets."""
    import agents.learned

    class Version2:  # the names a version 2 would give (not a subclass: the core is compiled)
        def __init__(self, ladder: tuple[int, ...]) -> None:
            self.names = [*A.ActionLayout(ladder).names, "surrender"]

    monkeypatch.setattr(agents.learned, "ACTION_LAYOUT_VERSION", 2)
    monkeypatch.setattr(agents.learned, "ActionLayout", Version2)
    with pytest.raises(ValueError, match="model old.zip was trained on action layout version 1, "
                                         "but this sette uses action layout version 2: from "
                                         "index 54 the model has nothing where this layout has "
                                         "surrender"):
        check_action_layout(_info(), "old.zip")
    with pytest.raises(ValueError, match="version 2: both name the same 55 actions"):
        check_action_layout(_info(action_layout_version=3, action_names=(*PINNED, "surrender")),
                            "newer.zip")


def test_same_version_other_actions_names_the_first_difference() -> None:
    swapped = list(PINNED)
    swapped[14:18] = ["bet_2", "bet_1", "bet_5", "bet_10"]
    with pytest.raises(ValueError, match="from index 14 the model has bet_2, bet_1, bet_5, "
                                         "bet_10, raise_1, raise_2 and 34 more where"):
        check_action_layout(_info(action_names=tuple(swapped)), "m.zip")


def test_resuming_a_model_of_another_layout_is_refused(tmp_path: Path) -> None:
    from agents import make_agent
    from train.config import TrainConfig
    from train.ppo import make_vec_env, restore_model

    config = TrainConfig()
    file = tiny_model(tmp_path, _info(action_layout_version=A.ACTION_LAYOUT_VERSION + 1))
    env = make_vec_env("player", config, {"bank": make_agent("reader")}, seed=0)
    try:
        with pytest.raises(ValueError, match="trained on action layout version"):
            restore_model(file, env, "player", config, tmp_path, seed=0)
    finally:
        env.close()
