def func():
    pass

def get():
    return func

get()()
