def outer(f):
    def inner(g):
        g()
    inner(f)

def target():
    pass

outer(target)
