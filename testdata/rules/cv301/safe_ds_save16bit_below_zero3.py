# Below ZeRO-3 the engine's save_16bit_model takes the module's own state
# dict and rank 0 writes it: nothing is gathered, so rank 0 may call it
# alone (ReST-MCTS's value-model trainer, ZeRO stage 1; also no ZeRO).
import deepspeed
import torch
import torch.distributed as dist


def train(net, steps):
    ds_config = {"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 1}}
    engine, *_ = deepspeed.initialize(model=net, model_parameters=net.parameters(), config=ds_config)
    for step in range(steps):
        loss = engine(torch.randn(2, 8).cuda()).sum()
        engine.backward(loss)
        engine.step()
        if dist.get_rank() == 0:
            engine.save_16bit_model("out", "best.pt")


def train_plain(net, steps):
    engine, *_ = deepspeed.initialize(model=net, config={"train_micro_batch_size_per_gpu": 2})
    for step in range(steps):
        loss = engine(torch.randn(2, 8).cuda()).sum()
        engine.backward(loss)
        engine.step()
    if dist.get_rank() == 0:
        engine.save_16bit_model("out", "final.pt")
