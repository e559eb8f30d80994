def apply(fn):
    return fn()
