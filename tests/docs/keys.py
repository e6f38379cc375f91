"""tests/docs/keys.py LIST — documents' JSON shapes
(a fenced block of docs/*.md: JSON with placeholders such as R, […], `string`,
prose after a key) against a real output line (tests/docs-test.sh). The
template's first object gives the keys in order; a key written "k"?: is
optional; an object value written in the template is compared the same way
(objects inside arrays are not); `{"a","b"}` lists keys without values. The real object must have exactly the
template's keys in the template's order, optional ones left out or not.
A second template object (`Item = {…}`) is compared with every element of
the real array at ITEM_PATH (a key, `declarations`, recursively through its
`members`). LIST has one comparison a line: WHAT, TEMPLATE, REAL and
optionally ITEM_PATH, tab-separated (one process for all: python's start is
slow). Prints each difference after its WHAT; exit 1 when there is one."""
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
            elif t[0] == "s" and pos + 1 < len(toks) and toks[pos + 1][0] in ",}" and \
                    (pos == 0 or toks[pos - 1][0] in "{,"):
                keys.append((t[1], False, None))   # the short form {"exit","stdout","stderr"}
                pos += 1
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


def check_row(what, tmpl_text, real):
    """The differences of one real object from the template text's first object."""
    errs = []
    compare(parse_objects(tmpl_text)[0], real, "top", errs)
    return ["FAIL %s: the outline's keys are not the output's:" % what] + ["  " + e for e in errs[:5]] if errs else []


def main():
    bad = 0
    for row in open(sys.argv[1], encoding="utf-8").read().splitlines():
        what, tpath, rpath, *item = row.split("\t")
        tmpl = parse_objects(open(tpath, encoding="utf-8").read())
        real = json.loads(open(rpath, encoding="utf-8").readline())
        errs = []
        compare(tmpl[0], real, "top", errs)
        if item:
            def walk(items, where):
                for n, it in enumerate(items):
                    compare(tmpl[1], it, "%s[%d]" % (where, n), errs)
                    walk(it.get("members", []), "%s[%d].members" % (where, n))
            walk(real[item[0]], item[0])
        if errs:
            print("FAIL %s: the outline's keys are not the output's:" % what)
            print("\n".join("  " + e for e in errs[:5]))
            bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
