# The only caller hands over an attribute filled outside the program
# (an untyped constructor parameter): the callee's annotation still types
# it.
from attn import attn_func


class Mgr:
    def __init__(self, rt):
        self.rt = rt

    def calc(self, x):
        return attn_func(x, self.rt)
