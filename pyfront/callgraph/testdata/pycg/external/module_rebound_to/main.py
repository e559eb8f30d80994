import torch


class Net(torch.nn.Module):
    def forward(self, x):
        return x


model = Net()
model = model.to("cuda")
model = model.to("cuda")
model.forward(1)
