# `except Exception:` around next() catches the end of this rank's shard
# too; the handler saves a DeepSpeed checkpoint (collective) and leaves,
# while the ranks whose shards are longer are still in their steps
# (MooER's training loop).
import deepspeed
import torch.distributed as dist


def train(engine, dataloader, num_epochs):
    for epoch in range(num_epochs):
        it = iter(dataloader)
        while True:
            try:
                batch = next(it)
                loss = engine(**batch).loss
                engine.backward(loss)  # want CV301 "backward\(\) .* runs only on the ranks whose data has not run out .*`except Exception`"
                engine.step()
            except Exception:
                engine.save_checkpoint(save_dir=f"ckpt_{epoch}")
                break


def main(model, dataloader, ds_config):
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
    train(engine, dataloader, 3)
