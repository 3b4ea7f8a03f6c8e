"""import mindspore -> sporax, the 1.x module paths, and `sporax run`."""

import subprocess
import sys
import textwrap

import pytest

from sporax.compat import alias_mindspore, unalias_mindspore


@pytest.fixture
def aliased():
    alias_mindspore()
    yield
    unalias_mindspore()


def test_alias_gives_the_same_modules(aliased):
    import mindspore
    import mindspore.nn as mnn
    from mindspore import ops
    from mindspore.common.initializer import Normal
    from mindspore.common.parameter import Parameter
    from mindspore.common.tensor import Tensor
    from mindspore.nn.wrap.cell_wrapper import TrainOneStepCell
    from mindspore.ops import composite as C
    from mindspore.ops import operations as P
    from mindspore.parallel._utils import _get_device_num, _get_parallel_mode

    import sporax

    assert mindspore is sporax and mnn.Cell is sporax.nn.Cell
    assert Tensor is sporax.Tensor and Parameter is sporax.Parameter and Normal is sporax.common.initializer.Normal
    assert TrainOneStepCell is sporax.nn.TrainOneStepCell and ops is sporax.ops
    assert C.GradOperation is sporax.ops.GradOperation and P.ReLU is sporax.ops.ReLU
    assert _get_device_num() == 1 and _get_parallel_mode() == mindspore.ParallelMode.STAND_ALONE
    import mindspore.common.dtype as mstype
    import mindspore.context as context

    assert mstype.float32 is sporax.float32 and context.get_context("mode") == context.PYNATIVE_MODE


def test_missing_module_says_so(aliased):
    with pytest.raises(ModuleNotFoundError, match="sporax has no 'sporax.nonexistent'"):
        import mindspore.nonexistent  # noqa: F401


def test_sporax_run_hides_framework_frames(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(
        textwrap.dedent("""
        import numpy as np
        import mindspore as ms
        from mindspore import nn, Tensor
        net = nn.Dense(256, 10)
        net(Tensor(np.ones((1, 16), np.float32)))
    """)
    )
    r = subprocess.run(
        [sys.executable, "-m", "sporax", "run", str(script)], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 1
    assert "For 'Dense', the 'x' shape[-1] must be 256, but got 16." in r.stderr
    assert 'bad.py", line 6' in r.stderr
    assert "sporax/nn" not in r.stderr and "site-packages/jax" not in r.stderr


def test_sporax_run_passes_argv_and_mode(tmp_path):
    script = tmp_path / "args.py"
    script.write_text("import sys, mindspore as ms\nprint(sys.argv[1:], ms.get_context('mode'))\n")
    r = subprocess.run(
        [sys.executable, "-m", "sporax", "run", "--mode", "graph", str(script), "--epochs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['--epochs', '2'] 0"


def test_aliasing_leaves_the_real_modules_specs_intact(aliased):
    import mindspore.nn  # noqa: F401

    import sporax.nn

    assert sporax.nn.__spec__.name == "sporax.nn"


def test_train_names_at_top_level_and_metrics_in_nn():
    import sporax as ms
    import sporax.train

    assert ms.LossMonitor is sporax.train.LossMonitor and ms.CheckpointConfig is sporax.train.CheckpointConfig
    assert ms.nn.Accuracy is sporax.train.metrics.Accuracy
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ms.nope


def test_sporax_run_seed_makes_runs_reproducible(tmp_path):
    script = tmp_path / "rand.py"
    script.write_text(
        "import mindspore as ms\nfrom mindspore import ops\nprint(ops.standard_normal((3,)).asnumpy().tolist())\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-m", "sporax", "run", "--seed", "5", str(script)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        for _ in range(2)
    ]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
