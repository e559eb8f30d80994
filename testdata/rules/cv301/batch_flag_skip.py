# A success flag unpacked from this rank's batch (co-tracker's
# `batch, gotit = batch`) is a test of the batch: a rank whose sample
# failed to load skips the barrier and the backward. Also under
# LightningLite, Fabric's predecessor.
import torch.distributed as dist
from pytorch_lightning.lite import LightningLite
from torch.nn.parallel import DistributedDataParallel as DDP


def main(net, loader, opt):
    model = DDP(net.cuda(), broadcast_buffers=False)
    for batch in loader:
        batch, gotit = batch
        if not all(gotit):
            continue
        loss = model(batch).sum()
        dist.barrier()  # want CV301 "a test of the batch this rank loaded"
        loss.backward()
        opt.step()


class Lite(LightningLite):
    def run(self, model, optimizer, loader):
        model, optimizer = self.setup(model, optimizer)
        for batch in loader:
            if batch is None:
                continue
            # The set-up model's forward is the first collective skipped.
            loss = model(batch).sum()  # want CV301 "the model's forward .* a test of the batch this rank loaded"
            self.barrier()
            self.backward(loss)
            optimizer.step()
