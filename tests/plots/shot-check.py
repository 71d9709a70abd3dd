#!/usr/bin/env python3
"""Judge a browser screenshot of the HTML report (or of a page of charts)
by what it shows, for tests/plots/run-plots.sh:

  shot-check.py mark REPORT.html MARKED.html
      a copy of the report with a full-width bar of MARK_RGB above and
      below each <svg> element, to be opened in the browser;
  shot-check.py judge SCREENSHOT.png MARKED.html
      the screenshot of that copy, judged;
  shot-check.py page PAGE.html CHART.svg...
      an HTML page of the charts, inline, to be marked and judged as a
      report is;
  shot-check.py legend CHART.svg...
      each chart's legend: no two entries share a colour and a marker
      shape (the class sN of the marker and its element), and no text of
      the chart is cut short with an ellipsis.

The PNG is decoded here (zlib from Python's standard library; 8-bit RGB or
RGBA, not interlaced, as Chromium writes them) and judged on two things:
  - the page is not blank: at least 1 % of its pixels differ from the
    commonest colour (the background);
  - every chart rendered: between the two bars of each <svg>, the
    report's series colours (the `.sN{fill:#...}` rules of its style sheet
    with a hue, so not the greys) cover at least CHART_MIN_PIXELS pixels.
    A chart that draws nothing, or an SVG the browser does not render,
    leaves its rows without them, whatever the size of the file.
Exits 0 and prints what it saw, or exits 1 and says what is missing.
"""
import re
import struct
from html import escape as html_escape
import sys
import zlib

BLANK_FRAC = 0.01      # share of non-background pixels below which a page is blank
CHART_MIN_PIXELS = 20  # series-coloured pixels a chart holds at least (a blank one: 0)
MARK_RGB = (255, 0, 255)  # the bars around each chart: a colour no chart uses
MARK_MIN_FRAC = 0.5    # a row is a bar where this share of its pixels is MARK_RGB
NEAR = 6               # per-channel distance still counted as a colour (anti-aliasing)
POINT_ALPHA = 0.8      # circle.pt's fill-opacity in src/report/svg.c: points over white


def decode(path):
    """(width, height, rows of (r, g, b) bytes) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG file")
    pos, idat, head = 8, [], None
    while pos + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + size
    if not head:
        raise SystemExit(f"{path}: no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = head
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit(f"{path}: a PNG of depth {depth}, colour type {ctype}, interlace "
                         f"{interlace} (expected 8-bit RGB or RGBA, not interlaced)")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        raise SystemExit(f"{path}: {len(raw)} bytes of image data for {width} x {height}")
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        unfilter(kind, line, prev, bpp)
        rows.append(list(zip(line[0::bpp], line[1::bpp], line[2::bpp])))
        prev = line
    return width, height, rows


def unfilter(kind, line, prev, bpp):
    """Undo PNG filter `kind` on line in place (prev: the row above)."""
    n = len(line)
    if kind == 0:
        return
    if kind == 1:
        for x in range(bpp, n):
            line[x] = (line[x] + line[x - bpp]) & 255
    elif kind == 2:
        line[:] = bytes((a + b) & 255 for a, b in zip(line, prev))
    elif kind == 3:
        for x in range(n):
            left = line[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
    elif kind == 4:
        for x in range(n):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    else:
        raise SystemExit(f"unknown PNG filter {kind}")


def series_colours(html):
    """The series colours of the report's style sheet, with a hue (greys out),
    and the same over white at the points' opacity, each widened by NEAR."""
    found = set()
    for hexa in re.findall(r"\.s[0-9]+\{fill:#([0-9a-fA-F]{6})", html):
        rgb = tuple(int(hexa[i:i + 2], 16) for i in (0, 2, 4))
        if max(rgb) - min(rgb) >= 64:
            found.add(rgb)
            found.add(tuple(round(POINT_ALPHA * v + (1 - POINT_ALPHA) * 255) for v in rgb))
    near = set()
    for r, g, b in found:
        for dr in range(-NEAR, NEAR + 1):
            for dg in range(-NEAR, NEAR + 1):
                for db in range(-NEAR, NEAR + 1):
                    near.add((r + dr, g + dg, b + db))
    return found, near


def near_colour(px, rgb):
    """px within NEAR of rgb on every channel."""
    return all(abs(a - b) <= NEAR for a, b in zip(px, rgb))


def mark(report, marked):
    """Write the report with a bar above and below each <svg> element."""
    bar = '<div style="height:4px;background:#%02x%02x%02x"></div>' % MARK_RGB
    with open(report, encoding="utf-8") as f:
        html = f.read()
    html = html.replace("<svg", bar + "<svg").replace("</svg>", "</svg>" + bar)
    with open(marked, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


def judge(png, marked):
    """0 when the screenshot png of the marked report shows the page and
    every chart; 1 with the reason printed when it does not."""
    width, height, rows = decode(png)
    with open(marked, encoding="utf-8") as f:
        html = f.read()
    charts = html.count("<svg")
    colours, near = series_colours(html)
    if charts == 0 or not colours:
        raise SystemExit(f"{marked}: {charts} charts and {len(colours)} series colours "
                         "(expected a report with charts)")
    counts = {}
    for row in rows:
        for px in row:
            counts[px] = counts.get(px, 0) + 1
    bg = max(counts, key=counts.get)
    other = sum(n for px, n in counts.items() if max(abs(a - b) for a, b in zip(px, bg)) > 16)
    total = width * height
    if other < BLANK_FRAC * total:
        print(f"the page looks blank: {other} of {total} pixels differ from the background")
        return 1
    # The bars, each a run of rows, in order; chart k lies between bars
    # 2k and 2k + 1.
    bars, in_bar = [], False
    for y, row in enumerate(rows):
        is_bar = sum(1 for px in row if near_colour(px, MARK_RGB)) >= MARK_MIN_FRAC * width
        if is_bar and not in_bar:
            bars.append([y, y])
        if is_bar:
            bars[-1][1] = y
        in_bar = is_bar
    if len(bars) != 2 * charts:
        print(f"{charts} charts in the report, {len(bars)} of their {2 * charts} bars in the "
              "screenshot (a window too short for the page, or a page not laid out)")
        return 1
    drawn = [sum(1 for row in rows[bars[2 * k][1] + 1:bars[2 * k + 1][0]] for px in row if px in near)
             for k in range(charts)]
    blank = [k + 1 for k, n in enumerate(drawn) if n < CHART_MIN_PIXELS]
    if blank:
        print(f"chart {', '.join(map(str, blank))} of {charts} shows no series colour "
              f"(pixels a chart: {drawn}): it did not render, or drew nothing")
        return 1
    print(f"{charts} charts drawn (series-coloured pixels a chart: {drawn}), "
          f"{100 * other // total} % of the page not background")
    return 0


def page(out, charts):
    """Write an HTML page holding the charts inline, one after another, each
    under a line naming its file."""
    body = []
    for path in charts:
        with open(path, encoding="utf-8") as f:
            svg = f.read()
        # a line of text between charts keeps their marker bars apart
        body.append("<p>%s</p>\n" % html_escape(path) + re.sub(r"^<\?xml[^>]*\?>\s*", "", svg))
    with open(out, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>charts</title>"
                "</head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    return 0


# A legend's marker: a point element (circle, rect, path, ...) of class
# "pt sN" with no <title> of its own (the plotted points carry one).
LEGEND_MARKER = re.compile(r'<(\w+) [^>]*class="pt (s[0-9]+)"\s*/>')


def legend(charts):
    """0 when every chart's legend markers are distinct colour-and-shape
    pairs and no text is cut short; 1 with each fault printed."""
    bad = 0
    for path in charts:
        with open(path, encoding="utf-8") as f:
            svg = f.read()
        pairs = LEGEND_MARKER.findall(svg)
        fault = 0
        seen = {}
        for pair in pairs:
            seen[pair] = seen.get(pair, 0) + 1
        for pair, n in sorted(seen.items()):
            if n > 1:
                print(f"{path}: {n} legend entries share colour {pair[1]} and marker <{pair[0]}>")
                fault = 1
        if not pairs:
            print(f"{path}: no legend marker found")
            fault = 1
        cut = [t for t in re.findall(r">([^<]*)</text>", svg) if "..." in t or "\u2026" in t]
        if cut:
            print(f"{path}: text cut short: {cut[:3]}")
            fault = 1
        if not fault:
            print(f"{path}: {len(pairs)} legend entries, each its own colour and marker")
        bad |= fault
    return bad


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "legend":
        return legend(sys.argv[2:])
    if len(sys.argv) >= 4 and sys.argv[1] == "page":
        return page(sys.argv[2], sys.argv[3:])
    if len(sys.argv) != 4 or sys.argv[1] not in ("mark", "judge"):
        raise SystemExit(__doc__)
    return (mark if sys.argv[1] == "mark" else judge)(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    sys.exit(main())
