def keep(f):
    return True


def a():
    pass


def b():
    pass


for f in filter(keep, [a, b]):
    f()
