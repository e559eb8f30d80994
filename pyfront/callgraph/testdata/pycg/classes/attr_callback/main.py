class Runner:
    def __init__(self, cb):
        self.cb = cb

    def run(self):
        self.cb()

def task():
    pass

Runner(task).run()
