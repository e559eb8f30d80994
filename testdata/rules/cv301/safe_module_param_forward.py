# A helper that runs a module's forward communicates only through the
# module it is given: rank 0 evaluating a model fresh from
# from_pretrained (never wrapped) issues nothing, although training calls
# the same helper with its DDP model (DNABERT's run_pretrain); and an arm
# that runs only in a single-process job (`local_rank == -1`) has no peers.
import torch
import torch.distributed as dist
from transformers import BertForMaskedLM


def evaluate(model, batch):
    with torch.no_grad():
        return model(batch).loss


def train(args, model):
    model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.local_rank])
    for batch in args.loader:
        model(batch).loss.backward()
        print(evaluate(model, batch))
        if args.local_rank in [-1, 0] and args.log:
            if args.local_rank == -1 and args.evaluate_during_training:
                print(evaluate(model, batch))


def main(args):
    dist.init_process_group(backend="nccl")
    model = BertForMaskedLM.from_pretrained(args.model_name_or_path).cuda()
    train(args, model)
    if args.do_eval and args.local_rank in [-1, 0]:
        model = BertForMaskedLM.from_pretrained(args.output_dir)
        print(evaluate(model, args.batch))
