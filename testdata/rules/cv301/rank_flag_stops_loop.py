# A stop flag that only rank 0 sets, then every rank tests to leave the
# loop: rank 0 leaves and the others run the next pass's collective
# (joeynmt's minimum-learning-rate stop, in its simplest form).
import torch.distributed as dist


class State:
    def __init__(self):
        self.stop = False


def fit(batches, opt):
    rank = dist.get_rank()
    stop = False
    for b in batches:
        dist.all_reduce(b)  # want CV301 "all_reduce .*runs only on the ranks that do not leave early at .*\(`stop`\)"
        if rank == 0 and opt.param_groups[0]["lr"] < 1e-6:
            stop = True
        if stop:
            break
    dist.barrier()


def fit_on_object(batches):
    rank = dist.get_rank()
    s = State()
    for b in batches:
        dist.all_reduce(b)  # want CV301 "all_reduce .*runs only on the ranks that do not leave early at .*\(`s.stop`\)"
        if rank == 0:
            s.stop = True
        if s.stop:
            break


class Stats:
    def __init__(self):
        self.is_min_lr = False


class Trainer:
    def __init__(self, opt):
        self.rank = dist.get_rank()
        self.opt = opt
        self.stats = Stats()

    def _log_scores(self):
        # Only the rank that logs sets the stop flag (joeynmt's
        # minimum-learning-rate stop).
        if self.opt.param_groups[0]["lr"] < 1e-6:
            self.stats.is_min_lr = True

    def train(self, batches):
        for step, batch in enumerate(batches):
            dist.all_reduce(batch)  # want CV301 "all_reduce .*runs only on the ranks that do not leave early at .*\(`self.stats.is_min_lr`\)"
            if step % 10 == 0 and self.rank == 0:
                self._log_scores()
            if self.stats.is_min_lr:
                break
        dist.barrier()


class PPOTrainer:
    def __init__(self):
        self.should_early_stop = False
        self.huge_kl_count = 0

    def step(self, kl):
        dist.all_reduce(kl)
        # The flag is set inside the method's own rank test
        # (FineGrainedRLHF's PPO trainer).
        if dist.get_rank() == 0 and kl.item() > 0.5:
            self.huge_kl_count += 1
            if self.huge_kl_count >= 5:
                self.should_early_stop = True


def drive(kls):
    trainer = PPOTrainer()
    for kl in kls:
        trainer.step(kl)  # want CV301 "runs only on the ranks that do not leave early at .*\(`trainer.should_early_stop`\)"
        if trainer.should_early_stop:
            break


def early_stop_below_guard(t, epochs, patience):
    # After the guard the rest of the pass is rank 0's alone, so only
    # rank 0 takes the early-stopping break (GLNet's inspector).
    best, bad = 0.0, 0
    for _ in range(epochs):
        dist.all_reduce(t)  # want CV301 "runs only on the ranks that do not leave early at .*\(`dist.get_rank\(\) == 0` and then `bad > patience`\)"
        score = t.item()
        if not dist.get_rank() == 0:
            continue
        if score > best:
            best, bad = score, 0
            continue
        bad += 1
        if bad > patience:
            break
