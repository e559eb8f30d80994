import torch


def is_master(args):
    return args.rank == 0


def evaluate_cls(model, epoch, args):
    metrics = {}
    if not is_master(args):
        return metrics
    model.eval()
    metrics.update(zero_shot_eval(model, epoch, args))
    return metrics


def run(model, args):
    with torch.no_grad():
        out = model(torch.randn(4, 8, device="cuda"))
    return out.sum().item()


def zero_shot_eval(model, epoch, args):
    model = model.module
    return {"score": run(model, args)}
