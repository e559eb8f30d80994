# Rank 0 alone skips an input with `continue`, and with it the broadcasts
# of the helper the others then wait in; that an interactive command loop
# elsewhere calls the same helper changes nothing (Megatron's generation
# over a file of prompts).
import torch
import torch.distributed as dist


def token_stream(tokens):
    t = torch.tensor(tokens, device="cuda")
    dist.broadcast(t, 0)
    return t


def generate_from_file(inputs):
    rank = dist.get_rank()
    for text in inputs:
        dist.barrier()
        if rank == 0:
            tokens = list(text)
            if len(tokens) > 512:
                continue
        else:
            tokens = [0]
        token_stream(tokens)  # want CV301 "broadcast on the default group \(WORLD\) runs only on the ranks that do not leave early"


def interactive():
    while True:
        t = token_stream([0])
        if t.item() < 0:
            break
