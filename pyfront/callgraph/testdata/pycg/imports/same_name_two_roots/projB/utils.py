def reduce():
    pass
