"""Everything that chooses actions, behind one small protocol.

* :mod:`agents.base` — the ``Policy`` protocol (``act(observation, action_mask)``
  and an SB3-style ``predict``) and a reader for observations;
* :mod:`agents.scripted` — random legal play and threshold players and banks;
* :mod:`agents.heuristics` — the careful heuristic player and the bank that
  reads the table;
* :mod:`agents.learned` — models trained by ``sette train``, loaded by path
  without running anything from the file (``--trust-model`` for older files);
* :mod:`agents.pool` — bounded opponent pools for self-play;
* :mod:`agents.registry` — ``make_agent("threshold:5.5")``: agents from string specs.

Importing ``agents`` lets the single-seat views (:mod:`envs.single_seat`) take
string specs as opponents.
"""

from agents.base import Agent, Policy
from agents.pool import PolicyPool
from agents.registry import AGENT_SPECS, make_agent
from envs.single_seat import register_spec_resolver

register_spec_resolver(make_agent)

__all__ = ["AGENT_SPECS", "Agent", "Policy", "PolicyPool", "make_agent"]
