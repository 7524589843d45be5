"""Charts: real PNG and SVG files, the same bytes for the same data, every label drawn."""

from __future__ import annotations

import io

from PIL import Image

from runarch_gen.charts import Bar, Format, Point, bar_chart, heatmap, histogram, line_chart


def test_the_same_data_gives_the_same_bytes_in_both_formats() -> None:
    formats: tuple[Format, ...] = ("png", "svg")
    for fmt in formats:
        first = histogram({"a": [1, 2, 2, 3]}, title="t", x_label="x", fmt=fmt)
        again = histogram({"a": [1, 2, 2, 3]}, title="t", x_label="x", fmt=fmt)
        other = histogram({"a": [1, 2, 2, 4]}, title="t", x_label="x", fmt=fmt)
        assert first == again != other


def test_a_heatmap_labels_its_cells_and_leaves_missing_ones_blank() -> None:
    svg = heatmap(
        [[0.25, None], [0.5, 0.75]],
        x_labels=["F 9", "F 10"],
        y_labels=["line", "board"],
        title="Stalls",
        x_label="F token",
        y_label="match bonus",
        value_label="share of games",
        percent=True,
        fmt="svg",
    ).decode()
    for text in ("25 %", "50 %", "75 %", "F 10", "board", "Stalls", "share of games"):
        assert text in svg
    assert svg.count(" %<") == 3  # three labelled cells; the missing one has none


def test_lines_and_bars_are_pictures_of_the_stated_size() -> None:
    png = line_chart(
        {"first player": [Point(1, 0.4, 0.3, 0.5), Point(2, 0.6, 0.5, 0.7)]},
        title="Edge",
        x_label="deal",
        y_label="win rate",
        percent=True,
        reference=0.5,
    )
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (1200, 675)
    svg = bar_chart([Bar("černý ř", 0.5, 0.4, 0.6)], title="Výhry", y_label="podíl", fmt="svg")
    assert "černý ř".encode() in svg and "Výhry".encode() in svg
