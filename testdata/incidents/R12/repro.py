import horovod.torch as hvd
import torch

hvd.init()
torch.cuda.set_device(hvd.local_rank())


def evaluate(model, shard_iter):
    total = torch.zeros(1, device="cuda")
    have_more_data = True
    while have_more_data:
        try:
            batch = next(shard_iter)
        except StopIteration:
            have_more_data = False
            break
        loss = model(batch).sum().detach()
        total += hvd.allreduce(loss, name="eval_loss", op=hvd.Sum)
    return total
