def public():
    pass

def _private():
    pass
