# A rank that drops a micro-batch because its own samples hold too few
# supervised tokens runs one forward (one FSDP all-gather) fewer than the
# others, and the next all-gather waits forever (TorchSpec#126).
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def train(net, train_loader, opt, min_loss_tokens):
    model = FSDP(net)
    for batch in train_loader:
        if batch["loss_mask"].sum() < min_loss_tokens:
            continue
        loss = model(batch["input_ids"]).sum()  # want CV301 "test of the batch this rank loaded"
        loss.backward()
        opt.step()


def train_items(net, train_loader, opt):
    model = FSDP(net)
    for step, batch in enumerate(train_loader):
        if len(batch["labels"]) <= 1 or batch["attention_mask"].count_nonzero().item() < 8:
            continue
        model(batch["input_ids"]).sum().backward()  # want CV301 "test of the batch this rank loaded"
        opt.step()


def train_local(net, train_loader, opt, min_loss_tokens):
    model = FSDP(net)
    for batch in train_loader:
        tokens = batch["loss_mask"].sum()
        if tokens.item() < min_loss_tokens:
            continue
        model(batch["input_ids"]).sum().backward()  # want CV301 "test of the batch this rank loaded"
        opt.step()
