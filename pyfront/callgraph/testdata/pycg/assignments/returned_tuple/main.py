def one():
    pass

def two():
    pass

def pair():
    return one, two

a, b = pair()
b()
