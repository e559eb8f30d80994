def key(x):
    return -x

sorted([1, 2], key=key)
