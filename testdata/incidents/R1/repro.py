import lightning.pytorch as pl

from mymodels import Emulator, build_datamodule


def run(cfg):
    model = Emulator(cfg)
    dm = build_datamodule(cfg)
    trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp", max_epochs=cfg.epochs)
    trainer.fit(model, datamodule=dm)
    if trainer.is_global_zero:
        trainer.save_checkpoint(f"{cfg.out_dir}/final.ckpt")
    trainer.strategy.barrier("finalize")
