def target():
    pass

f = lambda: target()
f()
