# synced_gpus=True keeps finished ranks in step; ZeRO-2 does not partition
# the parameters, so its forward communicates nothing.
import deepspeed


def sample(model, ids):
    engine, _, _, _ = deepspeed.initialize(model=model, config={"zero_optimization": {"stage": 3}})
    return engine.module.generate(ids, max_new_tokens=64, synced_gpus=True)


def sample_zero2(model, ids):
    cfg = {"zero_optimization": {"stage": 2}}
    engine, _, _, _ = deepspeed.initialize(model=model, config=cfg)
    return engine.module.generate(ids, max_new_tokens=64)


def evaluate(model, batch):
    import torch.distributed as dist

    engine, _, _, _ = deepspeed.initialize(model=model, config={"zero_optimization": {"stage": 3}})
    out = engine(batch)
    if dist.get_rank() == 0:
        print(out)
