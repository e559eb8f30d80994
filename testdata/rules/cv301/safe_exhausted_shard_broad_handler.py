# The same handler over a loader whose DistributedSampler gives every
# rank as many batches: they all run out in the same pass, and all save.
import deepspeed
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def train(engine, dataset, num_epochs):
    loader = DataLoader(dataset, batch_size=8, sampler=DistributedSampler(dataset, drop_last=True))
    for epoch in range(num_epochs):
        loader.sampler.set_epoch(epoch)
        it = iter(loader)
        while True:
            try:
                batch = next(it)
                loss = engine(**batch).loss
                engine.backward(loss)
                engine.step()
            except Exception:
                engine.save_checkpoint(save_dir=f"ckpt_{epoch}")
                break


def main(model, dataset, ds_config):
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
    train(engine, dataset, 3)
