"""DataFrame.show's text, laid out as Spark's Dataset.showString lays it out: a grid of
+---+ lines, cells cut to `truncate` characters (the last three '...'), right-aligned when
truncating and left-aligned when not, NULL for nulls, and 'only showing top n rows'."""

import unicodedata


def _width(text):
    """Columns a cell takes on a terminal: East Asian wide and full-width characters count
    two, as Spark's stringHalfWidth counts them."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cut(text, truncate):
    if truncate > 0 and len(text) > truncate:
        return text[:truncate] if truncate < 4 else text[: truncate - 3] + "..."
    return text


def _pad(text, width, right_align):
    fill = " " * max(0, width - _width(text))
    return fill + text if right_align else text + fill


def show_string(names, cells, n, truncate, vertical):
    """The text of show(n, truncate, vertical) for column names and rows of cell strings
    (None for NULL); cells may hold one row more than n, which says there are more."""
    truncate = 20 if truncate is True else (0 if truncate is False else int(truncate))
    has_more = len(cells) > n
    rows = [[_cut(name, truncate) for name in names]]
    rows += [[_cut("NULL" if v is None else v, truncate) for v in r] for r in cells[:n]]
    if vertical:
        return _vertical(rows, n, has_more)
    widths = [3] * len(names)
    for r in rows:
        widths = [max(w, _width(c)) for w, c in zip(widths, r)]
    sep = "+" + "+".join("-" * w for w in widths) + "+\n"
    out = [sep]
    for i, r in enumerate(rows):
        out.append("|" + "|".join(_pad(c, w, truncate > 0) for c, w in zip(r, widths)) + "|\n")
        if i == 0:
            out.append(sep)
    out.append(sep)
    if has_more:
        out.append(f"only showing top {n} {'row' if n == 1 else 'rows'}")
    return "".join(out)


def _vertical(rows, n, has_more):
    header, data = rows[0], rows[1:]
    name_w = max([_width(h) for h in header] + [0])
    data_w = max([_width(c) for r in data for c in r] + [0])
    out = []
    for i, r in enumerate(data):
        head = f"-RECORD {i}"
        out.append(head + "-" * max(0, name_w + data_w + 5 - len(head)) + "\n")
        for h, c in zip(header, r):
            out.append(" " + _pad(h, name_w, False) + " | " + _pad(c, data_w, False) + " \n")
    if not data:
        out.append("(0 rows)\n")
    if has_more:
        out.append(f"only showing top {n} {'row' if n == 1 else 'rows'}")
    return "".join(out)
