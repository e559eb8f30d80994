# Calling an instance of a subclass of one of torch.nn's layer classes
# runs the subclass's forward, as it does for a direct subclass of
# nn.Module (a tensor-parallel layer derived from nn.Linear). A class
# derived from nn.Parameter is a tensor, not a module.
import torch
import torch.nn as nn


class ColumnLinear(nn.Linear):
    def forward(self, x):
        return x


class Stack(nn.Sequential):
    def forward(self, x):
        return x


class Marked(nn.Parameter):
    pass


def run(x):
    a = ColumnLinear(4, 4)
    a(x)  # calls: layers.ColumnLinear.forward
    s = Stack()
    s(x)  # calls: layers.Stack.forward
    m = torch.nn.modules.linear.Linear(4, 4)
    m(x)  # calls: -
