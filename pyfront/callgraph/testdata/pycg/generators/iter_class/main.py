def target():
    pass

class Seq:
    def __iter__(self):
        return self

    def __next__(self):
        return target

for f in Seq():
    f()
