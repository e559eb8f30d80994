def one():
    pass

def two():
    pass

x, y = one, two
x()
