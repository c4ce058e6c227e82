"""Training on Ray RLlib: it distributes, both policies learn, runs resume, policies evaluate.

* On a local Ray cluster of two nodes on loopback (``ray.cluster_utils.Cluster``:
  a head and one joined node, each its own processes, one CPU each), two env
  runners sample — one on each node — and both the player's and the bank's
  losses and weights move.
* A tiny local run stopped after its first iteration resumes from its
  checkpoint (the iteration count goes on), and the same seed gives the same
  first iteration; its exported policies play ``sette evaluate`` against the
  baselines through the normal spec path.

Iterations are tiny (a few hundred env steps) to fit CI on two cores; the
scalar engine plays (no compilation in each worker process).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _settings(**overrides: Any) -> Any:
    from train.rllib_train import RLlibSettings

    base = dict(rules="catalan", num_seats=3, seed=11, engine="reference", tables=4,
                table_hands=4, train_batch=200, minibatch=100, epochs=2, hiddens=(16,),
                iterations=2, checkpoint_every=1, env_runners=0)
    return RLlibSettings(**{**base, **overrides})


def _weights(folder: Path) -> dict[str, Any]:
    import torch

    return torch.load(folder / "policy.pth", weights_only=True)


def _differ(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return any(not bool((a[k] == b[k]).all()) for k in a)


def test_two_nodes_two_runners_both_policies_learn(tmp_path: Path) -> None:
    from ray.cluster_utils import Cluster

    from train.rllib_train import RLlibRun

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        run = RLlibRun.create(_settings(env_runners=2), tmp_path / "run")
        results: list[dict[str, Any]] = []
        run.train(address=cluster.address, on_result=results.append)
    finally:
        cluster.shutdown()
    assert len(results) == 2 and run.record["iterations_done"] == 2
    sources = {key: steps for key, steps in results[-1]["env_runners"].items()
               if key.startswith("runner_")}
    runners = {key.split("_")[1] for key, steps in sources.items() if steps > 0}
    pids = {key.split("_")[3] for key, steps in sources.items() if steps > 0}
    assert len(runners) >= 2 and len(pids) >= 2, sources
    for role in ("player", "bank"):
        losses = [r["learners"][role]["total_loss"] for r in results]
        assert losses[0] != losses[1], (role, losses)
        steps = [r["learners"][role]["num_module_steps_trained"] for r in results]
        assert all(s > 0 for s in steps), (role, steps)
        first, last = (_weights(run.dir / role / "checkpoints" / f"iter_{k}") for k in (1, 2))
        assert _differ(first, last), role


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray for the runs below (each run leaves it running)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


class _Stop(Exception):
    pass


def test_a_stopped_run_resumes_and_its_policies_evaluate(tmp_path: Path, local_ray: None,
                                                         capsys: pytest.CaptureFixture
                                                         ) -> None:
    from train.cli import main
    from train.rllib_train import RLlibRun

    run = RLlibRun.create(_settings(), tmp_path / "run")

    def stop(result: dict[str, Any]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt, match="continue with: sette train --resume"):
        run.train(on_result=stop)
    assert run.record["iterations_done"] == 1
    saved = _weights(run.dir / "player")
    resumed = RLlibRun.open(run.dir)
    results: list[dict[str, Any]] = []
    resumed.train(on_result=results.append)
    assert len(results) == 1 and results[0]["training_iteration"] == 2
    assert resumed.record["iterations_done"] == 2 and len(resumed.record["starts"]) == 2
    assert _differ(saved, _weights(run.dir / "player"))
    # The same seed, a new run: the same first iteration (the export at iteration 1).
    again = RLlibRun.create(_settings(iterations=1), tmp_path / "again")
    again.train()
    for role in ("player", "bank"):
        assert not _differ(_weights(run.dir / role / "checkpoints" / "iter_1"),
                           _weights(again.dir / role / "checkpoints" / "iter_1")), role
    capsys.readouterr()
    assert main(["evaluate", f"rllib:{run.dir}/player", f"rllib:{run.dir}", "threshold:5",
                 "--rules", "catalan", "--seats", "3", "--hands", "60", "--no-progress"]) == 0
    assert "rllib" in capsys.readouterr().out
