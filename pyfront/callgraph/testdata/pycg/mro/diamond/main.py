class A:
    def who(self):
        pass

class B(A):
    pass

class C(A):
    def who(self):
        pass

class D(B, C):
    pass

D().who()
