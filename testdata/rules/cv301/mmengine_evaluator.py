# mmengine's evaluator gathers every rank's results (BaseMetric.evaluate:
# collect_results, then a broadcast of rank 0's metrics): an evaluate that
# only rank 0 runs waits for the others forever (mmrazor's search loops
# evaluate on every rank for this reason).
import torch.distributed as dist
from mmengine.evaluator import Evaluator


def validate_rank0(model, dataloader, metric_cfg):
    evaluator = Evaluator(metric_cfg)
    for batch in dataloader:
        evaluator.process(model.val_step(batch), batch)
    if dist.get_rank() == 0:
        return evaluator.evaluate(len(dataloader.dataset))  # want CV301 "Evaluator.evaluate on the default group \(WORLD\) runs only when"
    return None


def validate_everywhere(model, dataloader, metric_cfg):
    evaluator = Evaluator(metric_cfg)
    for batch in dataloader:
        evaluator.process(model.val_step(batch), batch)
    metrics = evaluator.evaluate(len(dataloader.dataset))
    if dist.get_rank() == 0:
        print(metrics)
    return metrics
