import torch
from fairscale.nn.data_parallel import ShardedDataParallel as ShardedDDP
from fairscale.optim.grad_scaler import ShardedGradScaler
from fairscale.optim.oss import OSS


def train(model, loader):
    base_optimizer_arguments = {"lr": 1e-4}
    optimizer = OSS(params=model.parameters(), optim=torch.optim.AdamW, **base_optimizer_arguments)
    model = ShardedDDP(model, optimizer)
    scaler = ShardedGradScaler()
    for batch in loader:
        optimizer.zero_grad()
        with torch.cuda.amp.autocast():
            loss = model(batch).sum()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
