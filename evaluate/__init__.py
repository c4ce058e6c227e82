"""Evaluation: tournaments, statistics, the exact solver, plots and reports.

Imports point one way: ``envs`` <- ``agents`` <- ``evaluate`` <- ``train``. ``play`` (the
tables for people) stands beside ``train``: it imports the first three, never ``train``.
"""
