from stage import Stage


def make_stage(model, device):
    return Stage(model, device)
