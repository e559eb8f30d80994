from accelerate import Accelerator as HFAccelerator


class Accelerator:
    """Forwards every attribute it lacks to accelerate's Accelerator."""

    def __init__(self):
        self.accelerator = HFAccelerator()

    def __getattr__(self, name):
        return getattr(self.accelerator, name)
