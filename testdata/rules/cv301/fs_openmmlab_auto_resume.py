# OpenMMLab's auto-resume looks for the newest checkpoint in this host's
# work_dir (find_latest_checkpoint globs it): only the ranks that found
# none calibrate, and calibration barriers every batch (VP-QOD's QAT).
import torch
import torch.distributed as dist
from mmdet.utils import find_latest_checkpoint


def calibrate(model, loader, n):
    for i, data in enumerate(loader):
        with torch.no_grad():
            model(**data)
        dist.barrier()
        if i + 1 >= n:
            break


def qat_detector(model, loader, cfg):
    if cfg.resume_from is None and cfg.get("auto_resume"):
        resume_from = find_latest_checkpoint(cfg.work_dir)
        if resume_from is not None:
            cfg.resume_from = resume_from
    if not cfg.resume_from:
        calibrate(model, loader, 32)  # want CV301 "depends on a file system check"
    dist.barrier()
