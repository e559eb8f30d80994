# A barrier in the finally of a try whose body issues collectives: on a rank
# whose training raised, it runs while the others still wait in the loop's
# all-reduce (aorta's trainer).
import torch.distributed as dist


def train(model, batches):
    for x in batches:
        dist.all_reduce(model(x))


def main(model, batches):
    try:
        train(model, batches)
    finally:
        dist.barrier()  # want CV301 "barrier on the default group \(WORLD\) runs at .* \(`finally`\), also on a rank whose work above raised"


def main_after(model, batches):
    try:
        train(model, batches)
    except KeyboardInterrupt:
        raise
    else:
        dist.barrier()
