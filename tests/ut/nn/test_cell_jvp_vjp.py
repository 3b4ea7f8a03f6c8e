"""nn.Jvp / nn.Vjp against MindSpore 2.10's outputs (tools/make_cell_naming_reference.py) and the analytic
derivatives of x**3 + y (d/dx = 3x**2)."""

import json
import os

import numpy as np
from _cell_naming_cases import grad_wrapper_cases

import sporax as ms
from sporax import nn

with open(os.path.join(os.path.dirname(__file__), "fixtures", "cell_naming_reference.json")) as _f:
    REF = json.load(_f)["grad_wrappers"]


def _flat(x):
    if isinstance(x, list):
        return [e for item in x for e in _flat(item)]
    return [x]


def _shape(x):
    return [_shape(e) for e in x] if isinstance(x, list) else None


def test_jvp_vjp_match_mindspore():
    got = grad_wrapper_cases(nn, ms, np)
    for key, expected in REF.items():
        assert _shape(got[key]) == _shape(expected), key  # same nesting: tuples where MindSpore returns tuples
        np.testing.assert_allclose(_flat(got[key]), _flat(expected), rtol=1e-6, err_msg=key)


def test_jvp_vjp_analytic():
    x = np.array([[1, 2], [3, 4]], np.float32)
    v = np.array([[1, 0.5], [-1, 2]], np.float32)
    np.testing.assert_allclose(REF["jvp_one_input"][1], 3 * x**2 * v)
    np.testing.assert_allclose(REF["vjp_two_inputs"][1][0], 3 * x**2 * v)
    np.testing.assert_allclose(REF["vjp_two_inputs"][1][1], v)
