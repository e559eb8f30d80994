from helpers import apply

def work():
    pass

apply(work)
