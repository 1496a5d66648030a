"""Temporary views until the engine has them: a view's query is put in place of its name
where a statement reads a relation (after FROM, JOIN, USING, or a comma in a FROM list),
quoted strings, comments and qualified names left alone. Statements are otherwise sent as
written."""

import re

_TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<line>--[^\n]*)|(?P<block>/\*.*?\*/)|(?P<str>'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")"""
    r"""|(?P<quoted>`(?:``|[^`])*`)|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<other>.)""",
    re.S,
)
_RELATION_BEFORE = {"FROM", "JOIN", "USING"}
_ENDS_FROM_LIST = {"WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "WINDOW",
                   "ON", "JOIN", "SELECT", "WHEN", "SET", "QUALIFY", "CLUSTER", "SORT", "DISTRIBUTE"}
_NOT_ALIAS = _ENDS_FROM_LIST | {"INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "SEMI", "ANTI", "OUTER",
                                "USING", "VERSION", "TIMESTAMP", "FOR", "LATERAL", "PIVOT", "UNPIVOT",
                                "TABLESAMPLE", "MINUS", "AS"}


def _tokens(sql):
    return [(m.lastgroup, m.group()) for m in _TOKEN.finditer(sql)]


def _name(kind, text):
    if kind == "word":
        return text.lower()
    if kind == "quoted":
        return text[1:-1].replace("``", "`").lower()
    return None


def substitute(sql, views):
    """sql with each read of a view (views: lower-case name -> query) replaced by the query."""
    if not views:
        return sql
    toks = _tokens(sql)
    sig = [i for i, (k, _) in enumerate(toks) if k not in ("ws", "line", "block")]
    out = {}
    depth, from_list = 0, {}
    for pos, i in enumerate(sig):
        kind, text = toks[i]
        up = text.upper() if kind == "word" else text
        prev = toks[sig[pos - 1]][1].upper() if pos > 0 else ""
        nxt_kind, nxt = toks[sig[pos + 1]] if pos + 1 < len(sig) else ("", "")
        if text == "(":
            depth += 1
        elif text == ")":
            from_list.pop(depth, None)
            depth -= 1
        elif up == "FROM":
            from_list[depth] = True
        elif kind == "word" and up in _ENDS_FROM_LIST:
            from_list.pop(depth, None)
        name = _name(kind, text)
        if name is None or name not in views or prev == "." or nxt == ".":
            continue
        if not (prev in _RELATION_BEFORE or (prev == "," and from_list.get(depth))):
            continue
        has_alias = nxt.upper() == "AS" or (nxt_kind in ("word", "quoted") and nxt.upper() not in _NOT_ALIAS)
        out[i] = f"({views[name]})" + ("" if has_alias else f" AS {text}")
    return "".join(out.get(i, t) for i, (_, t) in enumerate(toks))
