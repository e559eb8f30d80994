# Latent diffusion's main.py, copied into many trainers: on resume the
# configs are globbed from the run's directory and the Trainer is built
# from them, then tested unless fit was interrupted. The Trainer is no
# file check: `trainer.interrupted` is its own state, not what the glob
# found.
import glob
import os

from pytorch_lightning.trainer import Trainer


def load(path):
    return {"max_epochs": 1}


def main(opt, logdir, model, data):
    if opt.resume:
        base_configs = sorted(glob.glob(os.path.join(logdir, "configs/*.yaml")))
        opt.base = base_configs + opt.base
    configs = [load(cfg) for cfg in opt.base]
    trainer = Trainer(**dict(configs[0]))
    trainer.fit(model, data)
    if not opt.no_test and not trainer.interrupted:
        trainer.test(model, data)
