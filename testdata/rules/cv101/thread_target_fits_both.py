# Both clients' listen take the stop event: the thread may run the one
# that receives on the group while the main thread sends on it.
import sys
import threading

import torch
import torch.distributed as dist


class SyncClient:
    def __init__(self):
        self.buf = torch.zeros(4, device="cuda")

    def listen(self, stop=None):
        dist.recv(self.buf, src=0)  # want CV101 "recv"

    def upload(self):
        dist.send(self.buf, dst=0)


class AsyncClient(SyncClient):
    def listen(self, stop):
        while not stop.is_set():
            pass


class AsyncRunner:
    def run(self, client):
        stop = threading.Event()
        t = threading.Thread(target=client.listen, args=(stop,), daemon=True)
        t.start()
        for _ in range(3):
            client.upload()
        stop.set()


def main():
    dist.init_process_group("nccl")
    client = AsyncClient() if sys.argv[1] == "async" else SyncClient()
    AsyncRunner().run(client)
