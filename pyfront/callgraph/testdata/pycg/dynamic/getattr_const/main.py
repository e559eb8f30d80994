class A:
    def run(self):
        pass

getattr(A(), "run")()
