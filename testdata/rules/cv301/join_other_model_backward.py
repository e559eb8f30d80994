# A GAN's loop inside the generator's join(): a rank that runs out of
# batches leaves, and the generator's DDP shadows its own all-reduces for
# it, but not the discriminator's, whose backward the other ranks still
# run.
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def train(loader):
    dist.init_process_group("nccl")
    gen = DDP(torch.nn.Linear(4, 4).cuda())
    disc = DDP(torch.nn.Linear(4, 1).cuda())
    opt_g = torch.optim.SGD(gen.parameters(), lr=0.1)
    opt_d = torch.optim.SGD(disc.parameters(), lr=0.1)
    with gen.join():
        for x in loader:
            fake = gen(x.cuda())
            d_loss = disc(fake.detach()).mean()
            opt_d.zero_grad()
            d_loss.backward()  # want CV301 "not those of another model like this one"
            opt_d.step()
            g_loss = -disc(fake).mean()
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
