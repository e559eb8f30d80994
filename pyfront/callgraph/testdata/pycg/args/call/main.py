def run(cb):
    cb()

def target():
    pass

run(target)
