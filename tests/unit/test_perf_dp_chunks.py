"""Exposed data-parallel time of the distributed optimizer in the interleaved schedule (session 6).

Oracle: a direct simulation of the first pipeline rank's cool-down — chunk k's reduce-scatter becomes ready
when its last backward ends (Megatron-Core calls each chunk's grad_sync_func after the chunk's last
micro-batch, Narayanan et al. SC'21 Section 2.2.2 for the chunk order), and the collectives run one after
another on the NIC. The engine's closed form must give the same tail.
"""

from __future__ import annotations

import itertools

import pytest

from gpuplanner.engine.perf.data_parallel import chunked_exposed


def _simulated_tail(comm: float, hide: float, p: int, v: int, m: int) -> float:
    """Time the last collective ends after the last backward, by stepping through the cool-down."""
    chunk_bwd = hide / v  # what one chunk's backward of one micro-batch can hide
    group = min(p, m)
    # backward order of the last micro-batch group: chunk v-1 for `group` micro-batches, then v-2, ...
    t, nic_free = 0.0, 0.0
    for _chunk in range(v - 1, -1, -1):
        t += group * chunk_bwd
        # this chunk's own last backward hides its first `chunk_bwd` of communication
        start = max(nic_free, t - chunk_bwd)
        nic_free = start + comm / v
    return max(0.0, nic_free - t)


@pytest.mark.parametrize(
    ("comm", "hide", "p", "v", "m"),
    [
        (c, h, p, v, m)
        for c, h, (p, v, m) in itertools.product(
            (0.05, 0.3, 2.0),
            (0.01, 0.1, 0.5),
            ((1, 1, 8), (8, 1, 16), (6, 8, 6), (8, 4, 72), (8, 12, 16), (4, 3, 2)),
        )
    ],
)
def test_closed_form_equals_the_simulated_cool_down(comm, hide, p, v, m):
    exposed = float(chunked_exposed(comm, hide, p, v, m, 0.0))
    assert exposed == pytest.approx(_simulated_tail(comm, hide, p, v, m), abs=1e-12)


def test_without_interleaving_it_is_the_old_single_overlap():
    assert float(chunked_exposed(0.5, 0.2, 8, 1, 32, 0.0)) == pytest.approx(0.3)
    assert float(chunked_exposed(0.1, 0.2, 8, 1, 32, 0.0)) == 0.0


def test_the_hidden_part_slows_the_compute_by_the_contention_fraction():
    comm, hide = 0.5, 0.2
    bare = float(chunked_exposed(comm, hide, 8, 1, 32, 0.0))
    assert float(chunked_exposed(comm, hide, 8, 1, 32, 0.25)) == pytest.approx(bare + 0.25 * (comm - bare))
    # nothing overlapped (no hiding), nothing contended
    assert float(chunked_exposed(comm, 0.0, 8, 4, 32, 0.25)) == pytest.approx(comm)
