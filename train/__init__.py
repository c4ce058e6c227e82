"""Training and the ``sette`` command line (:mod:`train.cli`).

The top of the import chain: ``envs`` <- ``agents`` <- ``evaluate`` <- ``train``.
"""
