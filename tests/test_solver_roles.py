"""The solver values a trained model only in the role it learned: a bank's model given as
the player (``sette solve ev --player RUN/bank``) is refused by name, where it used to be
valued as a player it never was (and an information-state bank, asked at every player
history, ran for longer than anyone waits). A ``PLAYER|BANK`` pair is held to the same
wherever it is made, and an information-state bank at a table whose bank moves is pointed
to the option that keeps it still."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.learned import ModelInfo, load_model
from agents.seating import RoleSplitAgent
from envs.actions import ActionLayout
from envs.observation import observation_size
from envs.rules import Rules
from evaluate.solver.game import SolverError
from evaluate.solver.policies import AgentPolicy, as_policy
from tests.models import tiny_model
from train.cli import main

RULES = Rules.preset("catalan")


def _model(folder: Path, role: str) -> Path:
    folder.mkdir()
    info = ModelInfo(role=role, rules="catalan", num_seats=2,
                     observation_size=observation_size(2),
                     action_names=tuple(ActionLayout(tuple(RULES.bet_ladder)).names),
                     net_arch=(4,), activation="tanh", timesteps=0,
                     rules_values=RULES.to_dict())
    return tiny_model(folder, info)


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("models")
    return {role: _model(root / role, role).parent for role in ("player", "bank")}


@pytest.mark.parametrize(("argv", "wrong", "role"), [
    (["ev", "--player", "{bank}"], "bank", "player"),
    (["ev", "--bank", "{player}"], "player", "bank"),
    (["exploitability", "--player", "{player}", "--bank", "{player}"], "player", "bank"),
    (["best-response", "--role", "player", "--bank", "{player}"], "player", "bank"),
    (["best-response", "--role", "bank", "--player", "{bank}"], "bank", "player")])
def test_sette_solve_refuses_a_model_given_for_the_other_role(models, argv, wrong, role,
                                                               capsys) -> None:
    words = [word.format(**{k: str(v) for k, v in models.items()}) for word in argv]
    assert main(["solve", *words, "--preset", "catalan"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"sette solve: error: model {models[wrong]} was trained as the {wrong}, "
                   f"not as the {role}: give it as the {wrong}, and a {role}'s model as the "
                   f"{role}\n")


def test_each_model_is_valued_in_its_own_role(models) -> None:
    player, bank = load_model(models["player"]), load_model(models["bank"])
    assert isinstance(as_policy(player, RULES, "player"), AgentPolicy)
    assert isinstance(as_policy(bank, RULES, "bank"), AgentPolicy)
    pair = RoleSplitAgent(player, bank)  # PLAYER|BANK: each side asked in its own role
    as_policy(pair, RULES, "player")
    as_policy(pair, RULES, "bank")
    with pytest.raises(SolverError, match="was trained as the bank, not as the player"):
        as_policy(RoleSplitAgent(bank, bank), RULES, "player")
    # without a role (the library call that names none) nothing is refused
    as_policy(bank, RULES)


def test_a_pair_with_its_models_swapped_is_refused_wherever_it_is_made(models, capsys) -> None:
    """``PLAYER|BANK`` names each side's role: a bank's model before the bar is refused by
    ``make_agent``, so ``sette evaluate`` and ``sette variants`` refuse it as ``sette solve``
    does (they used to play each model in the other role and print the numbers)."""
    from agents import make_agent

    swapped = f"{models['bank']}|{models['player']}"
    with pytest.raises(ValueError, match=f"PLAYER\\|BANK '{swapped}': model "
                                         f"{models['bank']} was trained as the bank, not as "
                                         f"the player"):
        make_agent(swapped, rules=RULES)
    assert main(["evaluate", swapped, "careful", "--hands", "10"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "was trained as the bank, not as the player" in err
    make_agent(f"{models['player']}|{models['bank']}", rules=RULES)  # the right way round


def test_an_information_state_bank_at_a_rotating_bank_table_is_pointed_to_fixed_bank(
        tmp_path: Path) -> None:
    """Its information state is sized for the bank kept on one seat: at a table whose bank
    moves the sizes differ, and the refusal names the option that keeps the bank still."""
    from envs.information_state import information_state_bounds
    from envs.single_seat import fixed_bank_rules

    size = len(information_state_bounds(fixed_bank_rules(RULES), 2)[0])
    rotating = len(information_state_bounds(RULES, 2)[0])
    assert size != rotating
    tmp_path.joinpath("bank").mkdir()
    info = ModelInfo(role="bank", rules="catalan", num_seats=2, observation_size=size,
                     action_names=tuple(ActionLayout(tuple(RULES.bet_ladder)).names),
                     net_arch=(4,), activation="tanh", timesteps=0,
                     rules_values=RULES.to_dict(), observation_type="information_state")
    model = load_model(tiny_model(tmp_path / "bank", info))
    model.check_table(size, model.num_actions)
    with pytest.raises(ValueError, match="as the Player and Bank views keep it: sette evaluate "
                                         "--fixed-bank"):
        model.check_table(rotating, model.num_actions)
