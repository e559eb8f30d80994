def target():
    pass

def gen():
    yield target

for f in gen():
    f()
