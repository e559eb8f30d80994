def apply(f):
    f()

apply(lambda: None)
apply(lambda: None)
