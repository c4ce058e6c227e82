"""Humans at the table: one table session, a terminal front-end and a browser front-end.

A top-level package of its own because it is none of the others: it is not the
engine (``envs`` stays free of servers and terminals), not an agent, not an
evaluation and not training. It seats people beside agents (``agents``) at an
engine table (``envs``); the ``sette`` command line (``train.cli``) starts it.
Imports: envs <- agents <- play <- train.
"""
