def one():
    pass

def two():
    pass

def three():
    pass

ls = [one, two, three]
rest = ls[1:]
rest[0]()
