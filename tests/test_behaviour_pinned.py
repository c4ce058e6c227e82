"""Play pinned to the chip and to the bit: a refactor must not change a single number.

Each digest below is a SHA-256 over seeded play, recorded before the
architecture change of the engine, observer and views (issue 11) and
unchanged since. It covers, for every preset at 2, 4 and 5 seats, the event
log (as plain tuples), every seat's observation and the mask after every
step, and the rewards; and for the three single-seat views with several
kinds of opponents, every observation, reward, ending and mask a learner
sees. A difference means the game is played differently: if that is
intended (a rule change), print the new digests with
``python tests/test_behaviour_pinned.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import numpy as np
import pytest

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gymnasium  # noqa: E402

import envs  # noqa: E402,F401  (registers the views)
from envs.engine import Engine  # noqa: E402
from envs.observer import Observer  # noqa: E402
from envs.rules import PRESETS  # noqa: E402

SEATS = (2, 4, 5)
VIEWS = ("sette/Player-v0", "sette/Bank-v0", "sette/Seat-v0")
OPPONENTS = (None, "threshold:5", "reader", "careful", "random")
VIEW_PRESETS = ("catalan", "spanish_full", "pagat_italian", "italian")


def engine_digest(preset: str, seats: int, seed: int = 3, hands: int = 12) -> str:
    """Random legal play of one episode: events, every seat's view, masks, rewards."""
    digest = hashlib.sha256()
    engine = Engine(preset, seats, hands)
    observer = Observer(engine)
    rnd = random.Random(seed)
    engine.reset(seed=seed)
    while not engine.over:
        for seat in range(seats):
            digest.update(observer.observe(seat).tobytes())
        digest.update(engine.action_mask().tobytes())
        engine.step(rnd.choice(engine.legal_actions()))
        digest.update(repr(engine.pending_rewards).encode())
    for seat in range(seats):
        digest.update(observer.observe(seat).tobytes())
    digest.update(repr([tuple(event) for event in engine.events]).encode())
    return digest.hexdigest()


def view_digest(view: str, preset: str, opponents: str | None, seed: int = 5,
                steps: int = 300) -> str:
    """A learner's whole experience of ``steps`` random legal steps through a view."""
    digest = hashlib.sha256()
    env = gymnasium.make(view, rules=preset, num_seats=3, opponents=opponents)
    rnd = random.Random(seed)
    obs, info = env.reset(seed=seed)
    digest.update(obs.tobytes())
    for _ in range(steps):
        mask = env.unwrapped.action_masks()
        digest.update(np.asarray(mask, dtype=np.int8).tobytes())
        action = rnd.choice(np.flatnonzero(mask).tolist())
        obs, reward, terminated, truncated, info = env.step(action)
        digest.update(obs.tobytes())
        digest.update(repr((float(reward), terminated, truncated)).encode())
        if terminated or truncated:
            obs, info = env.reset()
            digest.update(obs.tobytes())
    env.close()
    return digest.hexdigest()


ENGINE_DIGESTS: dict[tuple[str, int], str] = {
    ('catalan', 2): '9b32adb691a4a0c1139d2090357d21c437af3c6c33fbcadf6eef14e7a22e4995',
    ('catalan', 4): '7f7667520866016ad2791982132a744abc1189d521da4dd4d34b9d3ec6bfcf99',
    ('catalan', 5): '379a6dec2a3697280d4db1991c2a859894c674e68dd1a40ecc897760197273bd',
    ('catalan_house', 2): '3a26d90ed7e0c26e5ad0977f737f6300e7b17d062ecbe85945273d728df65c30',
    ('catalan_house', 4): 'db950cc2f8ea28b772bd69168a8a23a3e9c16a2db1a1da7849925215a2c42090',
    ('catalan_house', 5): '711ee3742a5ddc3fceb47b195f7bf4cf7bc1fb2553c3a141c86858215e2b0292',
    ('italian', 2): '96343c4177e52221ae49cc837f9140537d89f94c59d77681f2e19b0cd85a4908',
    ('italian', 4): '77c966c397b08829c63f46abf71efef52526401842c5f62c48159852bf89f7b9',
    ('italian', 5): '46f570b132755e86f87da99c14a2bc90e344940e0ec230fad1a40d3700773291',
    ('pagat', 2): 'ee85b9f8fbd1c703ab18380e7fba7fadcc071f7a26687b58d73ac501a5cc8af8',
    ('pagat', 4): '86bb630f33a37d8423e9d246ca1eb74802e2ef1afd58abc5752ef303eb510a59',
    ('pagat', 5): 'fc1e164610bf02afa515f4994dc452338c74ad64f4d749077fc343361f08a2cb',
    ('pagat_italian', 2): '8f8d95a5f3626866e7175780790cb84a7271a4d568b213e08a1b148e83fa942e',
    ('pagat_italian', 4): 'c18ad6ff5df5ce719678c343e01d79c604fe99aca1d655a951fd821b63f33574',
    ('pagat_italian', 5): '9da3c181333cb1ac3306d31eabcb658e85addd5ab7c94469c11e19f9a61d6de4',
    ('pagat_spanish', 2): '1ab34a6461ec9a4bcf7800d1fc9c42f3a178c5e9bfff59b9737f4aeffafc0dc7',
    ('pagat_spanish', 4): '2d798f04e57f046c107429da0212f2ccca47c2ad02ed1f9ba27b83aaf7a770e8',
    ('pagat_spanish', 5): 'f1d8b969065c26dbd9b20fa3a00d41b95b908b86d22ae8a9e1267fa9c28aa258',
    ('spanish', 2): 'ec861943b85d1e695bcf70d2edea48a635b9dca98871fb8a01454234f1a4d63a',
    ('spanish', 4): '73b910de4469ea9f37331c08954f64b981c8cb9824e0b4553159ee27063e7691',
    ('spanish', 5): '4c28817c3c760a6ef842068d9b1cb343d64d07c691bb4bc91320427d50f6f4f5',
    ('spanish_full', 2): 'b1a41697f4c51ecd79c2db6c11ef290005b8da49849c9eec23f34e94b42d4684',
    ('spanish_full', 4): '530784e8397f11f0c694c8ce303878550b231c871ffefd4cafaabf2b29090ae6',
    ('spanish_full', 5): '8eb52ce383657c736ad445193fceb806e42b877493eb83ca13dcb3f0c80dcba5',
}
VIEW_DIGESTS: dict[tuple[str, str, str | None], str] = {
    ('sette/Player-v0', 'catalan', None):
        'bce430b24390b71ab07cce3338a7dd2b8a8ca772cc57aab35a954a35400e5978',
    ('sette/Player-v0', 'catalan', 'threshold:5'):
        'b8ac0376c24e647e00e0f78af04d011d2890353fb7c96cf1700908bb2cbf1ca5',
    ('sette/Player-v0', 'catalan', 'reader'):
        '54d539ce408b393f96c40024c724a446d7386d08c62109cb49a928449f125ebf',
    ('sette/Player-v0', 'catalan', 'careful'):
        '54d539ce408b393f96c40024c724a446d7386d08c62109cb49a928449f125ebf',
    ('sette/Player-v0', 'catalan', 'random'):
        'a4852d0fce182f27ec5a2cdbf45efe71895d97bfd3a693dfacabfb35bbfa0e55',
    ('sette/Player-v0', 'spanish_full', None):
        '22175cb88b076847788ee934d70dda63e1cd2cffaaf5615b8bc74a3ef9988967',
    ('sette/Player-v0', 'spanish_full', 'threshold:5'):
        'b369d293f57798dcfffee2e0018a6162949b9579849f38264efe8536f6e2b0d6',
    ('sette/Player-v0', 'spanish_full', 'reader'):
        '5e92031c8688d04fb7090b05056d05e7323d987a778bd0e1af9e3c7289d5744d',
    ('sette/Player-v0', 'spanish_full', 'careful'):
        '5e92031c8688d04fb7090b05056d05e7323d987a778bd0e1af9e3c7289d5744d',
    ('sette/Player-v0', 'spanish_full', 'random'):
        '4332bdc8a4deb1ee0c16d9e9f361b67b64fda3cace6c561e3b0f7bea40ed33c8',
    ('sette/Player-v0', 'pagat_italian', None):
        '068b9966a6ae16cb461b64d4a41ef3adb72e10d5254a166ccde2e6b0759857aa',
    ('sette/Player-v0', 'pagat_italian', 'threshold:5'):
        '97be061fd7612ed4dd9211f0385c14b037e13c5ab6cbe99139fed59c1d58a2af',
    ('sette/Player-v0', 'pagat_italian', 'reader'):
        '6f52d4c81f1c985a5bf36b2bfb3b3c61f71becb84aa85648cb52790b250bb870',
    ('sette/Player-v0', 'pagat_italian', 'careful'):
        '6f52d4c81f1c985a5bf36b2bfb3b3c61f71becb84aa85648cb52790b250bb870',
    ('sette/Player-v0', 'pagat_italian', 'random'):
        '31bbf5be68181886f35a19e095146d329a1ecef9f316f23bba0adba212cecb52',
    ('sette/Player-v0', 'italian', None):
        '8effc973547538d10df74cb01bb22e920fba78bd5adb083089c6c20602f682db',
    ('sette/Player-v0', 'italian', 'threshold:5'):
        '462b1cecbe8916668c79e9aef1885a8adf9dc2c7c69e1ef4a136bc0c43eb5aa8',
    ('sette/Player-v0', 'italian', 'reader'):
        'dcb9ab8d0a676e6bb1001d66851556826725cf79bccdd8b4313d26914ae1ed39',
    ('sette/Player-v0', 'italian', 'careful'):
        'dcb9ab8d0a676e6bb1001d66851556826725cf79bccdd8b4313d26914ae1ed39',
    ('sette/Player-v0', 'italian', 'random'):
        'c1a9a65c560e040700664831d286aabb6e1f0f91a7bbc077119d314f13623028',
    ('sette/Bank-v0', 'catalan', None):
        '2db0859c5c1aa914bb42cabc56111a88e94acf1a714e6bd38519835a1b16bb68',
    ('sette/Bank-v0', 'catalan', 'threshold:5'):
        'cd5085b4dae99602e4afc17d12d8553f0dc50ea15903d0e430d1bea13d88bddd',
    ('sette/Bank-v0', 'catalan', 'reader'):
        '68e79195895498f1d9b8afc93aed0729e455e70f4d6a751d5ed3952b7b16060e',
    ('sette/Bank-v0', 'catalan', 'careful'):
        '68e79195895498f1d9b8afc93aed0729e455e70f4d6a751d5ed3952b7b16060e',
    ('sette/Bank-v0', 'catalan', 'random'):
        '4fc553a437a8d8cfae7bf50e3749a146c720c501e80070073dc4defba87b0739',
    ('sette/Bank-v0', 'spanish_full', None):
        '0943f369bdf9bd02e45b6684a55954cb4b9362d934918c891fd69e9fd867e44b',
    ('sette/Bank-v0', 'spanish_full', 'threshold:5'):
        '5f51d2cb8911945b878ad5746ddd903e8cf3e21a5a313ce4eea0feb210a2ca0f',
    ('sette/Bank-v0', 'spanish_full', 'reader'):
        'fadb95963e2be8803de75510d45ec71c31c957b8abf57789a105a1db524f1499',
    ('sette/Bank-v0', 'spanish_full', 'careful'):
        'fadb95963e2be8803de75510d45ec71c31c957b8abf57789a105a1db524f1499',
    ('sette/Bank-v0', 'spanish_full', 'random'):
        '924011f9a3fa2c174646a96a3d72ce72048da966296d53b48df65661b3912478',
    ('sette/Bank-v0', 'pagat_italian', None):
        '3f0986a578f0c9bef6db1b97064db9f44966a099f109c374310874f736863ed9',
    ('sette/Bank-v0', 'pagat_italian', 'threshold:5'):
        '444647c8f50fda7cf9cde49fb016bf3e0121325d75970703b6147bbf8a49a365',
    ('sette/Bank-v0', 'pagat_italian', 'reader'):
        '9304ae40623d725e0a8cb7e3e7d0d3b612de557c07c4bdafd71e87425dc834c3',
    ('sette/Bank-v0', 'pagat_italian', 'careful'):
        '9304ae40623d725e0a8cb7e3e7d0d3b612de557c07c4bdafd71e87425dc834c3',
    ('sette/Bank-v0', 'pagat_italian', 'random'):
        'f15c49b2cd31d2f8f828a8f48a2438305922d7c186f987cbda4b8f8fccf05f53',
    ('sette/Bank-v0', 'italian', None):
        '3cb7c54342f498c187a70dcd1010228210a601b50430e065953922dcbf7cbe50',
    ('sette/Bank-v0', 'italian', 'threshold:5'):
        '70b68f6a243023bd683e156f5260204eec08a1c99edbf530310c54098dca3808',
    ('sette/Bank-v0', 'italian', 'reader'):
        'e27e87ad7c3302218cc018e23f50c96d2c8c37bc1526a41a920fab031d2c3815',
    ('sette/Bank-v0', 'italian', 'careful'):
        'e27e87ad7c3302218cc018e23f50c96d2c8c37bc1526a41a920fab031d2c3815',
    ('sette/Bank-v0', 'italian', 'random'):
        'f7a1bca631e667037f083bb019852f53eaae31230bd9072270122e8f0657bd1d',
    ('sette/Seat-v0', 'catalan', None):
        '4a63e44f9c8a5a94e6bc9bcfaff9620c063fd2a359f8cad95d55ea6021c20d95',
    ('sette/Seat-v0', 'catalan', 'threshold:5'):
        '617f472430d72da65a5a80493b143d2e0197ca89f6d59f7f03c5bba3d7f2f53f',
    ('sette/Seat-v0', 'catalan', 'reader'):
        '771e86d35e266f3dedaa7d4ac3c08527397ed895e40c406234d5716a657ac17c',
    ('sette/Seat-v0', 'catalan', 'careful'):
        '771e86d35e266f3dedaa7d4ac3c08527397ed895e40c406234d5716a657ac17c',
    ('sette/Seat-v0', 'catalan', 'random'):
        '7cea1c4b0592fe1f6e3995a471daa80a54f5ff469455e19b2e2c96714b83e375',
    ('sette/Seat-v0', 'spanish_full', None):
        '9f074d2b00bdcad5e1f2f124f625091d90cf2e824cd601f9d6e61583fd6458cc',
    ('sette/Seat-v0', 'spanish_full', 'threshold:5'):
        '38104225d5b73ef00414817244cb8f666755859dc63e9f3127cd1a677d02d643',
    ('sette/Seat-v0', 'spanish_full', 'reader'):
        '46bc753bd0a593ae7b3ff65a377fa8a90dd06e829e3cff42eda5a14875c646d1',
    ('sette/Seat-v0', 'spanish_full', 'careful'):
        '46bc753bd0a593ae7b3ff65a377fa8a90dd06e829e3cff42eda5a14875c646d1',
    ('sette/Seat-v0', 'spanish_full', 'random'):
        '27d8c60b942b5c9bc7d9195fb1c8f551d0fe2b1b46664eafe743c96b1a3748fc',
    ('sette/Seat-v0', 'pagat_italian', None):
        'd19b2b75282973e9f526c59d46b9619a4b2991ff993172d997672d214e454c76',
    ('sette/Seat-v0', 'pagat_italian', 'threshold:5'):
        '21bb97e1d996f9d65cb93991bfdf53718d735e36d0065cfec902001e6d7bcefd',
    ('sette/Seat-v0', 'pagat_italian', 'reader'):
        '6820ded25928d4e13658bbad953903b1c52d2e4259f682190f131d537feeafeb',
    ('sette/Seat-v0', 'pagat_italian', 'careful'):
        '6820ded25928d4e13658bbad953903b1c52d2e4259f682190f131d537feeafeb',
    ('sette/Seat-v0', 'pagat_italian', 'random'):
        'ee0b955806dbb42fe2990fd9375e556581fec9db15d8b179b4ad6630dc609c22',
    ('sette/Seat-v0', 'italian', None):
        '041b142e5b5838f2575416edfa46291945c1ba49e7c74497d8193d03f4013057',
    ('sette/Seat-v0', 'italian', 'threshold:5'):
        '70084d3fcabfd568ce5a2b5883a4361f9c5734dbb1ae68d523d6b58246448243',
    ('sette/Seat-v0', 'italian', 'reader'):
        'd04b569a8de7265aa11c38375135159828f21391a78d3d47c2072dc98103a1b8',
    ('sette/Seat-v0', 'italian', 'careful'):
        'd04b569a8de7265aa11c38375135159828f21391a78d3d47c2072dc98103a1b8',
    ('sette/Seat-v0', 'italian', 'random'):
        '310fe5683a811cfb76503fef943585107d55367e1942e4376b77531f26602fe4',
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seats", SEATS)
def test_engine_play_is_pinned(preset, seats):
    assert engine_digest(preset, seats) == ENGINE_DIGESTS[(preset, seats)]


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("preset", VIEW_PRESETS)
@pytest.mark.parametrize("opponents", OPPONENTS)
def test_view_play_is_pinned(view, preset, opponents):
    assert view_digest(view, preset, opponents) == VIEW_DIGESTS[(view, preset, opponents)]


if __name__ == "__main__":
    print("ENGINE_DIGESTS = {")
    for preset in sorted(PRESETS):
        for seats in SEATS:
            print(f"    ({preset!r}, {seats}): {engine_digest(preset, seats)!r},")
    print("}")
    print("VIEW_DIGESTS = {")
    for view in VIEWS:
        for preset in VIEW_PRESETS:
            for opponents in OPPONENTS:
                print(f"    ({view!r}, {preset!r}, {opponents!r}):\n"
                      f"        {view_digest(view, preset, opponents)!r},")
    print("}")
