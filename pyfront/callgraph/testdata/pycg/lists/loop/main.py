def one():
    pass

def two():
    pass

for f in [one, two]:
    f()
