class Worker:
    def run(self):
        pass


class Frozen:
    def __init__(self):
        object.__setattr__(self, "worker", Worker())
        setattr(self, "spare", Worker())

    def go(self):
        self.worker.run()
        self.spare.run()


class Guarded:
    def __init__(self):
        super().__setattr__("worker", Worker())

    def __setattr__(self, name, value):
        raise AttributeError(name)

    def go(self):
        self.worker.run()


Frozen().go()
Guarded().go()
