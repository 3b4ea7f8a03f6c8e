"""bucket_batch_by_length(pad_to_bucket_boundary=True): every unspecified (None) dimension of a given pad shape
becomes the bucket's boundary minus 1, and a pad shape of None pads to the batch's longest row: the shapes
MindSpore 2.10 gives on the same data (boundaries [10, 30], batch sizes 2)."""

import numpy as np
import pytest

import sporax.dataset as ds


def _gen():
    for n in (3, 5, 12, 15):
        yield np.arange(n, dtype=np.int32), np.ones((n, 2), np.float32)


@pytest.mark.parametrize(
    "pad_info, shapes",
    [
        ({"a": (None, 0), "b": (None, 0)}, [((2, 5), (2, 5, 2)), ((2, 15), (2, 15, 2))]),
        ({"a": ([None], 0), "b": ([None, None], 0)}, [((2, 9), (2, 9, 9)), ((2, 29), (2, 29, 29))]),
        ({"a": ([20], 0), "b": ([None, 3], 0)}, [((2, 20), (2, 9, 3)), ((2, 20), (2, 29, 3))]),
        ({"a": ([None], -1), "b": ([None, 2], 0)}, [((2, 9), (2, 9, 2)), ((2, 29), (2, 29, 2))]),
    ],
)
def test_pad_to_bucket_boundary_shapes_as_mindspore(pad_info, shapes):
    d = ds.GeneratorDataset(_gen, ["a", "b"], shuffle=False).bucket_batch_by_length(
        ["a"], [10, 30], [2, 2, 2], pad_info=pad_info, pad_to_bucket_boundary=True
    )
    rows = list(d.create_tuple_iterator(output_numpy=True))
    assert [tuple(x.shape for x in r) for r in rows] == shapes
    a = rows[0][0]
    np.testing.assert_array_equal(a[0, :3], [0, 1, 2])
    fill = pad_info["a"][1]
    assert (a[0, 3:] == fill).all()
