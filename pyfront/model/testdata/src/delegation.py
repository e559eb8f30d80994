# A wrapper whose __getattr__ hands every name its class lacks to an
# object it holds: wrapper.name is that object's attribute. Names the
# class has itself, and dunder names, stay the class's.


class Engine:
    def load_state(self, path):
        pass

    def report(self):
        pass


class Wrapper:
    """Forwards unknown attributes to the engine."""

    def __init__(self):
        self.engine = Engine()

    def report(self):
        pass

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.engine, name)


class Logged(Wrapper):
    pass


class Other:
    def __init__(self):
        self.engine = Engine()

    def __getattr__(self, name):
        return self.engine


def main(path):
    w = Wrapper()
    w.load_state(path)  # calls: delegation.Engine.load_state
    w.report()  # calls: delegation.Wrapper.report
    Logged().load_state(path)  # calls: delegation.Engine.load_state
    o = Other()
    o.load_state(path)  # calls: -
