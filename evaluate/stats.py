"""Statistics for evaluation: aggregates over training seeds, with bootstrap intervals.

Per-hand EVs and their confidence intervals come from :mod:`evaluate.ev`
(``ratio_estimate``, ``paired_difference``: tables are the independent units).
This module adds what several *training seeds* of one method need, following
Agarwal et al., "Deep RL at the Edge of the Statistical Precipice" (NeurIPS
2021), computed by their library ``rliable``:

* :func:`iqm` — the interquartile mean: the mean of the middle 50 % of all
  scores (runs x tasks), robust to one lucky or broken seed yet less noisy
  than the median (``rliable.metrics.aggregate_iqm``);
* :func:`probability_of_improvement` — ``P(X > Y)`` for a random run of
  method X against a random run of Y, ties counting one half, averaged over
  tasks (``rliable.metrics.probability_of_improvement``: the Mann-Whitney U
  statistic over ``n_x * n_y``);
* :func:`stratified_bootstrap` — percentile intervals from resampling the runs
  *within each task* (``rliable.library.StratifiedBootstrap`` for one sample,
  ``StratifiedIndependentBootstrap`` for several, each resampled on its own).

Seeding: rliable 1.2 draws the resampled run indices from numpy's *global*
stream (``np.random.choice`` in ``update_indices``), not from the
``random_state`` it hands to ``arch`` (which arch 7 deprecates with a
``FutureWarning``). So no ``random_state`` is passed; the global stream is set
from ``seed`` for the call and restored afterwards: the same ``seed`` gives
the same intervals, and callers' own use of ``np.random`` is left as it was
(not safe against *threads* drawing from ``np.random`` meanwhile; the
tournament's workers are processes).

rliable imports pandas, seaborn and arch (seconds), so it is imported on
first use, never by ``import evaluate``. Pins (``pyproject.toml``, extra
``train``): ``rliable>=1.2`` needs ``arch<8``, and arch 7.2 fails to import
next to pandas 3, hence ``pandas<3``.

Scores are arrays of shape ``(runs, tasks)``: one row per training seed, one
column per task (here: a role, player or bank, in chips per hand).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

import numpy as np

DEFAULT_REPS = 10_000
"""Bootstrap resamples. rliable's default is 50,000; 10,000 moves a 95 % bound
by < 1 % of its width. A probability of improvement costs one
``scipy.stats.mannwhitneyu`` per resample and task, so the tournament asks
for fewer (docs/PERFORMANCE.md has the timings)."""


def _rliable() -> tuple[ModuleType, ModuleType]:
    """``(rliable.library, rliable.metrics)``, imported on first use (they are slow to import)."""
    from rliable import library, metrics

    return library, metrics


@contextmanager
def _global_stream(seed: int) -> Iterator[None]:
    """numpy's global stream seeded from ``seed`` inside the block, as it was after it."""
    saved = np.random.get_state()
    np.random.set_state(np.random.RandomState(np.random.MT19937(seed)).get_state())
    try:
        yield
    finally:
        np.random.set_state(saved)


@dataclass(frozen=True)
class Interval:
    """A point estimate with a confidence interval ``[low, high]``."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:+.4f} [{self.low:+.4f}, {self.high:+.4f}]"

    def to_list(self) -> list[float]:
        """``[value, low, high]`` (for JSON)."""
        return [self.value, self.low, self.high]


def as_scores(scores: object, name: str = "scores") -> np.ndarray:
    """``scores`` as a float array of shape ``(runs, tasks)``; a 1-d array is one task."""
    array = np.asarray(scores, dtype=np.float64)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise ValueError(f"{name} must be a non-empty (runs, tasks) array, got shape "
                         f"{array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds a value that is not finite: {array.tolist()}")
    return array


def iqm(scores: object) -> float:
    """Interquartile mean of all entries: drop the lowest and highest quarter, average the rest.

    ``rliable.metrics.aggregate_iqm``, i.e. ``scipy.stats.trim_mean(scores,
    0.25, axis=None)``: with ``n`` entries, ``int(n / 4)`` are cut at each end.
    """
    _library, metrics = _rliable()
    return float(metrics.aggregate_iqm(as_scores(scores)))


def probability_of_improvement(x: object, y: object) -> float:
    """``P(X > Y) + P(X = Y) / 2`` for one run of each, averaged over the tasks.

    ``x`` and ``y`` are ``(runs, tasks)`` scores of two methods (the run counts
    may differ, the tasks must match); ``rliable.metrics.probability_of_improvement``.
    """
    sx, sy = as_scores(x, "x"), as_scores(y, "y")
    if sx.shape[1] != sy.shape[1]:
        raise ValueError(f"x has {sx.shape[1]} tasks but y has {sy.shape[1]}")
    _library, metrics = _rliable()
    return float(metrics.probability_of_improvement(sx, sy))


def stratified_bootstrap(statistic: Callable[..., float], *samples: object,
                         reps: int = DEFAULT_REPS, confidence: float = 0.95,
                         seed: int = 0) -> Interval:
    """Percentile interval of ``statistic(*samples)`` by rliable's stratified bootstrap.

    Each sample (``(runs, tasks)``) is resampled on its own, the runs of every
    task drawn with replacement independently of the other tasks — the
    experiment repeated with new seeds on the same tasks. Deterministic for a
    given ``seed`` (a non-negative integer).
    """
    if not samples:
        raise ValueError("stratified_bootstrap needs at least one sample")
    if isinstance(reps, bool) or not isinstance(reps, (int, np.integer)) or reps < 1:
        raise ValueError(f"reps={reps!r} must be a positive integer")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence={confidence!r} must lie strictly between 0 and 1")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed={seed!r} must be a non-negative integer")
    arrays = [as_scores(s, f"sample {i}") for i, s in enumerate(samples)]
    library, _metrics = _rliable()
    bootstrap = (library.StratifiedBootstrap(arrays[0]) if len(arrays) == 1
                 else library.StratifiedIndependentBootstrap(*arrays))

    def vector(*resampled: np.ndarray) -> np.ndarray:  # rliable wants a 1-d array
        return np.array([statistic(*resampled)], dtype=np.float64)

    with _global_stream(int(seed)):
        bounds = bootstrap.conf_int(vector, reps=int(reps), size=confidence,
                                    method="percentile")
    return Interval(float(statistic(*arrays)), float(bounds[0, 0]), float(bounds[1, 0]))


@dataclass
class SeedAggregate:
    """Methods trained with several seeds: IQM per method, probability of improvement per pair."""

    iqm: dict[str, Interval]
    improvement: dict[tuple[str, str], Interval]
    runs: dict[str, int]

    def to_dict(self) -> dict[str, object]:
        """Plain data (for JSON)."""
        return {"iqm": {k: v.to_list() for k, v in self.iqm.items()},
                "probability_of_improvement": {f"{a} > {b}": v.to_list()
                                               for (a, b), v in self.improvement.items()},
                "runs": dict(self.runs)}


def aggregate_seeds(scores: Mapping[str, object], reps: int = DEFAULT_REPS,
                    confidence: float = 0.95, seed: int = 0) -> SeedAggregate:
    """IQM of every method and the probability that each improves on each other one.

    ``scores`` maps a method to its ``(runs, tasks)`` scores (runs = training
    seeds). All intervals are stratified-bootstrap percentile intervals.
    """
    if not scores:
        raise ValueError("aggregate_seeds needs at least one method")
    arrays = {name: as_scores(s, f"scores of {name!r}") for name, s in scores.items()}
    tasks = {a.shape[1] for a in arrays.values()}
    if len(tasks) != 1:
        raise ValueError("every method must be scored on the same tasks; task counts: "
                         + ", ".join(f"{k} {v.shape[1]}" for k, v in arrays.items()))
    out_iqm = {name: stratified_bootstrap(iqm, a, reps=reps, confidence=confidence, seed=seed)
               for name, a in arrays.items()}
    improvement = {}
    names = list(arrays)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            improvement[(a, b)] = stratified_bootstrap(
                probability_of_improvement, arrays[a], arrays[b], reps=reps,
                confidence=confidence, seed=seed)
    return SeedAggregate(out_iqm, improvement, {k: v.shape[0] for k, v in arrays.items()})
