"""Pure rules of the three games, standard library only.

Each game lives in its own subpackage (``koa``, ``kowah``, ``koikoi``) and exposes a
:class:`~webapp.game.protocol.Game` descriptor named ``GAME``.  What the games share, the
protocol, deck and seat helpers, replay and the registry, lives once in this package and
knows no game by name.
"""
