def one():
    pass

def two():
    pass

ls = [one, two]
ls[1]()
