class A:
    def __init__(self):
        pass

    def work(self):
        pass

class B(A):
    pass

b = B()
b.work()
