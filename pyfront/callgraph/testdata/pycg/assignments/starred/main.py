def one():
    pass

def two():
    pass

def three():
    pass

first, *rest = one, two, three
first()
