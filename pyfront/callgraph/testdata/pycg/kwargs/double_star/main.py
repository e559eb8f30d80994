def run(**kw):
    kw["cb"]()

def one():
    pass

run(cb=one)
