# Each rank scores its own evaluation shard and keeps its own best: a
# ZeRO-3 save (a parameter all-gather) entered only where this rank's
# score improved leaves the other ranks out (ReMax's `if eval_reward >=
# best_eval_reward: save_model(...)`).
import deepspeed
import numpy as np
import torch


def evaluate(engine, loader):
    scores = []
    for batch in loader:
        with torch.no_grad():
            scores.append(engine(batch).mean().item())
    return np.mean(scores)


def save(engine, path):
    state = {}
    for name, p in engine.module.named_parameters():
        with deepspeed.zero.GatheredParameters([p]):
            state[name] = p.data.cpu()
    if torch.distributed.get_rank() == 0:
        torch.save(state, path)


def train(model, cfg, loader, eval_loader):
    deepspeed.init_distributed()
    engine, *_ = deepspeed.initialize(model=model, config=cfg)
    best = None
    for batch in loader:
        engine.backward(engine(batch).mean())
        engine.step()
        score = evaluate(engine, eval_loader)
        if best is None:
            best = score
        if score >= best:
            best = score
            save(engine, "best.pt")  # want CV301 "comparison of a value computed from each rank's own batch"
