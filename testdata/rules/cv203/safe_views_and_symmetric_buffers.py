# Views (chunk, view, narrow) and a symmetric-memory handle's buffers run
# no kernel: made after the side stream waited, they leave nothing for it
# to wait for. The data they see was written before the wait (out) or is
# ordered by the handle's device-side barrier (the peers' buffers).
import torch
import torch.distributed._symmetric_memory as symm_mem


def consume(out, producer, group_name, peer):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    chunks = out.chunk(4)
    flat = out.view(-1)
    head = torch.narrow(flat, 0, 0, 16)
    hdl = symm_mem.rendezvous(out, group_name)

    def peer_buf(rank, idx):
        offset = 0 if idx == 0 else 16
        return hdl.get_buffer(rank, (16,), torch.float32, offset)

    local = peer_buf(peer, 0)
    with torch.cuda.stream(side):
        producer(peer, local)
        chunks[peer].copy_(head)
    torch.cuda.current_stream().wait_stream(side)


class Stage:
    def __init__(self):
        self.recv_stream = torch.cuda.Stream()

    def forward(self, input_data, n, comm, src):
        # The micro-batches are views of the input: receiving into one on
        # the receive stream waits for no write of this function.
        self.micro_batches = torch.chunk(input_data, n, dim=0)
        for i in range(n):
            with torch.cuda.stream(self.recv_stream):
                comm.recv(self.micro_batches[i], src=src)
        torch.cuda.current_stream().wait_stream(self.recv_stream)
