"""AutoBoost's cases (level, boost config dict), written once for tests/ut/boost/test_boost.py and
tools/make_nn_boost_reference.py."""

CASES = {
    "O0": ("O0", ""),
    "O1": ("O1", ""),
    "O2": ("O2", ""),
    "bad_level": ("O9", ""),
    "manual": (
        "O1",
        {
            "boost": {"mode": "manual", "less_bn": False, "grad_accumulation": True},
            "grad_accumulation": {"grad_accumulation_step": 4},
            "common": {"gradient_split_groups": [2, 4], "device_number": 2},
            "grad_freeze": {"freeze_p": 0.1},
        },
    ),
    "enable_all": (
        "O0",
        {
            "boost": {"mode": "enable_all"},
            "grad_freeze": {"param_groups": 3, "freeze_type": 0},
            "less_bn": {"fn_flag": False, "gc_flag": False},
            "dim_reduce": {"rho": 0.5, "n_components": 4, "timeout": 5},
        },
    ),
    "disable_all": ("O2", {"boost": {"mode": "disable_all"}, "grad_freeze": {"param_groups": 3}}),
    "auto": ("O1", {"boost": {"mode": "auto"}, "grad_freeze": {"total_steps": 100}, "adasum": {"x": 1}}),
}


def residual_net(nn):
    """LessBN's residual network: a stem, two ModelZoo ResNet bottleneck blocks (convolution and identity
    shortcuts) and a basic block with a convolution shortcut, built with sporax's or MindSpore's ``nn``."""

    class Bottleneck(nn.Cell):
        """ModelZoo ResNet's bottleneck block (conv/bn x3, a convolution shortcut when down_sample)."""

        def __init__(self, cin, cout, down_sample):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, 2, 1)
            self.bn1 = nn.BatchNorm2d(2)
            self.conv2 = nn.Conv2d(2, 2, 3)
            self.bn2 = nn.BatchNorm2d(2)
            self.conv3 = nn.Conv2d(2, cout, 1)
            self.bn3 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down_sample = down_sample
            if down_sample:
                self.down_sample_layer = nn.SequentialCell([nn.Conv2d(cin, cout, 1), nn.BatchNorm2d(cout)])

        def construct(self, x):
            identity = x
            out = self.conv1(x)
            out = self.bn1(out)
            out = self.relu(out)
            out = self.conv2(out)
            out = self.bn2(out)
            out = self.relu(out)
            out = self.conv3(out)
            out = self.bn3(out)
            if self.down_sample:
                identity = self.down_sample_layer(identity)
            out = out + identity
            return self.relu(out)

    class BasicBlock(nn.Cell):
        """ResNet-18's block with a convolution shortcut."""

        def __init__(self, cin, cout):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down_sample_layer = nn.SequentialCell([nn.Conv2d(cin, cout, 1), nn.BatchNorm2d(cout)])

        def construct(self, x):
            identity = x
            out = self.conv1(x)
            out = self.bn1(out)
            out = self.relu(out)
            out = self.conv2(out)
            out = self.bn2(out)
            identity = self.down_sample_layer(identity)
            out = out + identity
            return self.relu(out)

    return nn.SequentialCell(
        [nn.Conv2d(3, 3, 1), nn.ReLU(), Bottleneck(3, 4, True), Bottleneck(4, 4, False), BasicBlock(4, 5)]
    )
