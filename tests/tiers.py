"""The suite's two tiers (Makefile): ``make check`` sets ``LAPAU_TEST_TIER=quick`` and
leaves out the ``e2e``, ``live`` and ``slow`` tests; ``make test`` (and a plain ``pytest``)
runs everything at full size.

Property tests and playouts run the same checks in both tiers; the quick tier tries fewer
examples, so it stays within its 90 s (CONTRIBUTING.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

QUICK = os.environ.get("LAPAU_TEST_TIER") == "quick"


def scaled(full: int, quick: int) -> int:
    """``full`` (examples, matches) in the full tier, ``quick`` in ``make check``."""
    return quick if QUICK else full


def quick_then_slow(quick: Sequence[tuple[Any, ...]], slow: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Parametrize cases: ``quick`` in both tiers, ``slow`` marked for ``make test`` alone."""
    return [*quick, *(pytest.param(*case, marks=pytest.mark.slow) for case in slow)]
