"""The §6 house rules as plug-ins (envs/house_rules.py).

Each plug-in is built only when its switch is on, once per engine, and joins
only the hooks it names; each one's hooks are then played on a scripted deck
of the ``pagat`` (bets before the deal) or ``spanish`` (bets on the turn)
preset with that one switch turned on. Seat 0 holds the bank, seat 1 plays
first; the first card goes to seat 1, then to the next player, then to the
bank, and hits draw the next cards.
"""

from __future__ import annotations

import pickle

import pytest

from envs import house_rules as H
from envs.engine import BANK, BET, PLAY, SIDE_BET, STOOD
from envs.hands import FUSILAR, MORT, SECRET
from envs.rules import Rules

from scripted import events, faces, hand_of, legal_names, play, start

PAG = Rules.preset("pagat")
ESP = Rules.preset("spanish")


def plugged(rules: Rules) -> list[str]:
    from envs.engine import Engine
    return [rule.name for rule in Engine(rules, 3).house_rules]


# ------------------------------------------------------------ built from the switches
@pytest.mark.parametrize("rules, names", [
    (PAG, []),
    (Rules.preset("catalan"), []),
    (PAG.replace(double=True), ["double"]),
    (PAG.replace(fusilar=True), ["fusilar"]),
    (PAG.replace(split_rule="abrirse"), ["split"]),
    (PAG.replace(change_four="forced"), ["change_four"]),
    (PAG.replace(secret_three=True), ["secret_three"]),
    (PAG.replace(mort=True), ["mort"]),
    (PAG.replace(side_bets=True), ["side_bets"]),
    (Rules.preset("catalan_house"), ["double", "split", "change_four", "secret_three", "mort"]),
    (Rules.preset("spanish_full"), ["fusilar", "split", "change_four", "side_bets"]),
])
def test_a_plugin_is_built_only_when_its_switch_is_on(rules, names):
    assert plugged(rules) == names


def test_each_hook_runs_only_its_plugins():
    from envs.engine import Engine
    e = Engine(Rules.preset("catalan_house"), 3)
    by_hook = {"deal": e._deal_rules, "sole": e._sole_choice_rules, "play": e._play_rules,
               "turn_bet": e._turn_bet_rules, "after_deal": e._after_deal_rules}
    assert {k: [p.name for p in v] for k, v in by_hook.items()} == {
        "deal": ["change_four", "secret_three"], "sole": ["secret_three", "mort"],
        "play": ["double", "split"], "turn_bet": [], "after_deal": []}
    owners = {e.layout.names[a]: p.name for a, p in enumerate(e._action_rules) if p is not None}
    assert owners == {"double": "double", "split": "split", "mort": "mort", "decline": "mort"}
    plain = Engine(PAG, 3)
    assert plain.house_rules == () and not any(plain._action_rules)


@pytest.mark.parametrize("rules, hook", [
    (PAG.replace(fusilar=True), H.LEGAL_PLAY), (ESP.replace(fusilar=True), H.LEGAL_TURN_BET),
    (PAG.replace(change_four="optional"), H.LEGAL_PLAY),
    (ESP.replace(change_four="optional"), H.LEGAL_TURN_BET),
    (PAG.replace(change_four="forced"), H.AT_DEAL)])
def test_the_timing_of_the_bets_picks_the_hook(rules, hook):
    from envs.engine import Engine
    (rule,) = Engine(rules, 2).house_rules
    assert rule.hooks == hook


def test_an_engine_with_plugins_pickles_and_plays_on_identically():
    e = start(Rules.preset("catalan_house"), 3, "7o Sc 4e", bank=0, max_hands=3)
    twin = pickle.loads(pickle.dumps(e))
    assert [p.name for p in twin.house_rules] == [p.name for p in e.house_rules]
    for engine in (e, twin):
        while not engine.over:
            engine.step(engine.legal_actions()[-1])
    assert twin.events == e.events


# ------------------------------------------------------------ each plug-in's hooks
def test_double_one_card_at_twice_the_stake():
    """RULES.md §6 double: with only the first card, the stake doubles and one card comes."""
    e = start(PAG.replace(double=True), 2, "3o 5c 4e", bank=0)
    play(e, ["1:bet_1"])
    assert legal_names(e) == ["stand", "hit", "double"]
    play(e, ["1:double"])
    p1 = hand_of(e, 1)
    assert (p1.bet, p1.status, e.phase, e.chips[1]) == (20, STOOD, BANK, 980)
    assert faces(p1) == ["(3o)", "4e"] and events(e, "double")[0][:2] == (1, 20)


def test_fusilar_before_the_deal_a_card_nobody_sees_and_the_bank_must_chase():
    """RULES.md §6 fusilar: the 7 is shown, a card under it unseen; the bank may not stand below 7½."""
    e = start(PAG.replace(fusilar=True), 2, "7o 5c Sc 1e", bank=0)
    play(e, ["1:bet_1"])
    assert legal_names(e) == ["stand", "hit", "fusilar"]
    play(e, ["1:fusilar"])
    p1 = hand_of(e, 1)
    assert (p1.special, p1.status, p1.unseen) == (FUSILAR, STOOD, [False, True])
    assert (e.phase, legal_names(e)) == (BANK, ["hit"])      # 5 must chase the fusilar


def test_fusilar_with_bets_on_the_turn_comes_before_the_bet():
    e = start(ESP.replace(fusilar=True), 2, "7o 5c Sc", bank=0)
    assert e.phase == BET and "fusilar" in legal_names(e)
    play(e, ["1:fusilar"])
    assert e.phase == BET and hand_of(e, 1).special == FUSILAR
    play(e, ["1:bet_1"])                               # staked, the shot hand stands
    assert e.phase == BANK and hand_of(e, 1).status == STOOD


def test_split_two_figures_once_stakes_the_second_hand_at_once():
    """RULES.md §6 split two_figures_once (CAT): two figures, once, an equal second stake."""
    e = start(PAG.replace(split_rule="two_figures_once"), 2, "Sc 5c Ro 1e", bank=0)
    play(e, ["1:bet_1", "1:hit"])
    assert legal_names(e) == ["stand", "hit", "split"]
    play(e, ["1:split"])
    hands = e.hands[1]
    assert [faces(h) for h in hands] == [["(Sc)"], ["Ro"]]
    assert [h.bet for h in hands] == [10, 10] and e.chips[1] == 980
    assert "split" not in legal_names(e)               # once


def test_abrirse_asks_the_stake_of_the_opened_hand():
    """RULES.md §6 abrirse (ESP): two cards of one value; the new hand's stake is asked (§8.9)."""
    e = start(PAG.replace(split_rule="abrirse"), 2, "3o 5c 3e 1e", bank=0)
    play(e, ["1:bet_1", "1:hit"])
    play(e, ["1:split"])
    assert (e.phase, e.bet_purpose, e.hand_index) == (BET, "split", 1)
    assert faces(hand_of(e, 1)) == ["3o"]               # §8.5 the opened cards are shown
    play(e, ["1:bet_2"])
    assert e.phase == PLAY and [h.bet for h in e.hands[1]] == [10, 20]


def test_a_forced_change_of_a_four_at_the_deal():
    """RULES.md §6 change_four forced (CAT): the 4 is thrown out and another card dealt."""
    e = start(PAG.replace(change_four="forced"), 2, "4o 6e 5c", bank=0)
    play(e, ["1:bet_1"])
    assert faces(hand_of(e, 1)) == ["(6e)"]
    assert events(e, "discarded") == [(1, 3, "change_four")]
    assert faces(e.bank_hand) == ["(5c)"]


def test_an_optional_change_of_a_four_goes_back_into_the_pile():
    """RULES.md §6 change_four optional (ESP): before the bet, the 4 goes back, the next card comes."""
    e = start(ESP.replace(change_four="optional"), 2, "4o 5c 2e", bank=0)
    assert "change_four" in legal_names(e)
    play(e, ["1:change_four"])
    assert faces(hand_of(e, 1)) == ["(2e)"] and e.four_changes == 1
    assert events(e, "four_back") == [(1, 3)]
    assert "change_four" not in legal_names(e)          # a 2 now


def test_secret_three_two_cards_nobody_sees_and_only_stand():
    """RULES.md §6 secret_three (CAT): the 3 is swapped for two secret cards; the hand only stands."""
    e = start(PAG.replace(secret_three=True), 2, "3o 2c 1e 5b", bank=0)
    play(e, ["1:bet_1"])
    p1 = hand_of(e, 1)
    assert (p1.special, p1.unseen, legal_names(e)) == (SECRET, [True, True], ["stand"])
    assert events(e, "discarded") == [(1, 2, "secret_three")]


def test_mort_on_an_initial_seven():
    """RULES.md §6 mort (CAT): the first choice on a 7; the Mort deals one card nobody sees."""
    e = start(PAG.replace(mort=True), 2, "7o 5c Sc", bank=0)
    play(e, ["1:bet_1"])
    assert legal_names(e) == ["mort", "decline"]
    play(e, ["1:mort"])
    p1 = hand_of(e, 1)
    assert (p1.special, p1.status, p1.unseen, e.phase) == (MORT, STOOD, [False, True], BANK)


def test_declining_the_mort_plays_on():
    e = start(PAG.replace(mort=True, fusilar=True), 2, "7o 5c Sc", bank=0)
    play(e, ["1:bet_1"])
    assert legal_names(e) == ["mort", "decline", "fusilar"]
    play(e, ["1:decline"])
    assert e.mort_decided and legal_names(e) == ["stand", "hit", "fusilar"]


def test_side_bets_open_a_phase_after_the_deal():
    """RULES.md §6 side_bets (ESP): each player in turn order may stake on another's hand."""
    e = start(PAG.replace(side_bets=True), 3, "5o 6c 4e", bank=0)
    play(e, ["1:bet_1", "2:bet_1"])
    assert (e.phase, e.actor) == (SIDE_BET, 1)
    bet = next(name for name in legal_names(e) if name.startswith("side_bet_1_"))
    play(e, [f"1:{bet}", "2:pass"])
    assert events(e, "side_bet") == [(1, 2, 10)] and e.phase == PLAY
    assert hand_of(e, 2).side_bets == [(1, 10)]


def test_side_bets_need_two_players():
    e = start(PAG.replace(side_bets=True), 2, "5o 6c", bank=0)
    play(e, ["1:bet_1"])
    assert e.phase == PLAY
