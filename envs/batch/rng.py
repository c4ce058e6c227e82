"""numpy's default generator, bit for bit, in numba: so a compiled table shuffles as the engine does.

The scalar engine (:mod:`envs.engine`) takes every random number from
``np.random.default_rng(seed)``: ``rng.shuffle(pile)`` for each shuffle of
the shoe (RULES.md §3) and ``rng.integers(n)`` for a random first bank
(RULES.md §5, :mod:`envs.bank_seat`). This module is that generator for
code compiled by numba, so that table ``t`` of the batch engine reset with
seed ``s`` deals exactly the cards ``Engine.reset(seed=s)`` deals:

* :func:`seed_state` — ``SeedSequence(seed)`` (its 32-bit hash mixing, pool
  of four words) and the 128-bit state and increment ``PCG64`` derives from
  it (``pcg64_set_seed``: ``srandom`` with ``generate_state(4, uint64)``);
* :func:`next_uint64` — one PCG64 step: the 128-bit LCG, then the XSL-RR
  output of the new state;
* :func:`next_uint32` — numpy's buffered half: the low 32 bits of a fresh
  64-bit draw, the high half kept for the next call;
* :func:`random_interval` — ``[0, max]`` by masked rejection (what
  ``Generator.shuffle`` draws each swap from);
* :func:`shuffle` — ``Generator.shuffle``'s Fisher–Yates, last index first;
* :func:`integers` — ``Generator.integers(n)`` (int64, ``n`` < 2**32): Lemire's
  bounded multiply with rejection on 32-bit draws.

A generator is a ``uint64`` array of :data:`RNG_WORDS` words (the state's high
and low halves, the increment's, the ``has_uint32`` flag and the buffered
``uinteger``), one row per table in the batch engine. Every function is held
to numpy over many seeds and sizes (``tests/test_batch_rng.py``).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from envs.batch.table_jit import table_jit


__all__ = ["RNG_WORDS", "seed_state", "next_uint64", "next_uint32", "random_interval",
           "shuffle", "integers", "new_generator"]

RNG_WORDS: Final = 6
"""Words of one generator: state high, state low, increment high, increment low, has_uint32, uinteger."""
_S_HI: Final = 0
_S_LO: Final = 1
_I_HI: Final = 2
_I_LO: Final = 3
_HAS32: Final = 4
_BUF32: Final = 5
_HASH: Final = _BUF32
"""While seeding, the word that holds SeedSequence's running hash constant."""

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)
_MULT_HI = np.uint64(0x2360ED051FC65DA4)  # PCG_DEFAULT_MULTIPLIER_128, high and low words
_MULT_LO = np.uint64(0x4385DF649FCCF645)

# numpy.random.SeedSequence's hash constants (bit_generator.pyx).
_INIT_A = np.uint64(0x43b0d7e5)
_MULT_A = np.uint64(0x931e8875)
_INIT_B = np.uint64(0x8b51f9dd)
_MULT_B = np.uint64(0x58f38ded)
_MIX_MULT_L = np.uint64(0xca01f9dd)
_MIX_MULT_R = np.uint64(0x4973f715)
_XSHIFT = np.uint64(16)
_POOL: Final = 4


@table_jit(inline=True)
def _mulhi(x: np.uint64, y: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product ``x * y``."""
    x_lo = x & _MASK32
    x_hi = x >> _U32
    y_lo = y & _MASK32
    y_hi = y >> _U32
    lo_lo = x_lo * y_lo
    hi_lo = x_hi * y_lo
    lo_hi = x_lo * y_hi
    hi_hi = x_hi * y_hi
    cross = (lo_lo >> _U32) + (hi_lo & _MASK32) + lo_hi
    return hi_hi + (hi_lo >> _U32) + (cross >> _U32)


@table_jit(inline=True)
def _step(g: np.ndarray) -> None:
    """PCG64's LCG: ``state = state * multiplier + increment`` (mod 2**128)."""
    s_hi = g[_S_HI]
    s_lo = g[_S_LO]
    p_lo = s_lo * _MULT_LO
    p_hi = _mulhi(s_lo, _MULT_LO) + s_lo * _MULT_HI + s_hi * _MULT_LO
    lo = p_lo + g[_I_LO]
    carry = _U1 if lo < p_lo else _U0
    g[_S_LO] = lo
    g[_S_HI] = p_hi + g[_I_HI] + carry


@table_jit(inline=True)
def next_uint64(g: np.ndarray) -> np.uint64:
    """One 64-bit draw: a step, then XSL-RR of the new state (numpy's ``pcg64_next64``)."""
    _step(g)
    hi = g[_S_HI]
    value = hi ^ g[_S_LO]
    rot = hi >> np.uint64(58)
    return (value >> rot) | (value << ((np.uint64(64) - rot) & np.uint64(63)))


@table_jit(inline=True)
def next_uint32(g: np.ndarray) -> np.uint64:
    """numpy's ``pcg64_next32``: the buffered high half, else the low half of a new draw."""
    if g[_HAS32]:
        g[_HAS32] = _U0
        return g[_BUF32]
    value = next_uint64(g)
    g[_HAS32] = _U1
    g[_BUF32] = value >> _U32
    return value & _MASK32


@table_jit(inline=True)
def random_interval(g: np.ndarray, top: np.uint64) -> np.uint64:
    """A draw of ``0..top``: the smallest bit mask covering ``top``, rejection above it."""
    if top == _U0:
        return _U0
    mask = top
    mask |= mask >> np.uint64(1)
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> np.uint64(16)
    mask |= mask >> np.uint64(32)
    if top <= _MASK32:
        value = next_uint32(g) & mask
        while value > top:
            value = next_uint32(g) & mask
    else:
        value = next_uint64(g) & mask
        while value > top:
            value = next_uint64(g) & mask
    return value


@table_jit()
def shuffle(g: np.ndarray, items: np.ndarray, n: int) -> None:
    """``Generator.shuffle`` of ``items[:n]`` in place: swap ``i`` with a draw of ``0..i``, ``i`` from the end."""
    for i in range(n - 1, 0, -1):
        j = np.int64(random_interval(g, np.uint64(i)))
        swap = items[i]
        items[i] = items[j]
        items[j] = swap


@table_jit()
def integers(g: np.ndarray, n: int) -> np.int64:
    """``Generator.integers(n)`` for ``1 <= n <= 2**32``: Lemire's bounded multiply, rejection on the low word."""
    top = np.uint64(n - 1)
    if top == _U0:
        return np.int64(0)
    if top == _MASK32:
        return np.int64(next_uint32(g))
    excl = top + _U1
    m = next_uint32(g) * excl
    leftover = m & _MASK32
    if leftover < excl:
        threshold = (_MASK32 - top) % excl
        while leftover < threshold:
            m = next_uint32(g) * excl
            leftover = m & _MASK32
    return np.int64(m >> _U32)


@table_jit(inline=True)
def _hashmix(value: np.uint64, g: np.ndarray) -> np.uint64:
    """SeedSequence's ``hashmix``, its running constant kept in ``g[_HASH]`` (seeding only)."""
    value = (value ^ g[_HASH]) & _MASK32
    g[_HASH] = (g[_HASH] * _MULT_A) & _MASK32
    value = (value * g[_HASH]) & _MASK32
    return value ^ (value >> _XSHIFT)


@table_jit(inline=True)
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> _XSHIFT)


@table_jit(inline=True)
def _pool_word(g: np.ndarray, i: int) -> np.uint64:
    """The 64-bit word ``i`` of ``generate_state(4, uint64)``: the pool hashed out to two
    32-bit words (little end first) with the running constant ``g[_HASH]``."""
    word = _U0
    for half in range(2):
        value = (g[(2 * i + half) % _POOL] ^ g[_HASH]) & _MASK32
        g[_HASH] = (g[_HASH] * _MULT_B) & _MASK32
        value = (value * g[_HASH]) & _MASK32
        word |= (value ^ (value >> _XSHIFT)) << np.uint64(32 * half)
    return word


@table_jit()
def seed_state(seed: int, g: np.ndarray) -> None:
    """Set ``g`` to ``np.random.default_rng(seed)``'s generator (``0 <= seed < 2**63``).

    ``SeedSequence(seed)``: the seed's 32-bit words (little end first; 0 is
    one word, and a missing word hashes as 0) mixed into a pool of four, the
    pool hashed out to eight words, read as four 64-bit words: the state's
    seed (high, low) and sequence (high, low), then PCG64's ``srandom``:
    ``state = 0``, ``inc = seq << 1 | 1``, a step, ``state += seed``, a step.
    The pool and the hash constant live in ``g`` until the state replaces
    them (a compiled table allocates nothing).
    """
    g[_HASH] = _INIT_A
    g[0] = _hashmix(np.uint64(seed) & _MASK32, g)
    g[1] = _hashmix(np.uint64(seed) >> _U32, g)
    g[2] = _hashmix(_U0, g)
    g[3] = _hashmix(_U0, g)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                g[i_dst] = _mix(g[i_dst], _hashmix(g[i_src], g))
    g[_HASH] = _INIT_B
    seed_hi = _pool_word(g, 0)
    seed_lo = _pool_word(g, 1)
    seq_hi = _pool_word(g, 2)
    seq_lo = _pool_word(g, 3)
    g[_S_HI] = _U0
    g[_S_LO] = _U0
    g[_I_HI] = (seq_hi << _U1) | (seq_lo >> np.uint64(63))
    g[_I_LO] = (seq_lo << _U1) | _U1
    g[_HAS32] = _U0
    g[_BUF32] = _U0
    _step(g)
    lo = g[_S_LO] + seed_lo
    carry = _U1 if lo < seed_lo else _U0
    g[_S_LO] = lo
    g[_S_HI] = g[_S_HI] + seed_hi + carry
    _step(g)


def new_generator(seed: int) -> np.ndarray:
    """A generator array seeded as ``np.random.default_rng(seed)`` (for tests and callers outside kernels)."""
    g = np.zeros(RNG_WORDS, dtype=np.uint64)
    seed_state(int(seed), g)
    return g
