def run(a, b):
    b()

def one():
    pass

def two():
    pass

run(a=one, b=two)
