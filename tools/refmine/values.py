"""The abstract values extract.py's evaluator computes over a test's
tokens (strings and ints stay Python values)."""


class Taint:
    __slots__ = ("progs",)

    def __init__(self, progs):
        self.progs = frozenset(progs)


class Seq:
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


class RunOut(Taint):
    """What a helper that runs the program (`semaprax run`) printed."""


class CodeHit(Taint):
    """`found.iter().filter(|d| d.code == CODE)`: unwrapping it expects CODE."""

    def __init__(self, progs, codes):
        Taint.__init__(self, progs)
        self.codes = codes


UNKNOWN = Taint(())


class ExamplePath:
    """`Path::new("examples/x.spx")`: the path of a reference example; its
    program is `source`."""
    __slots__ = ("path", "source")

    def __init__(self, path, source):
        self.path = path
        self.source = source


class Helper:
    def __init__(self, params, body):
        self.params = params
        self.body = body
