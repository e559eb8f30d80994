def target():
    pass

def get():
    return target

f = get()
f()
