# A view holds what its base's producer wrote: out is zeroed on the
# current stream after the side stream's wait, and the side stream reads
# it through the view.
import torch


def consume(out, producer, peer):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    out.zero_()
    chunks = out.chunk(4)
    with torch.cuda.stream(side):
        producer(peer, chunks[peer])  # want CV203 "\"chunks\" is written on the current stream .*as \"out\""
    torch.cuda.current_stream().wait_stream(side)


def closure_buffer_written(hdl, producer, peer):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())

    def buf(rank):
        return hdl.get_buffer(rank, (16,), torch.float32, 0)

    local = buf(peer)
    local.zero_()
    with torch.cuda.stream(side):
        producer(peer, local)  # want CV203 "\"local\" is written on the current stream"
    torch.cuda.current_stream().wait_stream(side)


class Stage:
    def __init__(self):
        self.recv_stream = torch.cuda.Stream()

    def forward(self, input_data, n, comm, src):
        scaled = input_data * 2
        self.micro_batches = torch.chunk(scaled, n, dim=0)
        for i in range(n):
            with torch.cuda.stream(self.recv_stream):
                comm.recv(self.micro_batches[i], src=src)  # want CV203 "\"self.micro_batches\" is written on the current stream .*as \"scaled\""
        torch.cuda.current_stream().wait_stream(self.recv_stream)
