class Wrapper:
    def __init__(self, inner):
        self.inner = inner

    def run(self):
        pass


class Plain:
    def run(self):
        pass


def unwrap_and_run(x):
    y = x.inner if isinstance(x, Wrapper) else x
    y.run()


unwrap_and_run(Wrapper(Plain()))
unwrap_and_run(Plain())
