from collections import defaultdict


class Meter:
    def sync(self):
        pass


meters = defaultdict(Meter)
meters["loss"]
for m in meters.values():
    m.sync()
