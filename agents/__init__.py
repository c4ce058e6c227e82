"""Everything that chooses actions, behind one small protocol.

* :mod:`agents.base` — the ``Policy`` protocol (``act(observation, action_mask)``,
  defined in :mod:`envs.policy`) and the ``Agent`` base with an SB3-style ``predict``;
* :mod:`agents.scripted` — random legal play and threshold players and banks;
* :mod:`agents.heuristics` — the careful heuristic player and the bank that
  reads the table;
* :mod:`agents.learned` — models trained by ``sette train``, loaded by path
  without running anything from the file (``--trust-model`` for older files);
* :mod:`agents.pool` — bounded opponent pools for self-play;
* :mod:`agents.registry` — ``make_agent("threshold:5.5")``: agents from every
  form of spec (names, model paths, ``PLAYER|BANK``);
* :mod:`agents.seating` — the table-play loop and the seeding rule shared by
  the evaluator, the tournament and ``sette play``.
"""

from agents.base import Agent, Policy, PolicySource
from agents.pool import PolicyPool
from agents.registry import AGENT_SPECS, make_agent, model_label, resolve_spec
from agents.seating import RoleSplitAgent, Table, role_policy

__all__ = ["AGENT_SPECS", "Agent", "Policy", "PolicyPool", "PolicySource", "RoleSplitAgent",
           "Table", "make_agent", "model_label", "resolve_spec", "role_policy"]
