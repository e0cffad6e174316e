"""Generator of Lapau's card art: one SVG symbol sprite per deck, drawn from code.

The sprites in ``webapp/static/cards/`` are build products of this package and are never edited by
hand: ``python -m scripts.card_art`` rewrites them byte for byte. Only the standard library is used
and nothing is random, so the output depends on the source alone.

Pages show a card with an external reference to its symbol; the symbol carries its own viewBox
and pins its paint properties, so only the outer ``<svg>`` needs the matching viewBox::

    <svg viewBox="0 0 40 104"><use href="/static/cards/money.svg#coins-5"/></svg>
    <svg viewBox="0 0 40 60"><use href="/static/cards/hanafuda.svg#aug-moon"/></svg>

Money cards are named by their Kowah id (Koa ids map onto them by the table in RULES.md),
hanafuda cards by their RULES.md id; ``back`` is each deck's back. Ids starting with ``m-`` are
internal motifs, not cards.
"""
