# type(name, bases, dict(C.__dict__)) makes a class from C's namespace
# (Horovod's DistributedOptimizer factory): calling it runs C's __init__,
# and its instances have C's methods. A namespace that is not a class's
# __dict__ makes nothing known.


class _Impl:
    def __init__(self, params):
        self.params = params

    def step(self):
        pass


def make(optimizer):
    cls = type(optimizer.__class__.__name__, (optimizer.__class__,), dict(_Impl.__dict__))
    return cls(optimizer.param_groups)  # calls: typefactory._Impl.__init__


def make_plain(optimizer):
    cls = type("Plain", (object,), {"x": 1})
    return cls()


def main(optimizer):
    make(optimizer).step()  # calls: typefactory._Impl.step
