def setup():
    pass


def func():
    pass
