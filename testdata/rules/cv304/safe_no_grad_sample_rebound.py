# The EMA copy made from the wrapped module samples under no_grad into the
# name the next pass's batch rebinds (flowprogen's trainer): what it
# computes there carries no autograd history, and the loss comes from the
# wrapper's own forward, handed to a library helper.
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from mylib import Net, flow_matching_loss


def train(local_rank):
    model = DDP(Net().cuda(), device_ids=[local_rank])
    ema_model = model.module.create_ema(0.9)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        coords = torch.randn(4, 8, device="cuda")
        loss = flow_matching_loss(model, coords)
        loss.backward()
        opt.step()
        opt.zero_grad()
        ema_model.update()
        if step % 10 == 0:
            with torch.no_grad():
                coords = ema_model.generate_modality_only(batch_size=1)
