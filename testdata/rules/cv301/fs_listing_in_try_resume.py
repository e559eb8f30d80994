# The checkpoint listing inside a try whose handler falls back to an
# empty list (NAFNet's auto-resume) is still this host's answer: the
# iteration it resumes from bounds the training loop.
import os

import torch
import torch.distributed as dist


def main(t, total_iters, opt):
    state_folder_path = "experiments/{}/training_states/".format(opt["name"])
    try:
        states = os.listdir(state_folder_path)
    except:
        states = []
    resume_state = None
    if len(states) > 0:
        max_state_file = "{}.state".format(max([int(x[0:-6]) for x in states]))
        resume_state = os.path.join(state_folder_path, max_state_file)
    if resume_state:
        resume_state = torch.load(resume_state)
        current_iter = resume_state["iter"]
    else:
        current_iter = 0
    while current_iter <= total_iters:
        current_iter += 1
        dist.all_reduce(t)  # want CV301 "bounds depend on a file system check"
