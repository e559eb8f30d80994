def repeat(n):
    def dec(f):
        def inner():
            f()
        return inner
    return dec

@repeat(2)
def func():
    pass

func()
