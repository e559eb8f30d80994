def double(x):
    return x * 2

list(map(double, [1, 2]))
