def one():
    pass

def call(d):
    d["k"]()

call({"k": one})
