def one():
    pass

def two():
    pass

d = {"a": one, "b": two}
d["a"]()
