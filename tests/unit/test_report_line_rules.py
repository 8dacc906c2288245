"""The line-breaking rule of reports/layout.py on reportlab's own CJK splitter (``textsplit.dumbSplit``, the
one the report wraps): no line starts inside a number-and-unit span, no character is lost, widths still hold."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib import textsplit

from gpuplanner.reports.layout import NBSP, keep_spans, keep_units, spans

ORIGINAL = textsplit.dumbSplit  # the module may already be patched by the report's fonts: use reportlab's own
while hasattr(ORIGINAL, "__wrapped__"):
    ORIGINAL = ORIGINAL.__wrapped__


def lines_of(text: str, width: float) -> list[str]:
    widths = [10.0] * len(text)
    return [t for _, t in keep_spans(ORIGINAL, text, widths, [width])]


def test_spans_cover_amounts_units_and_measure_words():
    text = "资本支出合计 2,348.3 万美元，以及 512 根线缆，1,024 kW 与 400 Gb/s，R01-02 机柜"
    assert [text[a:b] for a, b in spans(text)] == ["2,348.3 万美元", "512 根", "1,024 kW", "400 Gb/s"]


def test_keep_units_puts_a_no_break_space_between_number_and_unit_only():
    assert keep_units("20–25 kW/rack and 1,024 kW of power, 3 servers and 4 x") == (
        f"20–25{NBSP}kW/rack and 1,024{NBSP}kW of power, 3{NBSP}servers and 4 x"
    )


def test_a_line_never_opens_inside_an_amount():
    text = "资本支出合计 2,348.3 万美元，以及 512 根线缆"
    for width in range(120, 300, 10):  # from 12 characters: the longest span fits a line
        lines = lines_of(text, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        for ln in lines[1:]:
            assert not re.match(r"^(万|美元|元|根|[\d,.]+)", ln) or re.match(
                r"^\d[\d,.]* ?(万美元|根)", ln
            ), lines


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["资本", "支出", "线缆", "机柜", "，", " "]),
            st.builds(
                lambda n, u: f"{n:,} {u}",
                st.integers(0, 10**7),
                st.sampled_from(["万美元", "台", "kW", "根"]),
            ),
        ),
        min_size=1,
        max_size=12,
    ),
    st.integers(8, 30),
)
def test_no_character_is_lost_and_no_line_starts_inside_a_span(parts, chars_per_line):
    text = "，".join(parts)  # the report's figures stand between words or punctuation
    width = 10.0 * chars_per_line
    lines = lines_of(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    guarded = spans(text)
    pos = 0
    for k, ln in enumerate(lines):
        at = text.find(ln, pos) if ln else pos
        if k and ln:
            inside = [(a, b) for a, b in guarded if a < at < b]
            # only a span longer than the line it would start may be cut
            assert all((b - a) * 10.0 > width for a, b in inside), (text, lines)
        pos = at + len(ln)
