# The generator's loss reaches the VAE past its DDP wrapper: its gradients
# are never all-reduced.
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 4)
        self.decoder = nn.Linear(4, 8)


def generator_step(rank, x):
    vae = DDP(VAE().cuda(), device_ids=[rank])
    opt = torch.optim.AdamW(vae.parameters())
    recon = vae.module.decoder(vae.module.encoder(x))
    loss = (recon - x).pow(2).mean() + 0.1 * recon.detach().abs().mean()
    loss.backward()  # want CV304 "vae.module"
    opt.step()
