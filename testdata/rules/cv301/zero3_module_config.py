# The DeepSpeed config is a module-level constant: ZeRO-3 all the same,
# so the engine's forward on rank 0 alone waits in the parameters'
# all-gather for ranks that never join it.
import deepspeed
import torch.distributed as dist

DS_CONFIG = {"train_batch_size": 8, "zero_optimization": {"stage": 3}}
DS_CONFIG_ZERO2 = {"train_batch_size": 8, "zero_optimization": {"stage": 2}}


def train(net, loader):
    engine, _, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=DS_CONFIG)
    for batch in loader:
        loss = engine(batch)
        engine.backward(loss)
        engine.step()
        if dist.get_rank() == 0:
            engine(batch)  # want CV301 "get_rank\(\) == 0"
        dist.barrier()


def train_zero2(net, loader):
    # ZeRO-2 keeps whole parameters on every rank: the forward gathers
    # nothing.
    engine, _, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=DS_CONFIG_ZERO2)
    for batch in loader:
        engine.backward(engine(batch))
        engine.step()
        if dist.get_rank() == 0:
            engine(batch)
        dist.barrier()
