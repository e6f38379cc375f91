#!/usr/bin/env python3
"""ownfuzz.py — ownership mutation fuzzer: hunts programs `check` accepts that
are memory-unsafe natively or make the lanes disagree.

usage: ownfuzz.py --selftest
       ownfuzz.py --bin BUILD/semaprax [--progen BUILD/progen] [--count N]
                  [--seed S] [--progen-n K] [--out DIR] [--only m_dup_arg,…]
                  [--interp-bin SANITIZED_SEMAPRAX] [--known-bin PATCHED_SEMAPRAX] [--wasm]

Seeds are tests/fixtures/run/*.spx and K programs of the random generator
(progen SEED…).  Each mutant applies 1-3 ownership-aimed token-level rewrites
to one seed (an argument duplicated into another position, an argument
wrapped in a block that first moves a live binding, re-assigns it, or moves
it into a closure / `match own`, statements swapped, duplicated, deleted, a
move inserted between a borrow and its use, a statement wrapped in a loop or
an if branch, a use renamed to another binding, a lent argument that
hir/lastuse.c may move at its last use read again later).  Most mutants fail `check`;
each that checks clean runs in the interpreter (`run`) and natively (`run
--native`) under ASan+UBSan and the runtime's leak check (the environment of
tests/lane-lib.sh lane_sanitize_env), and the two runs are compared with
lane-lib's lane_compare.  A sanitizer report, an interpreter crash (signal)
or a disagreement is a finding, written to OUT/findings/NNNN.spx with a .txt
beside it (mutations applied, the reason).  Deterministic for a seed: the
mutant list depends only on --seed, --count and the seed programs.
"""
import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- a small tokenizer: enough to find brackets, calls and statements ------

TOK = re.compile(r'''
    (?P<ws>\s+)
  | (?P<com>//[^\n]*)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<chr>'(?:[^'\\]|\\.)+')
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>[0-9][0-9A-Za-z_.]*)
  | (?P<op>->|=>|==|!=|<=|>=|&&|\|\||::|.)
''', re.S | re.X)

KEYWORDS = {
    'fn', 'let', 'mut', 'if', 'else', 'while', 'for', 'in', 'match', 'own',
    'borrow', 'return', 'true', 'false', 'record', 'variant', 'class', 'module',
    'import', 'requires', 'ensures', 'result', 'with', 'self', 'const', 'type',
    'use', 'pub', 'break', 'continue', 'loop', 'trait', 'impl', 'extern',
}


def tokenize(text):
    """[(kind, start, end)] without whitespace and comments."""
    out = []
    for m in TOK.finditer(text):
        k = m.lastgroup
        if k in ('ws', 'com'):
            continue
        out.append((k, m.start(), m.end()))
    return out


def match_brackets(text, toks):
    """index of the matching bracket for each (, [, { token (and back)."""
    pair = {}
    stack = []
    for i, (k, s, e) in enumerate(toks):
        if k != 'op':
            continue
        c = text[s:e]
        if c in '([{':
            stack.append(i)
        elif c in ')]}':
            if stack:
                j = stack.pop()
                pair[i] = j
                pair[j] = i
    return pair


class Prog:
    def __init__(self, text):
        self.text = text
        self.toks = tokenize(text)
        self.pair = match_brackets(text, self.toks)

    def t(self, i):
        k, s, e = self.toks[i]
        return self.text[s:e]

    def fn_bodies(self):
        """[(name, open_idx, close_idx, params)] of every `fn` with a body."""
        out = []
        toks = self.toks
        n = len(toks)
        i = 0
        while i < n:
            if toks[i][0] == 'id' and self.t(i) == 'fn' and i + 1 < n:
                # a named fn, or a closure `fn(`
                j = i + 1
                name = self.t(j) if toks[j][0] == 'id' else None
                while j < n and self.t(j) != '(':
                    j += 1
                if j >= n or j not in self.pair:
                    i += 1
                    continue
                pclose = self.pair[j]
                params = []
                k = j + 1
                depth = 0
                expect_name = True
                while k < pclose:
                    c = self.t(k)
                    if c in '([{<':
                        depth += 1
                    elif c in ')]}>':
                        depth -= 1
                    elif c == ',' and depth == 0:
                        expect_name = True
                    elif expect_name and toks[k][0] == 'id' and c not in KEYWORDS:
                        if k + 1 < pclose and self.t(k + 1) == ':':
                            params.append(c)
                            expect_name = False
                    k += 1
                # the body: the first `{` after the signature at depth 0
                k = pclose + 1
                while k < n and self.t(k) not in ('{', ';', '}'):
                    if self.t(k) in '([' and k in self.pair:
                        k = self.pair[k]
                    k += 1
                if k < n and self.t(k) == '{' and k in self.pair:
                    out.append((name, k, self.pair[k], params))
                i = pclose + 1
                continue
            i += 1
        return out

    def blocks(self):
        """every `{ … }` token pair that looks like a statement block
        (its content has a top-level `;` or starts with `let`)."""
        out = []
        for i, (k, s, e) in enumerate(self.toks):
            if k == 'op' and self.t(i) == '{' and i in self.pair:
                j = self.pair[i]
                if j > i:
                    out.append((i, j))
        return out

    def stmt_blocks(self):
        """blocks that hold statements: bodies, branches, arms, loop bodies,
        block expressions (not record literals or empty payload braces)."""
        bodies = {f[1] for f in self.fn_bodies()}
        out = []
        for (bo, bc) in self.blocks():
            if bc == bo + 1:
                continue
            if bo not in bodies:
                prev = self.t(bo - 1) if bo > 0 else ''
                if prev == '>' or (self.toks[bo - 1][0] == 'id' and prev[:1].isupper()):
                    continue
                if bo + 2 < bc and self.toks[bo + 1][0] == 'id' and self.t(bo + 2) == ':':
                    continue
            out.append((bo, bc))
        return out

    def var_kind(self, fn, name):
        """'string', 'bytes' or None: a binding's type guessed from its
        parameter type or its initializer."""
        fname, op, cl, params = fn
        for (i, n, mut, f, semi) in self.lets(op, cl):
            if n == name:
                init = self.span(f, semi - 1) if f < semi else ''
                if re.match(r'(string_concat|string_from|string_slice|")', init):
                    return 'string'
                if re.match(r'bytes_(zeroed|set|copy|from)', init):
                    return 'bytes'
                return None
        # a parameter: find `name : type` in the signature
        j = op - 1
        while j > 0 and self.t(j) != 'fn':
            if self.t(j) == name and self.t(j + 1) == ':':
                k = j + 2
                while self.t(k) in ('own', 'borrow'):
                    k += 1
                ty = self.t(k)
                return {'string': 'string', 'Bytes': 'bytes'}.get(ty)
            j -= 1
        return None

    def split_top(self, lo, hi, sep):
        """tokens lo..hi-1 split at each `sep` outside brackets:
        ([(first, sep_tok)] for each non-empty piece ending in sep, first
        token of the trailing piece)."""
        out = []
        i = start = lo
        while i < hi:
            c = self.t(i)
            if c in '([{' and i in self.pair:
                # a bracketed group (a block-statement `while … { }` ends
                # at its brace when a new statement starts after it)
                i = self.pair[i] + 1
                continue
            if c == sep:
                if start < i:
                    out.append((start, i))
                start = i + 1
            i += 1
        return out, start

    def statements(self, op, cl):
        """top-level statements inside block (op, cl): [(first_tok, semi_tok)]
        each ending in `;` (the tail expression is left out)."""
        return self.split_top(op + 1, cl, ';')[0]

    def calls(self, lo=0, hi=None):
        """[(name_idx, open_idx, close_idx, [(arg_first, arg_last)])]."""
        hi = len(self.toks) if hi is None else hi
        out = []
        for i in range(lo, hi - 1):
            k = self.toks[i][0]
            if k != 'id' or self.t(i) in KEYWORDS:
                continue
            if i > 0 and self.t(i - 1) in ('fn', '@'):
                continue
            j = i + 1
            if self.t(j) == '<':
                # generic arguments: skip to the matching `>`
                d = 0
                while j < hi:
                    if self.t(j) == '<':
                        d += 1
                    elif self.t(j) == '>':
                        d -= 1
                        if d == 0:
                            break
                    elif self.t(j) in (';', '{', '}'):
                        break
                    j += 1
                j += 1
            if j >= hi or self.t(j) != '(' or j not in self.pair:
                continue
            cl = self.pair[j]
            pieces, a = self.split_top(j + 1, cl, ',')
            args = [(f, c - 1) for (f, c) in pieces]
            if a < cl:
                args.append((a, cl - 1))
            out.append((i, j, cl, args))
        return out

    def span(self, a, b):
        """source text of tokens a..b inclusive."""
        return self.text[self.toks[a][1]:self.toks[b][2]]

    def lets(self, op, cl):
        """[(tok_idx, name, mutable, init_first, init_semi)] inside (op, cl)."""
        out = []
        i = op + 1
        while i < cl:
            if self.t(i) == 'let' and self.toks[i][0] == 'id':
                j = i + 1
                mut = False
                if self.t(j) == 'mut':
                    mut = True
                    j += 1
                if self.toks[j][0] == 'id':
                    name = self.t(j)
                    # initializer: after `=` to the `;` at depth 0
                    k = j + 1
                    while k < cl and self.t(k) not in ('=', ';'):
                        k += 1
                    if k < cl and self.t(k) == '=':
                        f = k + 1
                        m = f
                        while m < cl and self.t(m) != ';':
                            if self.t(m) in '([{' and m in self.pair:
                                m = self.pair[m]
                            m += 1
                        out.append((i, name, mut, f, m))
            i += 1
        return out


def replace(text, s, e, new):
    return text[:s] + new + text[e:]


# ---- mutations -------------------------------------------------------------


class Mutator:
    def __init__(self, rng):
        self.rng = rng
        self.fresh = 0

    def name(self):
        self.fresh += 1
        return 'mq%d' % self.fresh

    def pick_fn(self, p):
        fns = [f for f in p.fn_bodies() if f[0] is not None]
        if not fns:
            return None
        return self.rng.choice(fns)

    def live(self, p, fn, before_tok):
        """bindings visible (textually) before a token of fn: params and lets."""
        name, op, cl, params = fn
        names = list(params)
        for (i, n, mut, f, semi) in p.lets(op, cl):
            if semi < before_tok:
                names.append(n)
        return [n for n in names if n != 'self'] + (['self'] if 'self' in params else [])

    def pick_call(self, p, fn, minargs=1):
        name, op, cl, params = fn
        cs = [c for c in p.calls(op, cl) if len(c[3]) >= minargs]
        if not cs:
            return None
        return self.rng.choice(cs)

    def mutable_lets(self, p, fn, before_tok):
        name, op, cl, params = fn
        return [(n, p.span(f, semi - 1)) for (i, n, mut, f, semi) in p.lets(op, cl)
                if mut and semi < before_tok and f < semi]

    # each returns (new_text, description) or None
    def m_dup_arg(self, p):
        fn = self.pick_fn(p)
        c = fn and self.pick_call(p, fn, 2)
        if not c:
            return None
        args = c[3]
        i, j = self.rng.sample(range(len(args)), 2)
        src = p.span(*args[i])
        a, b = args[j]
        return (replace(p.text, p.toks[a][1], p.toks[b][2], src),
                'dup_arg %s: arg %d := arg %d (%s)' % (p.t(c[0]), j, i, src[:40]))

    def _arg_wrap(self, p, kind):
        fn = self.pick_fn(p)
        c = fn and self.pick_call(p, fn, 1)
        if not c:
            return None
        args = c[3]
        live = self.live(p, fn, c[0])
        if not live:
            return None
        # prefer a binding that another argument of the call mentions
        mentioned = []
        for (a, b) in args:
            for k in range(a, b + 1):
                if p.toks[k][0] == 'id' and p.t(k) in live:
                    mentioned.append(p.t(k))
        j = self.rng.randrange(len(args))
        a, b = args[j]
        arg = p.span(a, b)
        x = self.rng.choice(mentioned) if mentioned and self.rng.random() < 0.8 else self.rng.choice(live)
        m = self.name()
        if kind == 'move':
            new = '{ let %s = %s; %s }' % (m, x, arg)
        elif kind == 'closure':
            f1 = self.one_param_fns(p)
            if not f1:
                return None
            own = self.rng.choice(['own ', 'own ', ''])
            call = self.rng.choice(['let %s = %s(); ' % (self.name(), m), ''])
            new = '{ let %s = %sfn() -> i64 { %s(%s) }; %s%s }' % (m, own, self.rng.choice(f1), x, call, arg)
        elif kind == 'take':
            f1 = self.one_param_fns(p)
            if not f1:
                return None
            new = '{ let %s = %s(%s); %s }' % (m, self.rng.choice(f1), x, arg)
        elif kind == 'match':
            q = self.name()
            new = '{ let %s = match own %s { %s => 0 }; %s }' % (m, x, q, arg)
        elif kind == 'reassign':
            ml = self.mutable_lets(p, fn, c[0])
            if not ml:
                return None
            x, init = self.rng.choice(ml)
            new = '{ %s = %s; %s }' % (x, init, arg)
        elif kind == 'binding':
            new = x
        else:
            return None
        return (replace(p.text, p.toks[a][1], p.toks[b][2], new),
                'arg_%s %s: arg %d := %s' % (kind, p.t(c[0]), j, new[:80]))

    def one_param_fns(self, p):
        return [f[0] for f in p.fn_bodies() if f[0] and len(f[3]) == 1 and f[0] != 'main']

    def m_take_arg(self, p):
        return self._arg_wrap(p, 'take')

    def m_move_arg(self, p):
        return self._arg_wrap(p, 'move')

    def m_closure_arg(self, p):
        return self._arg_wrap(p, 'closure')

    def m_match_arg(self, p):
        return self._arg_wrap(p, 'match')

    def m_reassign_arg(self, p):
        return self._arg_wrap(p, 'reassign')

    def m_binding_arg(self, p):
        return self._arg_wrap(p, 'binding')

    def pick_stmt(self, p, need=1):
        blocks = [b for b in p.stmt_blocks() if len(p.statements(*b)) >= need]
        if not blocks:
            return None
        b = self.rng.choice(blocks)
        return b, p.statements(*b)

    def m_swap(self, p):
        r = self.pick_stmt(p, 2)
        if not r:
            return None
        b, st = r
        i = self.rng.randrange(len(st) - 1)
        (a1, s1), (a2, s2) = st[i], st[i + 1]
        t1 = p.text[p.toks[a1][1]:p.toks[s1][2]]
        t2 = p.text[p.toks[a2][1]:p.toks[s2][2]]
        s, e = p.toks[a1][1], p.toks[s2][2]
        mid = p.text[p.toks[s1][2]:p.toks[a2][1]]
        return (replace(p.text, s, e, t2 + mid + t1), 'swap: %s <-> %s' % (t1[:40], t2[:40]))

    def m_dup_stmt(self, p):
        r = self.pick_stmt(p)
        if not r:
            return None
        b, st = r
        a, s = self.rng.choice(st)
        t = p.text[p.toks[a][1]:p.toks[s][2]]
        if t.startswith('let'):
            return None
        e = p.toks[s][2]
        return (p.text[:e] + ' ' + t + p.text[e:], 'dup_stmt: %s' % t[:60])

    def m_del_stmt(self, p):
        r = self.pick_stmt(p)
        if not r:
            return None
        b, st = r
        a, s = self.rng.choice(st)
        t = p.text[p.toks[a][1]:p.toks[s][2]]
        return (replace(p.text, p.toks[a][1], p.toks[s][2], ''), 'del_stmt: %s' % t[:60])

    def _insert(self, p, build, what):
        fn = self.pick_fn(p)
        if not fn:
            return None
        name, op, cl, params = fn
        # a position: after a statement of any block of fn, or at a block's
        # start (loop bodies, match arms and branches too)
        cands = []
        for (bo, bc) in p.stmt_blocks():
            if op <= bo and bc <= cl:
                cands.append(bo)
                cands += [s for (a, s) in p.statements(bo, bc)]
        if not cands:
            return None
        pos = self.rng.choice(cands)
        live = self.live(p, fn, pos + 1)
        if not live:
            return None
        x = self.rng.choice(live)
        code = build(x, fn, pos)
        if code is None:
            return None
        e = p.toks[pos][2]
        return (p.text[:e] + ' ' + code + p.text[e:], '%s: %s' % (what, code[:80]))

    def _positions(self, p, fn):
        """[(pos_tok, block_open, block_close)] after which a statement may go."""
        name, op, cl, params = fn
        out = []
        for (bo, bc) in p.stmt_blocks():
            if op <= bo and bc <= cl:
                out.append((bo, bo, bc))
                out += [(s, bo, bc) for (a, s) in p.statements(bo, bc)]
        return out

    def _change(self, p, fn, x, pos):
        """a statement that moves or replaces x."""
        ml = [(n, init) for (n, init) in self.mutable_lets(p, fn, pos + 1) if n == x]
        kind = p.var_kind(fn, x)
        f1 = [f[0] for f in p.fn_bodies() if f[0] and len(f[3]) == 1 and f[0] != 'main'
              and (kind is None or p.var_kind(f, f[3][0]) == kind)]
        opts = ['let %s = %s;' % (self.name(), x)]
        if f1:
            opts.append('let %s = %s(%s);' % (self.name(), self.rng.choice(f1), x))
        if ml:
            opts += ['%s = %s;' % (x, ml[0][1])] * 2
        return self.rng.choice(opts)

    def m_view_pair(self, p):
        """a view of x taken early and read later, with a move or a
        replacement of x between them (in a branch, a loop, or plainly)."""
        for _ in range(12):
            r = self._view_pair(p)
            if r:
                return r
        return None

    def _view_pair(self, p):
        fn = self.pick_fn(p)
        if not fn:
            return None
        pos = self._positions(p, fn)
        if len(pos) < 2:
            return None
        p1, bo, bc = self.rng.choice(pos)
        later = [q for q in pos if q[0] > p1 and bo < q[0] < bc]
        live = [(x, p.var_kind(fn, x)) for x in self.live(p, fn, p1 + 1)]
        live = [(x, k) for (x, k) in live if k]
        if not later or not live:
            return None
        x, kind = self.rng.choice(live)
        p2 = self.rng.choice(later)[0]
        vw = self.name()
        view, use = {'string': ('string_as_str(%s)', 'str_len_bytes(%s)'),
                     'bytes': ('bytes_as_slice(%s)', 'i64_from_usize(byte_len(%s))')}[kind]
        first = 'let %s = %s;' % (vw, view % x)
        use_s = 'let %s = %s;' % (self.name(), use % vw)
        ch = self._change(p, fn, x, p1)
        shape = self.rng.choice(['plain', 'branch', 'loop', 'loop_use', 'none'])
        if shape == 'branch':
            ch = 'let %s = if string_len("ab") > 1 { %s 0 } else { 0 };' % (self.name(), ch)
        elif shape == 'loop':
            k = self.name()
            ch = 'let mut %s = 0; while %s < 2 { %s %s = %s + 1; 0 }' % (k, k, ch, k, k)
        elif shape == 'loop_use':
            # the read and the change in one loop: the next pass reads a
            # view of the replaced (or moved) value
            k = self.name()
            use_s = 'let mut %s = 0; while %s < 3 { %s %s %s = %s + 1; 0 }' % (k, k, use_s, ch, k, k)
            ch = ''
        elif shape == 'none':
            ch = ''
        t = p.text
        e1, e2 = p.toks[p1][2], p.toks[p2][2]
        # the change goes right after the view, the read after p2
        t = t[:e1] + ' ' + first + ' ' + ch + t[e1:e2] + ' ' + use_s + t[e2:]
        return (t, 'view_pair(%s): %s … %s … %s' % (shape, first, ch[:60], use_s[:60]))

    def fields(self, p):
        """field names of the program's records and classes (`name: type,`
        at the top level of a `record`/`class` body)."""
        out = []
        for i in range(len(p.toks) - 2):
            if p.t(i) in ('record', 'class') and p.toks[i + 1][0] == 'id':
                j = i + 2
                while j < len(p.toks) and p.t(j) != '{':
                    j += 1
                if j not in p.pair:
                    continue
                for k in range(j + 1, p.pair[j]):
                    if (p.toks[k][0] == 'id' and p.t(k + 1) == ':' and p.t(k - 1) in ('{', ',', ')')
                            and p.t(k) not in KEYWORDS):
                        out.append(p.t(k))
        return sorted(set(out))

    def m_field_move(self, p):
        """a field of a live binding moved (plainly, into a taking call, by
        `match own`) before an argument, or after a statement."""
        fs = self.fields(p)
        if not fs:
            return None
        f = self.rng.choice(fs)
        if self.rng.random() < 0.5:
            fn = self.pick_fn(p)
            c = fn and self.pick_call(p, fn, 1)
            if not c:
                return None
            live = self.live(p, fn, c[0])
            if not live:
                return None
            x = self.rng.choice(live)
            j = self.rng.randrange(len(c[3]))
            a, b = c[3][j]
            arg = p.span(a, b)
            new = '{ let %s = %s.%s; %s }' % (self.name(), x, f, arg)
            return (replace(p.text, p.toks[a][1], p.toks[b][2], new),
                    'field_move %s: arg %d := %s' % (p.t(c[0]), j, new[:80]))
        return self._insert(p, lambda x, fn, pos: 'let %s = %s.%s;' % (self.name(), x, f), 'field_move')

    def m_place_wrap(self, p):
        for _ in range(12):
            r = self._place_wrap(p)
            if r:
                return r
        return None

    def _place_wrap(self, p):
        """an argument that is a place (`x`, `x.f`) given through a block, a
        block with a statement, an `if` or a `match`, and a later argument
        that moves or takes the place's root."""
        fn = self.pick_fn(p)
        c = fn and self.pick_call(p, fn, 2)
        if not c:
            return None
        args = c[3]
        places = [k for k, (a, b) in enumerate(args[:-1])
                  if p.toks[a][0] == 'id' and re.fullmatch(r'[A-Za-z_]\w*(\.[A-Za-z_]\w*)*',
                                                          p.span(a, b).replace(' ', ''))]
        if not places:
            return None
        i = self.rng.choice(places)
        a, b = args[i]
        place = p.span(a, b)
        root = place.split('.')[0]
        wrap = self.rng.choice(['{ %s }', '{ let %s = 1; %%s }' % self.name(),
                                'if string_len("ab") > 1 { %s } else { %s }',
                                'match 1 { 1 => %s, _ => %s }'])
        new_i = wrap.replace('%s', place) if '%%s' not in wrap else wrap.replace('%%s', place)
        edits = [(a, b, new_i)]
        if self.rng.random() < 0.8:
            j = self.rng.randrange(i + 1, len(args))
            ja, jb = args[j]
            f1 = self.one_param_fns(p)
            mv = self.rng.choice(['let %s = %s;' % (self.name(), root)] +
                                 (['let %s = %s(%s);' % (self.name(), self.rng.choice(f1), root)] if f1 else []))
            edits.append((ja, jb, '{ %s %s }' % (mv, p.span(ja, jb))))
        t = p.text
        for (x, y, r) in sorted(edits, reverse=True):
            t = replace(t, p.toks[x][1], p.toks[y][2], r)
        return (t, 'place_wrap %s: %s' % (p.t(c[0]), ' | '.join(e[2][:60] for e in edits)))

    def m_insert_move(self, p):
        return self._insert(p, lambda x, fn, pos: 'let %s = %s;' % (self.name(), x), 'insert_move')

    def m_insert_take(self, p):
        f1 = self.one_param_fns(p)
        if not f1:
            return None
        return self._insert(p, lambda x, fn, pos: 'let %s = %s(%s);' % (self.name(), self.rng.choice(f1), x),
                            'insert_take')

    def m_loop_move(self, p):
        def b(x, fn, pos):
            k, m = self.name(), self.name()
            return 'let mut %s = 0; while %s < 2 { let %s = %s; %s = %s + 1; 0 }' % (k, k, m, x, k, k)
        return self._insert(p, b, 'loop_move')

    def m_branch_move(self, p):
        def b(x, fn, pos):
            k, m = self.name(), self.name()
            arm = self.rng.choice([0, 1])
            mv = 'let %s = %s; 0' % (m, x)
            a1, a2 = (mv, '0') if arm == 0 else ('0', mv)
            return 'let %s = if string_len("ab") > 1 { %s } else { %s };' % (k, a1, a2)
        return self._insert(p, b, 'branch_move')

    def m_insert_reassign(self, p):
        def b(x, fn, pos):
            ml = self.mutable_lets(p, fn, pos + 1)
            if not ml:
                return None
            x, init = self.rng.choice(ml)
            return '%s = %s;' % (x, init)
        return self._insert(p, b, 'insert_reassign')

    def _wrap_stmt(self, p, tag, shape):
        """a statement (not a `let`) rewritten as shape % (fresh name, text)."""
        r = self.pick_stmt(p)
        if not r:
            return None
        b, st = r
        a, s = self.rng.choice(st)
        t = p.text[p.toks[a][1]:p.toks[s][2]]
        if t.startswith('let'):
            return None
        k = self.name()
        return (replace(p.text, p.toks[a][1], p.toks[s][2], shape(k, t)), '%s: %s' % (tag, t[:60]))

    def m_wrap_loop(self, p):
        return self._wrap_stmt(p, 'wrap_loop',
                               lambda k, t: 'let mut %s = 0; while %s < 2 { %s %s = %s + 1; 0 }' % (k, k, t, k, k))

    def m_wrap_if(self, p):
        return self._wrap_stmt(p, 'wrap_if',
                               lambda k, t: 'let %s = if string_len("ab") > 1 { %s 0 } else { 0 };' % (k, t))

    def m_tail_closure(self, p):
        """the function's tail expression evaluated inside an owning closure
        called at once."""
        fn = self.pick_fn(p)
        if not fn:
            return None
        name, op, cl, params = fn
        st = p.statements(op, cl)
        first = (st[-1][1] + 1) if st else op + 1
        if first >= cl:
            return None
        tail = p.span(first, cl - 1)
        live = self.live(p, fn, cl)
        if not live:
            return None
        x = self.rng.choice(live)
        f1 = self.one_param_fns(p)
        if not f1:
            return None
        m = self.name()
        new = 'let %s = own fn() -> i64 { %s(%s) }; let %s = %s(); %s' % (
            m, self.rng.choice(f1), x, self.name(), m, tail)
        return (replace(p.text, p.toks[first][1], p.toks[cl - 1][2], new), 'tail_closure: moves %s' % x)

    def m_rename_use(self, p):
        fn = self.pick_fn(p)
        if not fn:
            return None
        name, op, cl, params = fn
        live_all = self.live(p, fn, cl)
        uses = [i for i in range(op + 1, cl) if p.toks[i][0] == 'id' and p.t(i) in live_all
                and p.t(i - 1) not in ('let', 'mut', '.')]
        if not uses or len(live_all) < 2:
            return None
        i = self.rng.choice(uses)
        others = [n for n in self.live(p, fn, i) if n != p.t(i)]
        if not others:
            return None
        y = self.rng.choice(others)
        return (replace(p.text, p.toks[i][1], p.toks[i][2], y), 'rename_use: %s -> %s' % (p.t(i), y))

    # builtins with an argument hir/lastuse.c may move at its last use, and
    # those that only read (a repeat of the call is a later read of all its
    # arguments)
    LASTUSE = ('map_set', 'map_add', 'set_insert', 'map_get_or', 'vec_clone_at',
               'map_value_at', 'map_key_at', 'set_key_at')
    READERS = ('map_get_or', 'vec_clone_at', 'map_value_at', 'map_key_at', 'set_key_at')

    def m_late_read(self, p):
        """a call whose lent argument a last use may move (hir/lastuse.c)
        read again after a later statement of the function (in any block:
        loop bodies, arms, branches): the reading call repeated, or the
        key or collection read through map_has/set_has/string_len, plainly,
        in a statement if, or in a loop."""
        fn = self.pick_fn(p)
        if not fn:
            return None
        name, op, cl, params = fn
        cs = [c for c in p.calls(op, cl) if p.t(c[0]) in self.LASTUSE and len(c[3]) >= 2]
        if not cs:
            return None
        c = self.rng.choice(cs)
        callee = p.t(c[0])
        targs = p.span(c[0] + 1, c[1] - 1) if c[1] > c[0] + 1 else ''
        args = [p.span(a, b) for (a, b) in c[3]]
        pos = [q for (q, bo, bc) in self._positions(p, fn) if q > c[2]]
        if not pos:
            return None
        q = self.rng.choice(pos)
        ident = [bool(re.fullmatch(r'[A-Za-z_]\w*(\.[A-Za-z_]\w*)*', a)) for a in args]
        opts = []
        if callee in self.READERS and any(ident):
            opts.append(p.span(c[0], c[2]))
        # (a generic argument list's comma splits args: a binding first
        # argument and two or three pieces keep to well-formed calls)
        if ident[0] and len(args) == (2 if callee == 'set_insert' else 3):
            if callee in ('map_set', 'map_add', 'map_get_or'):
                opts.append('map_has%s(%s, %s)' % (targs, args[0], args[1]))
            if callee == 'set_insert':
                opts.append('set_has%s(%s, %s)' % (targs, args[0], args[1]))
        for a in args[1:]:
            if re.fullmatch(r'[A-Za-z_]\w*', a) and p.var_kind(fn, a) == 'string':
                opts.append('string_len(%s)' % a)
        if not opts:
            return None
        read = 'let %s = %s;' % (self.name(), self.rng.choice(opts))
        shape = self.rng.choice(['plain', 'plain', 'if', 'loop'])
        if shape == 'if':
            read = 'if string_len("ab") > 1 { %s }' % read
        elif shape == 'loop':
            k = self.name()
            read = 'let mut %s = 0; while %s < 2 { %s %s = %s + 1; 0 }' % (k, k, read, k, k)
        e = p.toks[q][2]
        return (p.text[:e] + ' ' + read + p.text[e:], 'late_read(%s): %s' % (shape, read[:80]))

    MUTS = ['m_take_arg', 'm_dup_arg', 'm_move_arg', 'm_closure_arg', 'm_match_arg', 'm_reassign_arg',
            'm_binding_arg', 'm_insert_take', 'm_swap', 'm_dup_stmt', 'm_del_stmt', 'm_insert_move',
            'm_loop_move', 'm_branch_move', 'm_insert_reassign', 'm_wrap_loop', 'm_wrap_if',
            'm_tail_closure', 'm_rename_use', 'm_view_pair', 'm_field_move', 'm_place_wrap',
            'm_late_read']
    WEIGHTS = [4, 3, 4, 2, 1, 1, 2, 3, 3, 2, 1, 2, 2, 2, 1, 2, 2, 1, 3, 6, 3, 4, 3]

    def mutate(self, text):
        n = self.rng.choice([1, 1, 2, 2, 3])
        log = []
        for _ in range(n):
            for _try in range(8):
                m = self.rng.choices(self.MUTS, self.WEIGHTS)[0]
                try:
                    r = getattr(self, m)(Prog(text))
                except (IndexError, KeyError, ValueError):
                    r = None
                if r and r[0] != text:
                    text = r[0]
                    log.append(r[1])
                    break
        return text, log


# ---- the oracle ------------------------------------------------------------

SAN_ENV = {
    'SEMAPRAX_NATIVE_CFLAGS': '-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all '
                              '-fno-omit-frame-pointer -DSPX_CHECK_LEAKS',
    'ASAN_OPTIONS': 'abort_on_error=0:detect_leaks=1:exitcode=99',
    'UBSAN_OPTIONS': 'halt_on_error=1:print_stacktrace=1',
    'NO_COLOR': '1',
}
SAN_MARKS = ('AddressSanitizer', 'LeakSanitizer', 'runtime error:', 'UndefinedBehaviorSanitizer')


def run(cmd, cwd, env=None, timeout=30):
    e = dict(os.environ)
    e['NO_COLOR'] = '1'
    if env:
        e.update(env)
    try:
        r = subprocess.run(cmd, cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', b'', b''


def lane_compare(tmp, ist, io, ie, nst, no, ne):
    """lane-lib.sh's lane_compare on one program's two runs: '' or the reason."""
    for n, d in (('io', io), ('ie', ie), ('no', no), ('ne', ne)):
        with open(os.path.join(tmp, n), 'wb') as f:
            f.write(d)
    sh = ('. "%s/tests/lane-lib.sh"; if lane_compare %d %d io ie no ne; then :; '
          'else printf "%%s" "$lane_why"; fi') % (ROOT, ist, nst)
    r = subprocess.run(['sh', '-c', sh], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return r.stdout.decode('utf-8', 'replace')


def judge(binp, f, tmp, ibin=None, wasm=False):
    """None (check rejects), ('refused', why), ('ok', '') or ('finding', why)."""
    st, out, err = run([binp, 'check', f], tmp, timeout=20)
    if st != 0:
        return None
    ist, io, ie = run([ibin or binp, 'run', f], tmp, timeout=60,
                      env={'ASAN_OPTIONS': 'detect_leaks=0:exitcode=99'})
    if ist == 'timeout':
        return ('refused', 'interpreter timeout')
    iline = ie.split(b'\n', 1)[0].decode('utf-8', 'replace')
    itext = ie.decode('utf-8', 'replace')
    for mark in SAN_MARKS:
        if mark in itext:
            line = next((l for l in itext.split('\n') if mark in l), iline)
            frame = next((l.strip() for l in itext.split('\n') if re.match(r'\s*#[0-9]+ ', l)
                          and 'libasan' not in l and 'libubsan' not in l), '')
            return ('finding', 'interpreter sanitizer: %s | %s' % (line.strip()[:160], frame[:160]))
    if ist < 0:
        return ('finding', 'interpreter crashed (status %s): %s' % (ist, iline))
    if iline.startswith('single-file execution exhausted its step budget') or 'heap limit' in iline:
        return ('refused', iline)
    limit = (iline.startswith('single-file execution stopped at an interpreter limit')
             and 'heap limit' not in iline)
    nst, no, ne = run([binp, 'run', '--native', f], tmp, env=SAN_ENV, timeout=120)
    if nst == 'timeout':
        return ('refused', 'native timeout')
    ntext = ne.decode('utf-8', 'replace')
    nline = ntext.split('\n', 1)[0]
    if nline.startswith('error[SPX-B110]'):
        return ('refused', nline)
    for mark in SAN_MARKS:
        if mark in ntext:
            line = next((l for l in ntext.split('\n') if mark in l), nline)
            frame = next((l.strip() for l in ntext.split('\n') if re.match(r'\s*#[0-9]+ ', l)
                          and 'libasan' not in l and 'libubsan' not in l), '')
            return ('finding', 'native sanitizer: %s | %s' % (line.strip()[:160], frame[:160]))
    if nst < 0 or (nst in (74, 99) and nst != ist):
        return ('finding', 'native status %s: %s' % (nst, nline))
    if limit:
        return ('limit', '%s (native exit %s: %s)' % (iline, nst, nline[:80]))
    why = lane_compare(tmp, ist, io, ie, nst, no, ne)
    if why:
        return ('finding', 'lanes disagree: ' + why)
    if wasm:
        # as tests/random-test.sh: the Wasm lane's three channels equal the
        # native lane's, its runtime's leak check on
        wst, wo, we = run([binp, 'run', '--wasm', f], tmp, env={'SEMAPRAX_CHECK_LEAKS': '1'}, timeout=60)
        wline = we.split(b'\n', 1)[0].decode('utf-8', 'replace')
        if wst == 'timeout' or wline.startswith('error[SPX-W110]'):
            return ('ok', '')
        if (wst, wo, we) != (nst, no, ne):
            return ('finding', 'Wasm lane differs: exit %s vs native %s: %s' % (wst, nst, wline[:120]))
    return ('ok', '')


def seeds(progen, n, base):
    out = []
    d = os.path.join(ROOT, 'tests', 'fixtures', 'run')
    for fn in sorted(os.listdir(d)):
        if fn.endswith('.spx'):
            with open(os.path.join(d, fn)) as f:
                out.append(('run/' + fn, f.read()))
    d = os.path.join(ROOT, 'tools', 'ownfuzz_seeds')
    for fn in sorted(os.listdir(d)):
        if fn.endswith('.spx'):
            with open(os.path.join(d, fn)) as f:
                out.append(('ownfuzz_seeds/' + fn, f.read()))
    if progen and n > 0:
        for s in range(base, base + n):
            r = subprocess.run([progen, str(s)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if r.returncode == 0:
                out.append(('progen %d' % s, r.stdout.decode()))
    return out


def selftest():
    """the parsing helpers on a known text, and one seed's mutants twice:
    the same bytes (determinism); returns the number of failures."""
    bad = 0
    t = 'module m;\nfn f(a: i64, b: borrow R) -> i64\n{\n    let x = g<i64>(a, h(b, "s,)"));\n    x\n}\n'
    p = Prog(t)
    fns = p.fn_bodies()
    calls = [(p.t(c[0]), [p.span(a, b) for (a, b) in c[3]]) for c in p.calls()]
    checks = [
        ([(f[0], f[3]) for f in fns], [('f', ['a', 'b'])]),
        (calls, [('g', ['a', 'h(b, "s,)")']), ('h', ['b', '"s,)"'])]),
        ([p.span(a, s) for (a, s) in p.statements(fns[0][1], fns[0][2])],
         ['let x = g<i64>(a, h(b, "s,)"));']),
    ]
    for got, want in checks:
        if got != want:
            print('ownfuzz selftest: got %r, want %r' % (got, want))
            bad += 1
    seed = seeds(None, 0, 0)[0][1]
    a = [Mutator(random.Random('7/%d' % i)).mutate(seed) for i in range(20)]
    b = [Mutator(random.Random('7/%d' % i)).mutate(seed) for i in range(20)]
    if a != b:
        print('ownfuzz selftest: mutants differ between two runs of one seed')
        bad += 1
    return bad


def main():
    if sys.argv[1:] == ['--selftest']:
        bad = selftest()
        print('ownfuzz selftest: %s' % ('ok' if not bad else '%d failed' % bad))
        return 1 if bad else 0
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', required=True)
    ap.add_argument('--progen')
    ap.add_argument('--known-bin', help='a semaprax with candidate checker fixes: a finding it '
                    'rejects is counted as known')
    ap.add_argument('--wasm', action='store_true', help='compare the Wasm lane (node) with native too')
    ap.add_argument('--interp-bin', help='a sanitizer build of semaprax for the `run` lane')
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--progen-n', type=int, default=60)
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'ownfuzz'))
    ap.add_argument('--only', help='comma-separated mutation names (m_dup_arg,…)')
    args = ap.parse_args()
    binp = os.path.abspath(args.bin)
    progen = os.path.abspath(args.progen) if args.progen else None
    base = seeds(progen, args.progen_n, 1000 + args.seed * 100)
    fdir = os.path.join(args.out, 'findings')
    os.makedirs(fdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='ownfuzz')
    stats = {'rejected': 0, 'ok': 0, 'refused': 0, 'limit': 0, 'finding': 0, 'dup': 0, 'known': 0}
    sigs = {}
    accepted = {}
    try:
        for i in range(args.count):
            rng = random.Random('%d/%d' % (args.seed, i))
            mut = Mutator(rng)
            if args.only:
                names = args.only.split(',')
                mut.MUTS = names
                mut.WEIGHTS = [1] * len(names)
            # a third of the mutants start from tools/ownfuzz_seeds
            own = [b for b in base if b[0].startswith('ownfuzz_seeds/')]
            origin, text = rng.choice(own if own and rng.random() < 0.34 else base)
            new, log = mut.mutate(text)
            if not log:
                stats['rejected'] += 1
                continue
            f = os.path.join(tmp, 'm.spx')
            with open(f, 'w') as fh:
                fh.write(new)
            v = judge(binp, f, tmp, args.interp_bin and os.path.abspath(args.interp_bin),
                      args.wasm)
            if i % 100 == 99:
                print('ownfuzz: %d/%d %s' % (i + 1, args.count, stats), flush=True)
            if v is None:
                stats['rejected'] += 1
                continue
            kind, why = v
            for entry in log:
                k = entry.split(' ', 1)[0].rstrip(':')
                accepted[k] = accepted.get(k, 0) + 1
            if kind in ('ok', 'refused'):
                stats[kind] += 1
                continue
            if kind == 'finding' and args.known_bin:
                st, _, kerr = run([os.path.abspath(args.known_bin), 'check', f], tmp, timeout=20)
                if st != 0:
                    kind = 'known'
                    m = re.search(rb'error\[(SPX-[A-Z0-9]+)\]', kerr)
                    why = '%s (known-bin: %s)' % (why, m.group(1).decode() if m else 'rejects')
                    stats['known'] += 1
                    print('KNOWN %d (%s) %s: %s' % (i, origin, '; '.join(log)[:200], why[:240]), flush=True)
                    continue
            sig = re.sub(r'0x[0-9a-f]+|[0-9]+', 'N', why)[:200]
            dup = sig in sigs
            stats['dup' if dup else kind] += 1
            sigs.setdefault(sig, 0)
            sigs[sig] += 1
            h = hashlib.sha1(new.encode()).hexdigest()[:8]
            stem = os.path.join(fdir, '%s-%04d-%s' % (kind, i, h))
            if not dup or sigs[sig] <= 3:
                with open(stem + '.spx', 'w') as fh:
                    fh.write(new)
                with open(stem + '.txt', 'w') as fh:
                    fh.write('seed %d mutant %d from %s\n%s\n%s\n' % (args.seed, i, origin, '\n'.join(log), why))
            print('%s %d (%s) %s: %s [%s]' % (kind.upper(), i, origin, '; '.join(log)[:200], why[:200],
                                            'dup' if dup else 'new'), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('ownfuzz: %d mutants (seed %d): %d rejected by check, %d agreed, %d refused, '
          '%d interpreter limits, %d findings (+%d repeats), %d known' % (
              args.count, args.seed, stats['rejected'], stats['ok'], stats['refused'],
              stats['limit'], stats['finding'], stats['dup'], stats['known']))
    print('ownfuzz: mutations in accepted mutants: %s' % ', '.join(
        '%s %d' % kv for kv in sorted(accepted.items())))
    return 1 if stats['finding'] else 0


if __name__ == '__main__':
    sys.exit(main())
