"""tests/docs/keys.py TEMPLATE REAL [ITEM_PATH] — a document's JSON shape
(a fenced block of docs/*.md: JSON with placeholders such as R, […], `string`,
prose after a key) against a real output line (tests/docs-test.sh). The
template's first object gives the keys in order; a key written "k"?: is
optional; an object value written in the template is compared the same way
(objects inside arrays are not). The real object must have exactly the
template's keys in the template's order, optional ones left out or not.
A second template object (`Item = {…}`) is compared with every element of
the real array at ITEM_PATH (a dotted key path, `declarations`, recursively
through its `members`). Prints nothing; exit 1 with the differences."""
import json
import sys


def tokens(text):
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            yield ("s", text[i + 1:j])
            i = j + 1
        elif c in "{}[]:?,":
            yield (c, c)
            i += 1
        else:
            i += 1


def parse_objects(text):
    """The template's top-level objects: each a list of (key, optional, nested or None)."""
    toks = list(tokens(text))
    pos = 0

    def obj():
        nonlocal pos
        assert toks[pos][0] == "{"
        pos += 1
        keys = []
        while pos < len(toks) and toks[pos][0] != "}":
            t = toks[pos]
            if t[0] == "s" and pos + 1 < len(toks) and toks[pos + 1][0] in ":?":
                opt = toks[pos + 1][0] == "?"
                pos += 3 if opt else 2
                nested = None
                if pos < len(toks) and toks[pos][0] == "{":
                    nested = obj()
                keys.append((t[1], opt, nested))
            elif t[0] == "[":
                skip("[", "]")
            elif t[0] == "{":
                skip("{", "}")
            else:
                pos += 1
        pos += 1
        return keys

    def skip(o, c):
        nonlocal pos
        depth = 0
        while pos < len(toks):
            if toks[pos][0] == o:
                depth += 1
            elif toks[pos][0] == c:
                depth -= 1
                if depth == 0:
                    pos += 1
                    return
            pos += 1

    out = []
    while pos < len(toks):
        if toks[pos][0] == "{":
            out.append(obj())
        else:
            pos += 1
    return out


def compare(tmpl, real, where, errs):
    if not isinstance(real, dict):
        errs.append("%s: not an object in the real output" % where)
        return
    names = [k for k, _, _ in tmpl]
    extra = [k for k in real if k not in names]
    if extra:
        errs.append("%s: keys the document does not show: %s" % (where, ", ".join(extra)))
    want = [k for k, opt, _ in tmpl if not opt or k in real]
    got = [k for k in real if k in names]
    if want != got:
        errs.append("%s: keys %s, the document shows %s" % (where, got, want))
    for k, _, nested in tmpl:
        if nested is not None and k in real:
            compare(nested, real[k], where + "." + k, errs)


def main():
    tmpl = parse_objects(open(sys.argv[1], encoding="utf-8").read())
    real = json.loads(open(sys.argv[2], encoding="utf-8").readline())
    errs = []
    compare(tmpl[0], real, "top", errs)
    if len(sys.argv) > 3:
        def walk(items, where):
            for n, item in enumerate(items):
                compare(tmpl[1], item, "%s[%d]" % (where, n), errs)
                walk(item.get("members", []), "%s[%d].members" % (where, n))
        walk(real[sys.argv[3]], sys.argv[3])
    if errs:
        print("\n".join(errs[:5]))
        sys.exit(1)


main()
