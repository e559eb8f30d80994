# Parameters annotated with a program class, in functions the program
# never calls (a monkey patch, a callback a library calls), hold an
# instance of that class; a called function's parameters get only what
# its callers pass.
from typing import Optional

from somelib import make_engine


class Engine:
    def collect(self):
        pass


def patched(eng: Engine, n):
    eng.collect()  # calls: annotations.Engine.collect


def patched_string(self: "Engine"):
    self.collect()  # calls: annotations.Engine.collect


def patched_optional(eng: Optional[Engine] = None, other: "Engine | None" = None):
    eng.collect()  # calls: annotations.Engine.collect
    other.collect()  # calls: annotations.Engine.collect


def patched_builtin(n: int, s: str):
    n.collect()  # calls: -


def used(eng: Engine):
    eng.collect()  # calls: -


used(make_engine())


def install(cls):
    cls.update = patched_string
