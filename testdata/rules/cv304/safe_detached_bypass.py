# A GAN step whose discriminator loss sees the VAE's output only through
# .detach() (vqgan-training): that backward gives the VAE no gradient,
# so going past its DDP wrapper there loses nothing. The generator loss,
# which does reach the VAE past its wrapper, is another matter (see
# detached_bypass_generator.py).
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(8, 4)
        self.decoder = nn.Linear(4, 8)


def discriminator_step(rank, x):
    vae = DDP(VAE().cuda(), device_ids=[rank])
    disc = DDP(nn.Linear(8, 1).cuda(), device_ids=[rank])
    opt_d = torch.optim.AdamW(disc.parameters())
    recon = vae.module.decoder(vae.module.encoder(x))
    d_loss = disc(x).mean() - disc(recon.detach()).mean()
    d_loss.backward()
    opt_d.step()
