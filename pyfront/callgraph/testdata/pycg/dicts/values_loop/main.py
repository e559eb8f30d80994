def one():
    pass

def two():
    pass

handlers = {"a": one, "b": two}
for h in handlers.values():
    h()
