"""Everything that chooses actions, behind one small protocol.

* :mod:`agents.base` — the ``Policy`` protocol (``act(observation, action_mask)``
  and an SB3-style ``predict``) and helpers to read an observation;
* :mod:`agents.scripted` — rule-based seats: random legal play and threshold
  players and banks;
* :mod:`agents.registry` — ``make_agent("threshold:5.5")``: agents from string specs.
"""

from agents.base import Policy
from agents.registry import AGENT_SPECS, make_agent

__all__ = ["AGENT_SPECS", "Policy", "make_agent"]
