def first():
    pass

def second():
    pass

def run(cb=first):
    cb()

run()
run(cb=second)
