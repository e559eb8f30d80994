# class C(with_metaclass(Meta, Base)): the compatibility helper (six,
# future, torch._six) builds a temporary class; C's bases are Base.

def with_metaclass(meta, *bases):
    class metaclass(meta):
        def __new__(cls, name, this_bases, d):
            return meta(name, bases, d)

    return type.__new__(metaclass, "temporary_class", (), {})


class FunctionMeta(type):
    pass


class Base:
    def greet(self):
        pass


class Child(with_metaclass(FunctionMeta, Base)):
    pass


def main():
    Child().greet()  # calls: metaclass.Base.greet
