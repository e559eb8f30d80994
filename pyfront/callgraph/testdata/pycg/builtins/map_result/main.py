def make(x):
    def inner():
        return x

    return inner


for f in map(make, [1, 2]):
    f()
