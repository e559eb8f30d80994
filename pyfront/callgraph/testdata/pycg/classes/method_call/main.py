class Greeter:
    def greet(self):
        pass

g = Greeter()
g.greet()
