def one():
    pass

table = {}
table["x"] = one
table["x"]()
