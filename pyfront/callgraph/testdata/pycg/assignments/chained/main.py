def func():
    pass

a = b = func
a()
b()
