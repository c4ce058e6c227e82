"""One training stage: MaskablePPO (sb3-contrib, torch on the CPU) on a single-seat view.

A *stage* trains one role — the player on ``sette/Player-v0`` or the bank on
``sette/Bank-v0`` — against fixed opponents, in its own folder::

    STAGE/
      checkpoints/ckpt_<steps>_steps.zip   every run.checkpoint_every steps
      tensorboard/                          episode reward, losses, eval/*, time/*
      model.zip                             the trained model, once done
      stage.json                            steps, wall time, environment share

``train_stage`` resumes by itself: with ``model.zip`` present the stage is
done and skipped; otherwise the newest checkpoint is loaded and training goes
on for the steps that remain (a run killed mid-stage loses at most
``checkpoint_every`` steps; a Ctrl-C loses none: the stage saves a checkpoint
where it stopped, flushes TensorBoard and lets the interrupt go on). The environments are
one batch of tables (:class:`~train.batch_vec_env.BatchSeatVecEnv` on the compiled engine,
by default where it plays the rules) or scalar views, vectorised
(:class:`~train.vec_env.ViewVecEnv`, or SB3's ``DummyVecEnv`` or
``SubprocVecEnv``), wrapped in a ``VecMonitor`` for episode rewards
(:class:`~train.vec_env.EndedVecMonitor`, which visits only the tables whose
episode ended) and in :class:`EnvTimer`, which measures the share of the wall time
spent inside the environments (stepping, resetting, fetching masks).

Every model and checkpoint saved here carries its plain JSON description
(:class:`agents.learned.ModelInfo`), and loading one to resume or to start a
self-play round never unpickles it: MaskablePPO is built afresh from the
run's config, and only the weights and the optimizer's state are read, with
``torch.load(weights_only=True)`` (:func:`restore_model`; see
:mod:`agents.learned` for why, and for ``--trust-model``).
"""

from __future__ import annotations

import gc
import json
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium.spaces.utils import flatdim
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import (BaseCallback, CallbackList,
                                                ProgressBarCallback)
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecEnvWrapper

from agents.learned import (MODEL_FILE, LearnedAgent, ModelInfo, check_action_layout,
                            read_info, read_weights, refusal, trusted, write_info)
from envs.actions import ACTION_LAYOUT_VERSION, ActionLayout
from envs.batch import UnsupportedRules
from envs.information_state import INFORMATION_STATE
from envs.observer import observation_size
from envs.policy import Policy
from envs.rules import Rules
from envs.single_seat import BankEnv, PlayerEnv, fixed_bank_rules
from evaluate.ev import compare
from train.batch_vec_env import BatchSeatVecEnv
from train.config import PPOConfig, TrainConfig
from train.imitate import Imitation, copy_observation_model, imitate
from train.masked_policy import MaskedMlpPolicy
from train.rollout_buffer import IndexedRolloutBuffer
from train.vec_env import EndedVecMonitor, ViewVecEnv

VIEWS = {"player": PlayerEnv, "bank": BankEnv}
VEC_ENV_CLASSES: dict[str, Callable[[list[Callable[[], Any]]], VecEnv]] = {
    "views": ViewVecEnv, "dummy": DummyVecEnv, "subproc": SubprocVecEnv}
"""``run.vec_env`` for scalar views: stepped in one loop (:mod:`train.vec_env`), or SB3's own
(``"auto"`` on rules the compiled engine does not play: ``"views"``)."""
_CKPT = re.compile(r"ckpt_(\d+)_steps\.zip$")


def make_view(role: str, rules: Rules, num_seats: int, table_hands: int,
              opponents: Mapping[str, Any], observation_type: str = "observation"
              ) -> PlayerEnv | BankEnv:
    """The single-seat view a ``role`` trains on (a picklable factory for worker processes);
    ``observation_type``: what the learner is given (the views' keyword)."""
    return VIEWS[role](rules=rules, num_seats=num_seats, opponents=dict(opponents),
                       table_hands=table_hands, observation_type=observation_type)


class EnvTimer(VecEnvWrapper):
    """Accumulates the wall time spent in the wrapped environments."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self) -> Any:
        start = time.perf_counter()
        obs = self.venv.reset()
        self.seconds += time.perf_counter() - start
        return obs

    def step_wait(self) -> Any:
        start = time.perf_counter()
        out = self.venv.step_wait()
        self.seconds += time.perf_counter() - start
        return out

    def env_method(self, method_name: str, *args: Any, indices: Any = None,
                   **kwargs: Any) -> list[Any]:
        start = time.perf_counter()
        out = self.venv.env_method(method_name, *args, indices=indices, **kwargs)
        self.seconds += time.perf_counter() - start
        return out


def make_vec_env(role: str, config: TrainConfig, opponents: Mapping[str, Any],
                 seed: int, observation_type: str = "observation",
                 table_hands: int | None = None, one_hand_tables: float = 0.0) -> EnvTimer:
    """``run.n_envs`` tables of ``role``'s view, vectorised, monitored and timed: one batch
    of tables (``run.vec_env = "batch"``, or ``"auto"`` where the compiled engine plays the
    rules) or ``run.n_envs`` scalar views (:func:`uses_batch`), each of ``table_hands``
    hands (default: ``table.table_hands``) but for the first ``one_hand_tables`` of them,
    dealt afresh after every hand (:class:`BatchSeatVecEnv`; a view of one hand a table)."""
    table = config.table
    rules = Rules.resolve(table.rules)
    hands = table.table_hands if table_hands is None else table_hands
    venv: VecEnv
    if uses_batch(config.run.vec_env, rules):
        venv = BatchSeatVecEnv(role, rules, table.num_seats, config.run.n_envs,
                               opponents=dict(opponents), table_hands=hands,
                               observation_type=observation_type, engine="compiled",
                               one_hand_tables=one_hand_tables)
    else:
        one_hand = round(one_hand_tables * config.run.n_envs)
        fns: list[Callable[[], Any]] = [
            partial(make_view, role, rules, table.num_seats, 1 if i < one_hand else hands,
                    opponents, observation_type) for i in range(config.run.n_envs)]
        venv = VEC_ENV_CLASSES[config.run.vec_env if config.run.vec_env != "auto"
                               else "views"](fns)
    venv.seed(seed)
    return EnvTimer(EndedVecMonitor(venv))


def uses_batch(vec_env: str, rules: Rules) -> bool:
    """Whether ``run.vec_env`` trains on a batch of tables (:mod:`train.batch_vec_env`):
    ``"batch"`` always (rules the compiled engine does not play raise
    :class:`envs.batch.UnsupportedRules` naming them), ``"auto"`` where it plays the
    view's rules (:func:`envs.single_seat.fixed_bank_rules` for the player and the bank,
    which is all :func:`train_stage` trains)."""
    if vec_env == "batch":
        return True
    if vec_env != "auto":
        return False
    from envs.batch.engine import check_supported

    try:
        check_supported(fixed_bank_rules(rules))
    except UnsupportedRules:
        return False
    return True


class StageCallback(BaseCallback):
    """Checkpoints, periodic evaluation against the baselines, and time accounting."""

    model: MaskablePPO  # the model being trained (SB3 types it as any algorithm)

    def __init__(self, stage_dir: Path, role: str, config: TrainConfig,
                 baselines: Mapping[str, Policy], table_players: Policy,
                 timer: EnvTimer, observation_type: str = "observation") -> None:
        super().__init__()
        self.stage_dir = stage_dir
        self.role = role
        self.config = config
        self.observation_type = observation_type
        self.baselines = baselines
        self.table_players = table_players
        self.timer = timer
        self.started = time.perf_counter()
        self._next_checkpoint = 0
        self._next_eval = 0

    def _on_training_start(self) -> None:
        run = self.config.run
        steps = self.num_timesteps
        self._next_checkpoint = steps + run.checkpoint_every
        self._next_eval = steps + run.eval_every

    def _on_step(self) -> bool:
        steps = self.num_timesteps
        if steps >= self._next_checkpoint:
            self._next_checkpoint += self.config.run.checkpoint_every
            save_checkpoint(self.model, self.stage_dir, steps,
                            model_info(self.model, self.role, self.config,
                                       self.observation_type))
        if steps >= self._next_eval:
            self._next_eval += self.config.run.eval_every
            self.evaluate()
        return True

    def evaluate(self) -> dict[str, float]:
        """EV of the current policy against each baseline (TensorBoard ``eval/ev_vs_<spec>``)."""
        learned = LearnedAgent.from_policy(self.model.policy,
                                           observation_type=self.observation_type)
        table = self.config.table
        results = {}
        for spec, opponent in self.baselines.items():
            opponents = ({"bank": opponent, "players": self.table_players}
                         if self.role == "player" else {"players": opponent})
            comparison = compare({"learned": learned}, self.role, opponents, table.rules,
                                 table.num_seats, self.config.run.eval_hands,
                                 seed=self.config.evaluate.seed, table_hands=table.table_hands)
            results[spec] = comparison.ev["learned"].mean
            self.logger.record(f"eval/ev_vs_{spec}", results[spec])
        return results

    def _on_rollout_end(self) -> None:
        wall = time.perf_counter() - self.started
        self.logger.record("time/env_share", self.timer.seconds / max(wall, 1e-9))


def latest_checkpoint(stage_dir: Path) -> tuple[Path, int] | None:
    """The newest checkpoint of a stage and its step count, if any."""
    found = []
    for path in (stage_dir / "checkpoints").glob("ckpt_*_steps.zip"):
        match = _CKPT.search(path.name)
        if match:
            found.append((int(match.group(1)), path))
    if not found:
        return None
    steps, path = max(found)
    return path, steps


def save_checkpoint(model: MaskablePPO, stage_dir: Path, steps: int, info: ModelInfo) -> Path:
    """Save ``model`` as ``checkpoints/ckpt_<steps>_steps.zip`` (:func:`save_model`)."""
    return save_model(model, stage_dir / "checkpoints" / f"ckpt_{steps}_steps.zip", info)


def save_model(model: MaskablePPO, path: Path, info: ModelInfo) -> Path:
    """Save ``model`` with its description to ``path`` (written aside, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial_path = path.with_name(f"partial-{path.name}")
    model.save(partial_path)
    write_info(partial_path, info)
    partial_path.replace(path)
    return path


def model_info(model: MaskablePPO, role: str, config: TrainConfig,
               observation_type: str = "observation") -> ModelInfo:
    """The description of a model of ``role`` trained under ``config`` on
    ``observation_type`` (module docstring)."""
    table, ppo = config.table, config.stage_ppo(role, observation_type)
    rules = Rules.resolve(table.rules)
    return ModelInfo(role=role, rules=table.rules, num_seats=table.num_seats,
                     observation_size=flatdim(model.observation_space),
                     action_names=tuple(ActionLayout(tuple(rules.bet_ladder)).names),
                     net_arch=tuple(ppo.net_arch), vf_net_arch=tuple(ppo.vf_net_arch),
                     activation=ppo.activation,
                     timesteps=int(model.num_timesteps), n_updates=int(model._n_updates),
                     rules_values=rules.to_dict(),
                     action_layout_version=ACTION_LAYOUT_VERSION,
                     observation_type=observation_type)


class BatchMaskablePPO(MaskablePPO):
    """sb3-contrib's ``MaskablePPO`` whose episode statistics look only at the environments
    whose episode ended.

    ``MaskablePPO`` reads ``info["episode"]`` and ``info["is_success"]`` of every
    environment at every step (``_update_info_buffer``); a ``VecMonitor`` writes the
    record only when an episode ends, and SB3 counts a success only then, so reading the
    ended environments' infos gives the same buffers, in the same order, without a
    Python loop over thousands of tables. The algorithm is MaskablePPO's: a model saved
    by either class loads into the other.
    """

    def _update_info_buffer(self, infos: list[dict[str, Any]],
                            dones: np.ndarray | None = None) -> None:
        if dones is None:
            super()._update_info_buffer(infos, dones)
            return
        ended = np.flatnonzero(dones).tolist()
        super()._update_info_buffer([infos[i] for i in ended], np.ones(len(ended), dtype=bool))


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Keep the objects alive now (modules, the model, the tables) out of Python's garbage
    collections while training (``gc.freeze``; ``gc.unfreeze`` after).

    A rollout makes thousands of short-lived info dicts a step; without the freeze the
    collector's full passes walked every object of torch, numba and SB3 each time, and
    frozen objects are skipped.
    What the collector still does: objects made while training are collected as before,
    cycles included. What it does not: a cycle that was already garbage when the heap was
    frozen stays in memory until :func:`gc.unfreeze`, when the next pass frees it.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def new_model(env: VecEnv, ppo: PPOConfig, stage_dir: Path, seed: int) -> MaskablePPO:
    """A fresh MaskablePPO (:class:`BatchMaskablePPO`) with the stage's settings (``ppo``) on
    ``env``, its policy :class:`~train.masked_policy.MaskedMlpPolicy` (sb3-contrib's, with a
    cheaper mask), its minibatches gathered by
    :class:`~train.rollout_buffer.IndexedRolloutBuffer`."""
    learning_rate: float | LinearSchedule = ppo.learning_rate
    if ppo.lr_schedule == "linear":  # SB3 calls it with the stage's remaining progress, 1 -> 0
        learning_rate = LinearSchedule(ppo.learning_rate, 0.0, 1.0)
    return BatchMaskablePPO(
        MaskedMlpPolicy, env, learning_rate=learning_rate, n_steps=ppo.n_steps,
        batch_size=ppo.batch_size, n_epochs=ppo.n_epochs, gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda, clip_range=ppo.clip_range, ent_coef=ppo.ent_coef,
        vf_coef=ppo.vf_coef, max_grad_norm=ppo.max_grad_norm,
        policy_kwargs=_policy_kwargs(ppo), tensorboard_log=str(stage_dir / "tensorboard"),
        rollout_buffer_class=IndexedRolloutBuffer, seed=seed, device="cpu", verbose=0)


def restore_model(path: Path, env: VecEnv, role: str, config: TrainConfig, stage_dir: Path,
                  seed: int, observation_type: str = "observation",
                  ppo: PPOConfig | None = None) -> MaskablePPO:
    """A saved model ready to train on, rebuilt without unpickling (module docstring).

    The network, the optimizer's state and the step count come from the file;
    every setting from the run's config (``ppo``: the PPO settings to train on, by
    default the stage's), which must describe the same network
    and table, on this sette's action layout
    (:func:`agents.learned.check_action_layout`). A file without a
    description loads the old way (unpickling it) only when the user trusts
    it (:func:`agents.learned.trusted`).
    """
    info = read_info(path)
    if info is None:
        if not trusted():
            raise ValueError(refusal(path))
        return MaskablePPO.load(path, env=env, device="cpu")
    check_action_layout(info, repr(str(path)))
    model = new_model(env, ppo or config.stage_ppo(role, observation_type), stage_dir, seed)
    expected = model_info(model, role, config, observation_type)
    for key in ("role", "num_seats", "observation_type", "observation_size", "action_names",
                "net_arch", "vf_net_arch", "activation"):
        if getattr(info, key) != getattr(expected, key):
            raise ValueError(f"{str(path)!r} was saved with {key} = {getattr(info, key)!r} "
                             f"but this run's config gives {getattr(expected, key)!r}; it "
                             f"cannot continue this stage")
    model.set_parameters(read_weights(path, ("policy", "policy.optimizer")), exact_match=True,
                         device="cpu")
    model.num_timesteps = info.timesteps
    model._n_updates = info.n_updates
    return model


def _policy_kwargs(ppo: PPOConfig) -> dict[str, Any]:
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[ppo.activation]
    return {"net_arch": {"pi": list(ppo.net_arch), "vf": list(ppo.vf_net_arch)},
            "activation_fn": activation}


def train_stage(stage_dir: Path, role: str, config: TrainConfig,
                opponents: Mapping[str, Any], timesteps: int, seed: int,
                baselines: Mapping[str, Policy], table_players: Policy,
                init_from: Path | None = None, log: Callable[[str], None] = print,
                observation_type: str = "observation", table_hands: int | None = None,
                torch_threads: int | None = None, one_hand_tables: float = 0.0,
                imitation: Imitation | None = None, copy_from: Path | None = None,
                selfplay: bool = False) -> Path:
    """Train (or finish training) one stage and return its ``model.zip`` (module doc).

    ``opponents``: the view's opponents (``{"bank": ..., "players": ...}``);
    ``baselines``: spec -> policy of the other role, evaluated against
    periodically; ``init_from``: a model to start from instead of fresh
    weights (self-play rounds continue the previous round's network);
    ``observation_type``: what the learner is given (the views' keyword), recorded
    in the model's description; ``table_hands``: hands per training table (default
    ``table.table_hands``; the evaluations always play the table's); ``one_hand_tables``:
    the share of training tables dealt afresh after every hand (:func:`make_vec_env`);
    ``torch_threads``: torch's threads (default ``run.torch_threads``); ``imitation``: a
    baseline a fresh stage first learns to play (:mod:`train.imitate`; not a resumed stage
    nor one started ``init_from``); ``copy_from``: the stage's model on observations whose
    weights a fresh information-state network starts from
    (:func:`train.imitate.copy_observation_model`); ``selfplay``: a self-play round, which
    trains on the stage's ``selfplay_ppo`` over its PPO settings.
    """
    stage_dir.mkdir(parents=True, exist_ok=True)
    model_file = stage_dir / MODEL_FILE
    if model_file.is_file():
        log(f"  {stage_dir.name}: done already ({model_file})")
        return model_file
    threads = torch_threads or config.run.torch_threads
    torch.set_num_threads(threads)
    env = make_vec_env(role, config, opponents, seed, observation_type, table_hands,
                       one_hand_tables)
    ppo = config.stage_ppo(role, observation_type, selfplay)
    checkpoint = latest_checkpoint(stage_dir)
    if checkpoint is not None:
        path, done_steps = checkpoint
        log(f"  {stage_dir.name}: resuming from {path.name} ({done_steps} steps done)")
        model = restore_model(path, env, role, config, stage_dir, seed, observation_type,
                              ppo)
    elif init_from is not None:
        done_steps = 0
        log(f"  {stage_dir.name}: starting from {init_from}")
        model = restore_model(init_from, env, role, config, stage_dir, seed, observation_type,
                              ppo)
        model.tensorboard_log = str(stage_dir / "tensorboard")
        model.set_random_seed(seed)
    else:
        done_steps = 0
        model = new_model(env, ppo, stage_dir, seed)
        if copy_from is not None:
            copy_observation_model(model, copy_from, observation_size(config.table.num_seats))
            log(f"  {stage_dir.name}: starting from the weights of {copy_from}")
    if isinstance(model.policy, MaskedMlpPolicy):  # an information state's first layers
        model.policy.gather_active_inputs = observation_type == INFORMATION_STATE
    remaining = max(timesteps - done_steps, 0)
    callback = StageCallback(stage_dir, role, config, baselines, table_players, env,
                             observation_type)
    bar = ProgressBarCallback() if config.run.progress_bar else None
    imitated: dict[str, float] = {}
    try:
        if imitation is not None and checkpoint is None and init_from is None:
            imitated = _imitate(model, env, imitation, seed, stage_dir.name, log,
                                observation_type, config.table.num_seats)
        started = time.perf_counter()
        with frozen_heap():
            model.learn(total_timesteps=remaining,
                        callback=CallbackList([callback] + ([bar] if bar is not None else [])),
                        reset_num_timesteps=checkpoint is None, tb_log_name=role)
        wall = time.perf_counter() - started
        final_eval = callback.evaluate()
    except KeyboardInterrupt:
        _stop(model, stage_dir, role, config, env, done_steps, bar, observation_type)
        raise
    model.logger.dump(model.num_timesteps)
    save_model(model, model_file, model_info(model, role, config, observation_type))
    env.close()
    share = env.seconds / max(wall, 1e-9)
    ran = int(model.num_timesteps) - done_steps
    record = {"role": role, "timesteps": int(model.num_timesteps),
              "table_hands": table_hands or config.table.table_hands,
              "one_hand_tables": one_hand_tables, "torch_threads": threads,
              "wall_s": round(wall, 1),
              "env_seconds": round(env.seconds, 1), "env_share": round(share, 3),
              "steps_this_start": ran, "steps_per_s": round(ran / max(wall, 1e-9), 1),
              "eval": final_eval}
    if imitated:
        record["imitation"] = imitated
    if copy_from is not None:
        record["copied_from"] = str(copy_from)
    (stage_dir / "stage.json").write_text(json.dumps(record, indent=2) + "\n")
    resumed = f" ({ran} since this start)" if done_steps else ""
    log(f"  {stage_dir.name}: {model.num_timesteps} steps{resumed} in {wall:.0f}s "
        f"({record['steps_per_s']:.0f} steps/s, {share:.0%} of it in the environment); "
        + ", ".join(f"EV vs {k} {v:+.3f}" for k, v in final_eval.items()))
    return model_file


def _imitate(model: MaskablePPO, env: EnvTimer, imitation: Imitation, seed: int, name: str,
             log: Callable[[str], None], observation_type: str, num_seats: int
             ) -> dict[str, float]:
    """The warm start of :mod:`train.imitate`, timed and logged; its figures. A model of
    the information state imitates a baseline shown the observation part of it."""
    started = time.perf_counter()
    shown = observation_size(num_seats) if observation_type == INFORMATION_STATE else None
    figures = imitate(model, env, imitation.baseline(), imitation.decisions,
                      imitation.epochs, seed=seed, shown=shown)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    env.seconds = 0.0  # the environment's share is of the PPO steps' time
    log(f"  {name}: imitated {imitation.spec} over {int(figures['decisions'])} "
        f"decisions in {figures['seconds']}s (its choice the policy's likeliest on "
        f"{figures['agreement']:.1%} of them)")
    return figures


def _stop(model: MaskablePPO, stage_dir: Path, role: str, config: TrainConfig,
          env: VecEnv, done_steps: int, bar: ProgressBarCallback | None,
          observation_type: str = "observation") -> None:
    """After a Ctrl-C: close the progress bar, keep the steps run as a checkpoint,
    flush TensorBoard, close the envs."""
    if bar is not None and hasattr(bar, "pbar"):  # the bar exists once training started
        bar.pbar.close()
    if model.num_timesteps > done_steps:
        save_checkpoint(model, stage_dir, model.num_timesteps,
                        model_info(model, role, config, observation_type))
    try:
        logger = model.logger  # made by learn(); absent if stopped before it began
    except AttributeError:
        logger = None
    if logger is not None:
        logger.dump(model.num_timesteps)
        logger.close()
    env.close()


def seeds_for(seed: int, count: int) -> Sequence[int]:
    """Independent seeds for the stages of a run, the same for the same ``seed``."""
    return [int(s) for s in np.random.SeedSequence(seed).generate_state(count, dtype=np.uint32)]
