def run():
    from tools import func
    func()

run()
