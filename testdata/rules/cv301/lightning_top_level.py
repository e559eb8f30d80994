# Lightning 2's top-level package (`import lightning as L`) re-exports
# LightningModule, Trainer and Fabric: their collective calls and rank
# predicates are the same as under lightning.pytorch / lightning.fabric.
import lightning as L


class Model(L.LightningModule):
    def validation_step(self, batch, idx):
        loss = self.net(batch).mean()
        if self.global_rank == 0:
            self.log("val_loss", loss, sync_dist=True)  # want CV301 "LightningModule.log"
        return loss


fabric = L.Fabric(accelerator="cuda", devices=8)


def finish():
    if fabric.is_global_zero:
        fabric.barrier()  # want CV301 "Fabric.barrier"
