def dec(f):
    def inner():
        f()
    return inner

@dec
def func():
    pass

def caller():
    func()

caller()
