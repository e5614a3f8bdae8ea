"""Sets of squares as the bits of an int, as the exact hint search keeps them."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The squares in ``mask`` (its set bits), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
