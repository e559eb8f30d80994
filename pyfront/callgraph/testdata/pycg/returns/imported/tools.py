def target():
    pass

def get():
    return target
