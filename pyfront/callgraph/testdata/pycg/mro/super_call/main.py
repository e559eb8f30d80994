class A:
    def run(self):
        pass

class B(A):
    def run(self):
        super().run()

B().run()
