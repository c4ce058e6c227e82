"""The RLlib tests run only where Ray RLlib is installed: ``make test-rllib`` (``.venv-rllib``).

``ray[rllib]`` 2.60 pins ``gymnasium==1.2.2``, so it lives in its own
virtualenv; in the main one every test here is skipped with this reason.
The test modules import ray and the RLlib backend only inside their tests.
"""

from __future__ import annotations

import importlib.util

import pytest

REASON = ("Ray RLlib is not installed here: the RLlib tests run in .venv-rllib "
          "(make test-rllib; pip install -e '.[rllib]')")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if importlib.util.find_spec("ray") is not None:
        return
    skip = pytest.mark.skip(reason=REASON)
    for item in items:
        if "tests/rllib/" in item.nodeid.replace("\\", "/"):
            item.add_marker(skip)
