class Outer:
    class Inner:
        def work(self):
            pass

class User(Outer.Inner):
    pass

User().work()
