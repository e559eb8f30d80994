class Model:
    def __init__(self):
        self.build()

    def build(self):
        pass

Model()
