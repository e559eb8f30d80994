def make():
    def inner():
        pass
    return inner

f = make()
f()
