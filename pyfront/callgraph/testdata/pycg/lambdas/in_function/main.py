def run():
    g = lambda x: x
    return g(1)

run()
