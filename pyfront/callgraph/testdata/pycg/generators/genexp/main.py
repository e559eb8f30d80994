def one():
    pass

def two():
    pass

fs = (f for f in [one, two])
for g in fs:
    g()
