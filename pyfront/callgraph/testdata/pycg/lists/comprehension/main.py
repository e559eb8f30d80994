def one():
    pass

def wrap(f):
    return f

fs = [wrap(f) for f in [one]]
fs[0]()
