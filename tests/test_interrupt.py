"""Ctrl-C during ``sette train`` (issue 10): one line, exit 130, and a run that resumes.

The run is a real ``sette train`` in its own process group, interrupted the way
a terminal does it (SIGINT to the group) once it is training; then the exact
``--resume`` command it printed finishes the run, and ``run.json`` lists both
starts with their steps.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.foreground import foreground_sigint
from train.cli import main
from train.train_cli import INTERRUPTED

ROOT = Path(__file__).resolve().parents[1]


def test_ctrl_c_prints_one_line_exits_130_and_the_run_resumes(tmp_path: Path, capsys,
                                                              tiny_run_config) -> None:
    run = tmp_path / "run"
    process = subprocess.Popen(
        [sys.executable, "-m", "train.cli", "train", "player", "--config",
         str(tiny_run_config(tmp_path, player_steps=100_000)), "--run-dir", str(run)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True, preexec_fn=foreground_sigint)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    checkpoints = run / "player" / "checkpoints"
    deadline = time.monotonic() + 120
    while not list(checkpoints.glob("ckpt_*_steps.zip")):  # training is under way
        assert process.poll() is None, "".join(lines)
        assert time.monotonic() < deadline, "no checkpoints within 120 s"
        time.sleep(0.1)
    time.sleep(0.3)
    before = len(lines)
    os.killpg(process.pid, signal.SIGINT)
    status = process.wait(timeout=60)
    reader.join(timeout=10)
    assert status == INTERRUPTED == 130, "".join(lines[before:])  # what it said instead
    after = lines[before:]
    assert len(after) == 1, after  # no traceback
    match = re.fullmatch(r"sette train: stopped in the player stage at step (\d+) \(saved: "
                         r"(\S+)\); continue with: (sette train --resume \S+)\n", after[0])
    assert match, after[0]
    steps, saved, command = int(match[1]), Path(match[2]), match[3]
    assert command == f"sette train --resume {shlex.quote(str(run))}"
    assert saved == checkpoints / f"ckpt_{steps}_steps.zip" and saved.is_file()
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    [events] = (run / "player" / "tensorboard").rglob("events.out.tfevents.*")
    board = EventAccumulator(str(events))
    board.Reload()  # the closed writer left a file TensorBoard reads to its end
    assert "time/env_share" in board.Tags()["scalars"]
    first = json.loads((run / "run.json").read_text())["starts"]
    assert [(s["outcome"], s["steps"]) for s in first] == [("interrupted", steps)]

    # Finish soon after the stop: the resumed run reads its budget from config.toml.
    config_file = run / "config.toml"
    config_file.write_text(config_file.read_text().replace(
        "timesteps = 100000", f"timesteps = {steps + 256}"))
    assert main(shlex.split(command)[1:]) == 0
    out = capsys.readouterr().out
    assert f"resuming from ckpt_{steps}_steps.zip ({steps} steps done)" in out
    record = json.loads((run / "run.json").read_text())
    total = json.loads((run / "player" / "stage.json").read_text())["timesteps"]
    assert total >= steps + 256
    assert f"player: {total} steps ({total - steps} since this start) in " in out
    assert [(s["outcome"], s["steps"]) for s in record["starts"]] == [
        ("interrupted", steps), ("finished", total - steps)]
    assert record["wall_s"] == round(sum(s["train_s"] for s in record["starts"]), 1)
    assert record["models"] == {"player": "player/model.zip"}
