# The prompt a helper receives is decoded into a Python str before it is
# returned (the blocking .cpu().tolist() first): nothing is pending on
# any stream when it is sent again from the communication stream, also
# where the receiver's class is not known at the call (StreamDiffusionV2's
# pipeline relay).
import torch
import torch.distributed as dist


class Communicator:
    def __init__(self, device):
        self.device = device

    def recv_prompt_async(self, src) -> str:
        length = torch.empty(1, dtype=torch.int64, device=self.device)
        dist.recv(length, src=src)
        buf = torch.empty(length.item(), dtype=torch.uint8, device=self.device)
        dist.recv(buf, src=src)
        return bytes(buf.cpu().tolist()).decode("utf-8")

    def send_prompt_async(self, prompt: str, dst):
        data = torch.ByteTensor(list(prompt.encode("utf-8"))).to(self.device)
        length = torch.tensor([len(data)], dtype=torch.int64, device=self.device)
        return [dist.isend(length, dst=dst), dist.isend(data, dst=dst)]


class Transfer:
    def __init__(self, comm):
        self.comm = comm

    def recv_prompt_async(self, src) -> str:
        return self.comm.recv_prompt_async(src)


def relay(manager, com_stream, rank, world_size):
    outstanding = []
    prompt = manager.transfer.recv_prompt_async((rank - 1) % world_size)
    with torch.cuda.stream(com_stream):
        outstanding.append(manager.transfer.comm.send_prompt_async(prompt, (rank + 1) % world_size))
    for w in outstanding:
        for x in w:
            x.wait()
    return prompt
