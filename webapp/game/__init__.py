"""Pure rules of the games, standard library only.

Each game lives in its own subpackage and exposes a :class:`~webapp.game.protocol.Game`
descriptor named ``GAME`` that :mod:`~webapp.game.registry` finds.  Every game package has
the same modules with the same roles and names:

- ``cards``: the deck (``DECK``), the card types and their order, card helpers;
- ``oracle``: the rules oracle, what a hand or pile is worth (docs/rules.md: ceki, checki, yaku);
- ``actions``: the action records, their union ``<Game>Action`` and ``parse_action``;
- ``state``: the frozen records, the state class ``<Game>State`` (whose turn it is: ``turn``)
  and builders of arranged deals for tests;
- ``rules``: the protocol's functions of a state: ``new_game``, ``legal_actions``,
  ``apply``, ``to_act``, ``timeout_action``, ``outcome``;
- ``view``: ``<Game>View``, ``view(state, seat)`` and what it hides: ``hidden_cards``, with
  ``all_cards`` (every card in every zone) for the conservation and leak checks;
- ``bots``: ``BOTS`` by level, each a function of a view and a generator;
- ``sampling``: ``sample`` and ``settled`` for the expert's search (:mod:`webapp.game.search`);
- ``__init__``: ``RULES_VERSION``, ``EXPERT`` and ``GAME``.

A game may add private helpers for its bots (Koa's ``hand``, Koi-Koi's ``sim``).  What the
games share, the protocol, deck and seat helpers, replay, search and the registry, lives once
in this package and knows no game by name.
"""
