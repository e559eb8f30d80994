import argparse

import deepspeed
import torch
import torch.distributed as dist


def main():
    parser = argparse.ArgumentParser()
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = torch.nn.Linear(1024, 1024)
    engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    rank = dist.get_rank()
    for step in range(1000):
        x = torch.randn(8, 1024, device=engine.device)
        loss = engine(x).sum()
        engine.backward(loss)
        engine.step()
        if step % 100 == 0:
            engine.save_checkpoint("checkpoints", tag=f"step{step}")


if __name__ == "__main__":
    main()
