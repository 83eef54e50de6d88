"""A toy game that lives only in the tests: take counters from a pile, and whoever takes the last one wins.

It proves that a game is one folder and one declaration: importing ``tests.toy.game`` declares it,
and the lobby, shared tables, experiments and the lab widget offer it with no change to colorlab.
"""
