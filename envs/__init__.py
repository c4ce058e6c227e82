"""The game and its environments.

* :mod:`envs.cards` — the 40-card deck, card codes (``7o``, ``Rc``) and values;
* :mod:`envs.rules` — ``Rules``: every switch of RULES.md, presets, rules files;
* :mod:`envs.engine` — the pure-Python game engine (no RL imports), compiled
  with mypyc on install when possible (:mod:`envs._native`);
* :mod:`envs.observer` — what one seat may see, as a vector with named slices;
* :mod:`envs.sette_e_mezzo` — the PettingZoo AEC environment;
* :mod:`envs.render` — text tables and episode transcripts;
* :mod:`envs.single_seat` — single-seat Gymnasium views (player, bank, seat);
* :mod:`envs.seat_play` — their table loop and built-in dealer, compiled with
  the engine.

Importing ``envs`` registers ``"sette/sette_e_mezzo-v0"`` with PettingZoo's
registry (PettingZoo 1.27 on; with 1.26, which has none, use
``envs.sette_e_mezzo_v0.env()``)::

    import envs, pettingzoo
    env = pettingzoo.make("aec", "sette/sette_e_mezzo-v0", rules="catalan", num_seats=4)

and the single-seat views ``"sette/Player-v0"``, ``"sette/Bank-v0"`` and
``"sette/Seat-v0"`` with Gymnasium (``gymnasium.make("sette/Player-v0", ...)``).
"""

from envs import _native

COMPILED, COMPILED_WHY = _native.install()
"""Whether the engine runs compiled (mypyc) or from its Python sources, and why
(:mod:`envs._native`; ``SETTE_PURE_PYTHON=1`` forces the sources)."""

from typing import TYPE_CHECKING, Any  # noqa: E402

from envs.rules import PRESETS, Rules, RulesError  # noqa: E402  (after the choice above)

if TYPE_CHECKING:
    from envs import sette_e_mezzo as sette_e_mezzo_v0
    from envs.engine import Engine

_LAZY = {"sette_e_mezzo_v0": "envs.sette_e_mezzo", "Engine": "envs.engine"}
"""Names imported on first use, so that ``import envs`` (and ``sette rules``) loads
neither PettingZoo's env machinery nor the engine until something asks for them."""


def __getattr__(name: str) -> Any:
    """``envs.sette_e_mezzo_v0`` and ``envs.Engine``, imported when first read."""
    if name not in _LAZY:
        raise AttributeError(f"module 'envs' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(_LAZY[name])
    value = module if name == "sette_e_mezzo_v0" else getattr(module, name)
    globals()[name] = value
    return value

__all__ = ["COMPILED", "COMPILED_WHY", "Engine", "PRESETS", "Rules", "RulesError",
           "sette_e_mezzo_v0", "ENV_ID"]

ENV_ID = "sette/sette_e_mezzo-v0"

GYM_IDS = {"sette/Player-v0": "envs.single_seat:PlayerEnv",
           "sette/Bank-v0": "envs.single_seat:BankEnv",
           "sette/Seat-v0": "envs.single_seat:SeatEnv"}
"""Gymnasium ids of the single-seat views (:mod:`envs.single_seat`) and their entry points."""


def _register() -> None:
    _register_pettingzoo()
    _register_gym()


def _register_pettingzoo() -> bool:
    """Register with PettingZoo's registry where it exists (1.27 on); whether it did.

    PettingZoo 1.26 has no registry, and the environment works there all the
    same; the project supports it so that libraries pinning ``pettingzoo<1.27``
    (AgileRL) install beside it.
    """
    try:
        from pettingzoo.env_registry import registration
    except ImportError:
        return False
    if ENV_ID not in registration.aec_registry:
        registration.register("aec", ENV_ID, entry_point="envs.sette_e_mezzo:env")
    return True


def _register_gym() -> None:
    import gymnasium

    for gym_id, entry_point in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(gym_id, entry_point=entry_point)


_register()
