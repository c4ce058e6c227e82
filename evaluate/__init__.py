"""Evaluation: tournaments, statistics, the exact solver, plots and reports.

Empty for now: the evaluation issues fill it. Imports point one way:
``envs`` <- ``agents`` <- ``evaluate`` <- ``train``.
"""
