"""Generator of Lapau's card art: one SVG symbol sprite per deck, drawn from code.

The sprites in ``webapp/static/cards/`` are build products of this package and are never edited by
hand: ``python -m scripts.card_art`` rewrites them byte for byte. Only the standard library is used
and nothing is random, so the output depends on the source alone.
"""
