# Under no_grad, DDP's forward broadcasts the buffers only on the first
# forward after a grad-enabled one (it clears require_forward_param_sync
# after a no-grad forward): each rank issues that broadcast once in the
# evaluation loop, whichever empty batches it skips (DiffDock's
# evaluation).
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel


def evaluate(model, loader, device):
    model.eval()
    total = 0.0
    for data in loader:
        if not data or data["x"].shape[0] == 0:
            continue
        with torch.no_grad():
            out = model(data["x"].to(device))
        total += out.sum().item()
    return total


@torch.inference_mode()
def evaluate_decorated(model, loader):
    for batch in loader:
        if batch is None:
            continue
        model(batch)


def main(loader):
    dist.init_process_group("nccl")
    device = torch.device("cuda", dist.get_rank() % torch.cuda.device_count())
    net = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8)).to(device)
    model = DistributedDataParallel(net, device_ids=[device])
    evaluate(model, loader, device)
    evaluate_decorated(model, loader)


def validate_for_a_while(model, loader, time_limit):
    # openvla-oft's validation: stops when its time is up, after at least
    # one forward on every rank.
    import time
    start = time.time()
    with torch.no_grad():
        for batch in loader:
            model(batch)
            if time.time() - start > time_limit:
                break


def run_forward_pass(model, batch):
    out = model(batch)
    return out, {"loss": out.mean().item()}


def validate_through_helper(model, loader, time_limit):
    # The forward sits in a helper the loop calls under no_grad.
    import time
    start = time.time()
    with torch.no_grad():
        for batch in loader:
            _, metrics = run_forward_pass(model, batch)
            if time.time() - start > time_limit:
                break


def fit(loader):
    model = DistributedDataParallel(torch.nn.BatchNorm1d(8).cuda())
    validate_through_helper(model, loader, 10.0)
    validate_for_a_while(model, loader, 10.0)
