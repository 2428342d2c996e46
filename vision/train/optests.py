#!/usr/bin/env python3
"""Writes the Go interpreter's operator tests (vision/onnx/testdata): one
small ONNX model per operator and attribute case, exported by the training
framework, with a random input and the framework's output.

    python3 vision/train/optests.py
"""

import json
import os

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "onnx", "testdata")


class Seq(nn.Module):
    def __init__(self, *m):
        super().__init__()
        self.m = nn.Sequential(*m)

    def forward(self, x):
        return self.m(x)


class Res(nn.Module):
    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x):
        return self.c(x) + x


class BNConv(nn.Module):
    """Conv + BatchNorm + ReLU, as the exporter folds them."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(3, 6, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(6)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.2, 0.2)

    def forward(self, x):
        return torch.relu(self.bn(self.c(x)))


CASES = {
    "conv3x3": (Seq(nn.Conv2d(3, 5, 3, padding=1)), (1, 3, 9, 11)),
    "conv_stride2": (Seq(nn.Conv2d(3, 8, 3, stride=2, padding=1)), (1, 3, 13, 10)),
    "conv_dilation2": (Seq(nn.Conv2d(4, 6, 3, padding=2, dilation=2)), (1, 4, 12, 12)),
    "conv_nopad_nobias": (Seq(nn.Conv2d(2, 3, 5, bias=False)), (1, 2, 9, 8)),
    "conv1x1": (Seq(nn.Conv2d(6, 4, 1)), (1, 6, 5, 7)),
    "conv_batch2": (Seq(nn.Conv2d(3, 4, 3, padding=1)), (2, 3, 6, 6)),
    "conv_bn_relu": (BNConv(), (1, 3, 8, 8)),
    "relu": (Seq(nn.ReLU()), (1, 3, 4, 5)),
    "maxpool2": (Seq(nn.MaxPool2d(2)), (1, 3, 9, 8)),
    "maxpool3_s2_pad1": (Seq(nn.MaxPool2d(3, stride=2, padding=1)), (1, 2, 9, 9)),
    "gap_flatten_gemm": (Seq(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(5, 3)), (2, 5, 4, 6)),
    "add": (Res(), (1, 4, 6, 5)),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(3)
    for name, (mod, shape) in CASES.items():
        mod.eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            y = mod(x)
        path = os.path.join(OUT, name + ".onnx")
        torch.onnx.export(mod, (x,), path, input_names=["x"], output_names=["y"], opset_version=13,
                          do_constant_folding=True, training=torch.onnx.TrainingMode.EVAL)
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump({"x": {"shape": list(x.shape), "data": [round(float(v), 6) for v in x.flatten()]},
                       "y": {"shape": list(y.shape), "data": [round(float(v), 6) for v in y.flatten()]}}, f)
        print("wrote", name)


if __name__ == "__main__":
    main()
