from dataclasses import dataclass


def first():
    pass


def second():
    pass


def third():
    pass


@dataclass
class Handlers:
    on_start: object
    on_stop: object = None


@dataclass(frozen=True)
class Only:
    callback: object


class Plain:
    on_start: object


def run():
    h = Handlers(first, on_stop=second)
    h.on_start()
    h.on_stop()
    Only(callback=third).callback()
    p = Plain()
    p.on_start = first
