class Tools:
    @staticmethod
    def helper():
        pass

    @classmethod
    def make(cls):
        cls.helper()
        return cls()

Tools.make()
