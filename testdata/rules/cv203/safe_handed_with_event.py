# A prefetch made on the copy stream is handed to a manager together with
# an event recorded after the copy; the manager's get() waits the event
# before the value is used (LiteGen's activation offload).
import torch


class Item:
    def __init__(self, act, event):
        self.act = act
        self.event = event


class Manager:
    def __init__(self):
        self.items = {}

    def put(self, key, act, event=None):
        self.items[key] = Item(act, event)

    def get(self, key):
        item = self.items.pop(key)
        if item.event is not None:
            item.event.wait()
        return item.act


MANAGER = Manager()


def prefetch(key, cpu_tensor, h2d_stream):
    with torch.cuda.stream(h2d_stream):
        cuda_tensor = cpu_tensor.to("cuda", non_blocking=True)
        cuda_tensor.record_stream(h2d_stream)
        event = torch.cuda.Event()
        event.record()
    MANAGER.put(key, cuda_tensor, event)
