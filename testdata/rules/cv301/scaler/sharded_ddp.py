# The incident itself: fairscale's ShardedDataParallel with OSS, whose
# step broadcasts the updated shards: the ranks that skip it leave the
# others waiting in the broadcast.
import torch
from fairscale.nn.data_parallel import ShardedDataParallel as ShardedDDP
from fairscale.optim.oss import OSS


def train(model, loader):
    optimizer = OSS(params=model.parameters(), optim=torch.optim.AdamW, lr=1e-4)
    model = ShardedDDP(model, optimizer)
    scaler = torch.cuda.amp.GradScaler()
    for batch in loader:
        optimizer.zero_grad()
        with torch.cuda.amp.autocast():
            loss = model(batch).sum()
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # want CV301 "fairscale's OSS"
        scaler.update()
    # OSS gathers its shards onto one rank: every rank must call it.
    if torch.distributed.get_rank() == 0:
        optimizer.consolidate_state_dict()  # want CV301 "OSS.consolidate_state_dict.*runs only when"
        torch.save(optimizer.state_dict(), "optim.pt")
