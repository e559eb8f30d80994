# A resume helper that returns early when no path was given: after the
# guard, `path is not None and path != ""` always holds, so the directory
# listing of its else arm never runs and the step it returns is the
# argument's, alike on every rank (rank_llm's resume_from_checkpoint).
import os
import torch
import torch.distributed as dist


def resume_from_checkpoint(path):
    if not path:
        return 0
    if path is not None and path != "":
        name = os.path.basename(path)
    else:
        dirs = [f.name for f in os.scandir(os.getcwd()) if f.is_dir()]
        name = dirs[-1]
    return int(name.replace("step_", ""))


def main(resume, max_steps):
    dist.init_process_group("nccl")
    completed = resume_from_checkpoint(resume)
    for epoch in range(3):
        for step in range(100):
            t = torch.ones(1, device="cuda")
            dist.all_reduce(t)
            completed += 1
            if completed >= max_steps:
                break
        if completed >= max_steps:
            break
