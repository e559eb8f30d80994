# flashy (audiocraft's trainer library) wraps torch.distributed: its
# barrier and average_metrics are collectives, is_rank_zero() and rank()
# rank tests.
import flashy


def save(state, path):
    if flashy.distrib.is_rank_zero():
        write(state, path)
        flashy.distrib.barrier()  # want CV301 "barrier on the default group"


def metrics(m):
    if flashy.distrib.rank() == 0:
        return flashy.distrib.average_metrics(m)  # want CV301 "average_metrics"
    return m


def write(state, path):
    pass
