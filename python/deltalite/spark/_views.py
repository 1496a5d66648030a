"""Rewrites of a statement's text that skip quoted strings, comments and quoted names:
temporary views until the engine has them (a view's query is put in place of its name where a
statement reads a relation: after FROM, JOIN, USING, or a comma in a FROM list), and
spark.sql's parameter markers (? and :name) replaced by literals. Statements are otherwise
sent as written."""

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


def bind_parameters(sql, args, literal):
    """sql with its markers replaced by literal(value): args a list for `?` markers (in order)
    or a dict for `:name` markers, as spark.sql(query, args) takes them."""
    toks = _tokens(sql)
    out, used, positional = [], set(), 0
    i = 0
    while i < len(toks):
        kind, text = toks[i]
        prev = toks[i - 1][1] if i > 0 else ""
        if text == "?" and isinstance(args, (list, tuple)):
            if positional >= len(args):
                raise ValueError(f"[UNBOUND_SQL_PARAMETER] the statement has more ? markers than the {len(args)} "
                                 f"values given")
            out.append(literal(args[positional]))
            positional += 1
        elif (text == ":" and isinstance(args, dict) and prev != ":" and i + 1 < len(toks)
              and toks[i + 1][0] == "word" and (i + 2 >= len(toks) or toks[i + 2][1] != ":")):
            name = toks[i + 1][1]
            if name not in args:
                raise ValueError(f"[UNBOUND_SQL_PARAMETER] the statement's :{name} has no value in args "
                                 f"({', '.join(args) or 'none'})")
            out.append(literal(args[name]))
            used.add(name)
            i += 1
        else:
            out.append(text)
        i += 1
    if isinstance(args, (list, tuple)) and positional != len(args):
        raise ValueError(f"spark.sql: {len(args)} values for {positional} ? markers")
    return "".join(out)
