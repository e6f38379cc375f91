"""A small Rust tokenizer: enough of Rust's lexical grammar to walk the
reference implementation's test sources (strings of every form, idents,
numbers, lifetimes and char literals, punctuation; comments dropped).

Each token is a tuple (kind, text, value): kind is 'str', 'ident', 'num',
'char', 'punct'; value is the decoded string for 'str' (None for byte
strings, whose programs we do not need), else the text.
"""

import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUM = re.compile(r"[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?")
# multi-character punctuation, longest first (a single character otherwise)
_PUNCT = ("..=", "<<=", ">>=", "...",
          "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
          "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..")


class LexError(Exception):
    pass


def _unescape(body):
    out = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        if i >= n:
            break
        e = body[i]
        i += 1
        if e == "n":
            out.append("\n")
        elif e == "t":
            out.append("\t")
        elif e == "r":
            out.append("\r")
        elif e == "0":
            out.append("\0")
        elif e in "\\\"'":
            out.append(e)
        elif e == "x":
            out.append(chr(int(body[i:i + 2], 16)))
            i += 2
        elif e == "u":
            j = body.index("}", i)
            out.append(chr(int(body[i + 1:j].replace("_", ""), 16)))
            i = j + 1
        elif e == "\n":
            # line continuation: skip the newline and leading whitespace
            while i < n and body[i] in " \t\r\n":
                i += 1
        else:
            out.append("\\" + e)
    return "".join(out)


def tokenize(text):
    toks = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            continue
        if text.startswith("/*", i):
            depth = 0
            while i < n:
                if text.startswith("/*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*/", i):
                    depth -= 1
                    i += 2
                    if depth == 0:
                        break
                else:
                    i += 1
            continue
        # raw strings: r"..", r#".."#, br#".."#
        m = re.compile(r'(b?)r(#*)"').match(text, i)
        if m:
            hashes = m.group(2)
            close = '"' + hashes
            start = m.end()
            j = text.find(close, start)
            if j < 0:
                raise LexError("unterminated raw string at %d" % i)
            body = text[start:j]
            toks.append(("str", text[i:j + len(close)],
                         None if m.group(1) else body))
            i = j + len(close)
            continue
        if c == '"' or (c == "b" and text.startswith('b"', i)):
            byte = c == "b"
            j = i + (2 if byte else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                raise LexError("unterminated string at %d" % i)
            body = text[i + (2 if byte else 1):j]
            toks.append(("str", text[i:j + 1], None if byte else _unescape(body)))
            i = j + 1
            continue
        if c == "'" or (c == "b" and text.startswith("b'", i)):
            k = i + (1 if c == "b" else 0)
            # char literal or lifetime
            m = re.compile(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]+\}|.)|[^\\'])'",
                           re.S).match(text, k)
            if m:
                toks.append(("char", text[i:m.end()], text[i:m.end()]))
                i = m.end()
                continue
            m = _IDENT.match(text, k + 1)
            if m:
                toks.append(("punct", "'" + m.group(0), "'" + m.group(0)))
                i = m.end()
                continue
            toks.append(("punct", "'", "'"))
            i += 1
            continue
        m = _IDENT.match(text, i)
        if m:
            toks.append(("ident", m.group(0), m.group(0)))
            i = m.end()
            continue
        m = _NUM.match(text, i)
        if m:
            s = m.group(0)
            if m.group(1) and not m.group(1)[1:2].isdigit():
                s = s[:s.index(".")]
            toks.append(("num", s, s))
            i += len(s)
            continue
        p = next((p for p in _PUNCT if text.startswith(p, i)), c)
        toks.append(("punct", p, p))
        i += len(p)
    return toks


_OPEN = {"(": ")", "[": "]", "{": "}"}


def match_close(toks, i):
    """Index of the bracket closing the one at toks[i]."""
    want = [_OPEN[toks[i][1]]]
    j = i + 1
    while j < len(toks):
        t = toks[j]
        if t[0] == "punct":
            if t[1] in _OPEN:
                want.append(_OPEN[t[1]])
            elif want and t[1] == want[-1]:
                want.pop()
                if not want:
                    return j
        j += 1
    return len(toks) - 1


def skip_to(toks, i, stop, nest):
    """Index of the first token from toks[i] on whose text is `stop`, a
    group opened by a bracket in `nest` skipped whole (match_close); len(toks)
    when there is none."""
    n = len(toks)
    while i < n and toks[i][1] != stop:
        if toks[i][1] in nest:
            i = match_close(toks, i)
        i += 1
    return i


def split_top(toks, sep=","):
    """Split a token list at top-level separators."""
    parts = []
    cur = []
    depth = 0
    for t in toks:
        if t[0] == "punct" and t[1] in _OPEN:
            depth += 1
        elif t[0] == "punct" and t[1] in (")", "]", "}"):
            depth -= 1
        if depth == 0 and t[0] == "punct" and t[1] == sep:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts
