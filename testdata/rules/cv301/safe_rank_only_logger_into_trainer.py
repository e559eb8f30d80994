# A logger only rank 0 makes, handed to a trainer object: the trainer's
# step counter advances alike on every rank, and the stop decision is
# broadcast (LightZero's entry loops). Whether the logger exists is the
# rank test; what the trainer computes is not.
import torch
import torch.distributed as dist
from ding.worker import BaseLearner as Learner


def make_writer():
    return object()


def train(cfg, evaluator):
    tb_logger = make_writer() if dist.get_rank() == 0 else None
    learner = Learner(cfg, tb_logger)
    while True:
        if learner.train_iter == 0 or learner.train_iter % 100 == 0:
            box = [evaluator.eval(learner.train_iter)]
            dist.broadcast_object_list(box, src=0)
            if box[0]:
                break
        t = torch.tensor(1, device="cuda")
        dist.all_reduce(t)
        learner.train()
