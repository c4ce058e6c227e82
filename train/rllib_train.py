"""``sette train --backend rllib``: the player and the bank trained together on Ray RLlib.

RLlib's PPO on its new API stack steps :class:`train.rllib_env.SetteTablesEnv`
— the whole game, many tables per env — with two policies trained at the
same time: ``player``, shared by every player seat, and ``bank``, played by
whichever seat holds the bank (the mapping follows the bank as it rotates,
RULES.md §5; see :mod:`train.rllib_env`). Both use RLlib's action-masking
module (:mod:`train.rllib_module`).

Where it runs: a local Ray instance by default (``--cpus`` of this machine),
or the cluster at ``--address`` (or ``RAY_ADDRESS``; start one with ``ray
start --head`` and join machines with ``ray start --address=HEAD:6379``).
``--env-runners`` sampling processes each step ``--envs-per-runner`` envs of
``--tables`` tables; ``0`` env runners samples in this process.

The run directory has the SB3 path's layout (:mod:`train.pipeline`)::

    RUN/
      run.json                   backend, settings, seed, versions, every start, iterations
      player/  bank/             each policy, exported after every checkpoint:
        policy.pth, sette-model.json     plain weights + description (agents.rllib_policy)
        checkpoints/iter_<n>/            the same at iteration n
        tensorboard/                     its losses, entropy, KL and returns per iteration
      rllib/checkpoint/          RLlib's algorithm checkpoint (for --resume only)

``--resume RUN`` rebuilds the algorithm from ``run.json``'s settings,
restores ``rllib/checkpoint`` (weights, optimizer, iteration count) and
trains on to the run's budget. The policies are played with the spec
``rllib:RUN/player``, ``rllib:RUN/bank`` or ``rllib:RUN`` (both), without ray.

Seeds: ``--seed`` seeds RLlib (``debugging(seed=)``: torch, numpy and each
env runner's first reset, offset by the runner's index), and each env draws
its tables' seeds from it (:mod:`train.rllib_env`); with one env runner the
same seed gives the same first iteration.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

RUN_FILE = "run.json"
BACKEND = "rllib"
CHECKPOINT = Path("rllib") / "checkpoint"
"""RLlib's algorithm checkpoint inside a run (pickled: only ``--resume`` reads it)."""
PACKAGES = ("sette-e-mezzo", "ray", "torch", "gymnasium", "numpy")


@dataclass
class RLlibSettings:
    """Everything that defines an RLlib run (kept in ``run.json`` for ``--resume``)."""

    rules: str = "catalan"
    num_seats: int = 4
    seed: int = 0
    observation_type: str = "observation"
    iterations: int = 10
    timesteps: int | None = None
    """Stop once this many env steps were sampled (instead of ``iterations``), if set."""
    env_runners: int = 2
    envs_per_runner: int = 1
    tables: int = 16
    table_hands: int = 10
    engine: str = "auto"
    hiddens: tuple[int, ...] = (64, 64)
    activation: str = "tanh"
    lr: float = 3e-4
    gamma: float = 1.0
    train_batch: int = 2000
    minibatch: int = 250
    epochs: int = 4
    entropy_coeff: float = 0.01
    checkpoint_every: int = 5

    def check(self) -> None:
        """Name the first bad setting with its valid choices (before ray starts)."""
        from envs.information_state import check_observation_type
        from envs.rules import Rules

        rules = Rules.resolve(self.rules)
        check_observation_type(self.observation_type)
        try:  # the seats the rules' shoe serves, as every table checks them (RULES.md §2)
            rules.check_seats(self.num_seats)
        except ValueError as exc:
            raise ValueError(f"--seats {self.num_seats} with rules {self.rules!r}: {exc}"
                             ) from None
        for name in ("iterations", "tables", "table_hands", "envs_per_runner", "train_batch",
                     "minibatch", "epochs", "checkpoint_every"):
            if getattr(self, name) < 1:  # an option by its flag; a setting of run.json by name
                where = (f"--{name.replace('_', '-')} {getattr(self, name)}"
                         if name in RLLIB_OPTIONS else f"{name}={getattr(self, name)}")
                raise ValueError(f"{where}: must be at least 1")
        if self.env_runners < 0:
            raise ValueError(f"--env-runners {self.env_runners}: must be 0 (sample here) or "
                             f"more")
        if self.timesteps is not None and self.timesteps < 1:
            raise ValueError(f"--timesteps {self.timesteps}: must be at least 1")
        if self.minibatch > self.train_batch:
            raise ValueError(f"minibatch {self.minibatch} is larger than the train batch "
                             f"{self.train_batch}")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RLlibSettings":
        data = dict(data)
        data["hiddens"] = tuple(data.get("hiddens", RLlibSettings().hiddens))
        return cls(**data)


# ------------------------------------------------------------------ the algorithm
def env_config(s: RLlibSettings) -> dict[str, Any]:
    """RLlib's ``env_config`` of a run (:class:`train.rllib_env.SetteTablesEnv`)."""
    return {"rules": s.rules, "num_seats": s.num_seats, "num_tables": s.tables,
            "table_hands": s.table_hands, "observation_type": s.observation_type,
            "engine": s.engine, "seed": s.seed}


def check_env(s: RLlibSettings) -> None:
    """Play the run's env with legal random actions here, before any env runner starts.

    RLlib's own pre-check is off (it plays unmasked actions, :mod:`train.rllib_env`);
    this one also compiles the batch engine's kernels into numba's on-disk cache once,
    so that the env runners load them instead of each compiling them while RLlib waits
    for their first samples.
    """
    from train.rllib_env import SetteTablesEnv, check_legal_play

    check_legal_play(SetteTablesEnv(env_config(s)), seed=s.seed, steps=20)


def algorithm_config(s: RLlibSettings, callbacks: type | None = None) -> Any:
    """The PPO config of a run: the env, both policies, their modules and PPO's settings."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from train.rllib_env import ROLES, SetteTablesEnv, policy_for, spaces
    from train.rllib_module import module_spec

    observation, action = spaces(s.rules, s.num_seats, s.observation_type)
    config = (
        PPOConfig()
        # RLlib's pre-check plays unmasked random actions; train.rllib_env checks legal play.
        # Discrete actions: nothing to unsquash or clip (those connectors want per-id spaces).
        .environment(SetteTablesEnv, env_config=env_config(s), disable_env_checking=True,
                     normalize_actions=False, clip_actions=False)
        .env_runners(num_env_runners=s.env_runners, num_envs_per_env_runner=s.envs_per_runner,
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto",
                     # RLlib converts every finished episode of a sample() again at each
                     # step when this is on: quadratic in the many short episodes here.
                     episodes_to_numpy=False)
        .multi_agent(policies=set(ROLES), policy_mapping_fn=policy_for,
                     policies_to_train=list(ROLES))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            role: module_spec(observation, action, s.hiddens, s.activation) for role in ROLES}))
        .training(lr=s.lr, gamma=s.gamma, train_batch_size_per_learner=s.train_batch,
                  minibatch_size=s.minibatch, num_epochs=s.epochs,
                  entropy_coeff=s.entropy_coeff)
        .learners(num_learners=0)
        .debugging(seed=s.seed)
    )
    if callbacks is not None:
        config = config.callbacks(callbacks)
    return config


def sample_sources() -> type:
    """RLlib callbacks that count the env steps each sampling process gave.

    Each env runner adds its steps under ``runner_<index>_pid_<pid>`` to its
    metrics, which RLlib sums into the iteration's ``env_runners`` results:
    the proof that samples came from more than one runner and process.
    """
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class SampleSources(RLlibCallback):  # type: ignore[misc]
        def on_sample_end(self, *, env_runner: Any = None, metrics_logger: Any = None,
                          samples: Any = None, **kwargs: Any) -> None:
            steps = sum(len(e) for e in samples or [])
            key = f"runner_{env_runner.worker_index}_pid_{os.getpid()}"
            metrics_logger.log_value(key, steps, reduce="sum", clear_on_reduce=True)

    return SampleSources


# ------------------------------------------------------------------ the run
class RLlibRun:
    """One run directory trained on RLlib (module docstring)."""

    def __init__(self, run_dir: Path, settings: RLlibSettings, record: dict[str, Any]) -> None:
        self.dir = run_dir
        self.settings = settings
        self.record = record

    @classmethod
    def create(cls, settings: RLlibSettings, run_dir: Path | None = None,
               base: Path = Path("runs")) -> "RLlibRun":
        """A new run directory with its record; refuses one that already holds a run, or
        the policies or checkpoint of one (:func:`train.config.check_new_run_dir`)."""
        settings.check()
        if run_dir is None:
            stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
            run_dir = base / (f"{stamp}-rllib-{Path(settings.rules).stem}-"
                              f"{settings.num_seats}seats-seed{settings.seed}")
        from evaluate.report import package_versions
        from train.config import check_new_run_dir

        check_new_run_dir(run_dir, RUN_FILE, ("player", "bank", CHECKPOINT.parts[0]))
        run_dir.mkdir(parents=True, exist_ok=True)
        record = {"command": "all", "backend": BACKEND, "seed": settings.seed,
                  "settings": asdict(settings), "iterations_done": 0, "env_steps": 0,
                  "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                  "argv": sys.argv, "versions": package_versions(PACKAGES), "starts": [],
                  "models": {}}
        run = cls(run_dir, settings, record)
        run._write_record()
        return run

    @classmethod
    def open(cls, run_dir: Path) -> "RLlibRun":
        """An existing RLlib run (for ``--resume``), or a ``ValueError`` saying why not."""
        file = run_dir / RUN_FILE
        if not file.is_file():
            raise ValueError(f"{str(run_dir)!r} is not a training run: it has no {RUN_FILE}")
        record = json.loads(file.read_text(encoding="utf-8"))
        if record.get("backend") != BACKEND:
            raise ValueError(f"{str(run_dir)!r} was trained with the "
                             f"{record.get('backend', 'sb3')} backend; resume it without "
                             f"--backend rllib")
        return cls(run_dir, RLlibSettings.from_json(record["settings"]), record)

    def done(self, iteration: int, env_steps: int) -> bool:
        s = self.settings
        return env_steps >= s.timesteps if s.timesteps is not None else iteration >= s.iterations

    def train(self, address: str | None = None, cpus: int | None = None,
              on_result: Any = None) -> dict[str, Any]:
        """Train to the run's budget from where it stopped; returns the last iteration's
        results. ``on_result(result)`` is called after every iteration (tests, benchmarks)."""
        import ray

        s = self.settings
        started = time.perf_counter()
        start: dict[str, Any] = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 "address": address or os.environ.get("RAY_ADDRESS") or "local",
                 "iterations": 0, "env_steps": 0, "wall_s": None}
        self.record["starts"].append(start)
        owns = not ray.is_initialized()
        if owns:
            target = address or os.environ.get("RAY_ADDRESS") or None
            ray.init(address=target, num_cpus=None if target else cpus,
                     include_dashboard=False, log_to_driver=False)
        check_env(s)
        algo = algorithm_config(s, sample_sources()).build_algo()
        result: dict[str, Any] = {}
        writers: dict[str, Any] = {}
        try:
            iteration = self.record["iterations_done"]
            checkpoint = self.dir / CHECKPOINT
            if checkpoint.is_dir():
                algo.restore_from_path(str(checkpoint.resolve()))
            iteration, steps = self.record["iterations_done"], self.record["env_steps"]
            writers = self._writers()
            while not self.done(iteration, steps):
                result = algo.train()
                iteration += 1
                steps = int(_get(result, "env_runners", "num_env_steps_sampled_lifetime",
                                 default=steps))
                self._log(writers, result, iteration)
                start["iterations"] += 1
                start["env_steps"] = steps
                if iteration % s.checkpoint_every == 0 or self.done(iteration, steps):
                    self._save(algo, iteration, steps)
                if on_result is not None:
                    on_result(result)
        except KeyboardInterrupt:  # train/train_cli.py prints this and exits 130
            raise KeyboardInterrupt(
                f"stopped at iteration {iteration} (saved: iteration "
                f"{self.record['iterations_done']}); continue with: sette train --resume "
                f"{self.dir}") from None
        finally:
            for writer in writers.values():
                writer.close()
            start["wall_s"] = round(time.perf_counter() - started, 1)
            self._write_record()
            algo.stop()
            if owns:
                ray.shutdown()
        return result

    def _save(self, algo: Any, iteration: int, steps: int) -> None:
        """RLlib's checkpoint, then each policy exported (plain weights) now and as iter_n."""
        from agents.rllib_policy import ROLES, write_export

        algo.save_to_path(str((self.dir / CHECKPOINT).resolve()))
        for role in ROLES:
            state, hiddens, activation = algo.get_module(role).actor_state()
            info = self._info(role, hiddens, activation, steps, iteration)
            write_export(self.dir / role / "checkpoints" / f"iter_{iteration}", state, info)
            write_export(self.dir / role, state, info)
            self.record["models"][role] = role
        self.record.update(iterations_done=iteration, env_steps=steps)
        self._write_record()

    def _info(self, role: str, hiddens: tuple[int, ...], activation: str, steps: int,
              iteration: int) -> Any:
        from agents.learned import ModelInfo
        from envs.actions import ACTION_LAYOUT_VERSION, ActionLayout
        from envs.rules import Rules
        from train.rllib_env import spaces

        s = self.settings
        rules = Rules.resolve(s.rules)
        observation, _ = spaces(rules, s.num_seats, s.observation_type)
        return ModelInfo(role=role, rules=s.rules, num_seats=s.num_seats,
                         observation_size=int(observation["observations"].shape[0]),  # type: ignore[index]
                         action_names=tuple(ActionLayout(tuple(rules.bet_ladder)).names),
                         net_arch=hiddens, activation=activation, timesteps=steps,
                         n_updates=iteration, rules_values=rules.to_dict(),
                         action_layout_version=ACTION_LAYOUT_VERSION,
                         observation_type=s.observation_type)

    def _writers(self) -> dict[str, Any]:
        from tensorboardX import SummaryWriter

        from agents.rllib_policy import ROLES

        return {role: SummaryWriter(str(self.dir / role / "tensorboard")) for role in ROLES}

    def _log(self, writers: dict[str, Any], result: dict[str, Any], iteration: int) -> None:
        """Each policy's PPO statistics and returns, by iteration, in its TensorBoard log."""
        steps = _get(result, "env_runners", "num_env_steps_sampled_lifetime", default=0)
        for role, writer in writers.items():
            learner = _get(result, "learners", role, default={}) or {}
            for key in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "total_loss"):
                if key in learner:
                    writer.add_scalar(f"train/{key}", float(learner[key]), iteration)
            returns = _get(result, "env_runners", "module_episode_returns_mean", role)
            if returns is not None:
                writer.add_scalar("rollout/return_mean", float(returns), iteration)
            writer.add_scalar("time/env_steps", float(steps), iteration)
            writer.flush()
        throughput = _get(result, "env_runners", "num_env_steps_sampled", default=0)
        print(f"iteration {iteration}: {steps} env steps (+{throughput}), "
              + ", ".join(f"{role} policy_loss "
                          f"{_get(result, 'learners', role, 'policy_loss', default=float('nan')):.4f}"
                          for role in writers), flush=True)

    def _write_record(self) -> None:
        partial = self.dir / f"partial-{RUN_FILE}"
        partial.write_text(json.dumps(self.record, indent=2) + "\n", encoding="utf-8")
        partial.replace(self.dir / RUN_FILE)


def _get(data: Any, *keys: str, default: Any = None) -> Any:
    """``data[k1][k2]...``, or ``default`` where a key is missing (RLlib's result dicts)."""
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return default
        data = data[key]
    return data


# ------------------------------------------------------------------ the command line
RLLIB_OPTIONS = ("address", "env_runners", "envs_per_runner", "cpus", "observation_type",
                 "iterations", "timesteps", "tables")
"""``sette train`` options that only the RLlib backend takes."""


def run_from_args(args: Any) -> int:
    """``sette train --backend rllib`` (:mod:`train.train_cli` parses the options)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ValueError("--backend rllib needs Ray RLlib: pip install -e '.[rllib]' (in its "
                         "own virtualenv: ray 2.60 pins gymnasium 1.2.2; make test-rllib "
                         "builds .venv-rllib)") from None
    if args.resume is not None:
        given = [f"--{name.replace('_', '-')}" for name in
                 ("config", "rules", "seats", "seed", "run_dir", "env_runners",
                  "envs_per_runner", "observation_type", "iterations", "timesteps", "tables")
                 if getattr(args, name, None) is not None] + (["--set"] if args.overrides
                                                              else [])
        if given:
            raise ValueError("--resume continues a run exactly as it was started; drop "
                             + ", ".join(given))
        run = RLlibRun.open(args.resume)
        print(f"resuming {args.resume} at iteration {run.record['iterations_done']}",
              flush=True)
    else:
        if args.config is not None or args.overrides or args.what != "all":
            raise ValueError("--backend rllib trains the player and the bank together and "
                             "takes its settings as options (--iterations, --timesteps, "
                             "--tables, ...), not 'player'/'bank', --config or --set")
        settings = RLlibSettings()
        for flag, name in (("rules", "rules"), ("seats", "num_seats"), ("seed", "seed"),
                           ("observation_type", "observation_type"),
                           ("iterations", "iterations"), ("timesteps", "timesteps"),
                           ("env_runners", "env_runners"),
                           ("envs_per_runner", "envs_per_runner"), ("tables", "tables")):
            value = getattr(args, flag, None)
            if value is not None:
                setattr(settings, name, value)
        run = RLlibRun.create(settings, args.run_dir)
        print(f"run directory: {run.dir}", flush=True)
    run.train(address=args.address, cpus=args.cpus)
    print(f"trained {run.record['iterations_done']} iterations, {run.record['env_steps']} env "
          f"steps; play them with rllib:{run.dir}/player, rllib:{run.dir}/bank or "
          f"rllib:{run.dir}", flush=True)
    return 0
