"""OcclusionSensitivity."""

from __future__ import annotations

import numpy as np

from sporax.common.tensor import Tensor

from ..._checkparam import check_value_type
from .metric import Metric, rearrange_inputs


class OcclusionSensitivity(Metric):
    """
    Calculates the occlusion sensitivity of a model for a given image: how much the predicted probability of a
    label drops when each part of the image is occluded (higher: more important for the decision).

    Args:
        pad_val (float, optional): The padding value of the occluded part in an image. Default: ``0.0`` .
        margin (Union[int, Sequence], optional): The half-size of the occluded cuboid around each pixel.
            Default: ``2`` .
        n_batch (int, optional): Number of images in a batch. Default: ``128`` .
        b_box (Sequence, optional): Bounding box ``[min1, max1, min2, max2, ...]`` of the analysis (all dimensions
            but the batch); the output is cropped to it. Default: ``None`` (the whole image).

    Examples:
        >>> import numpy as np
        >>> from sporax import nn, Tensor
        >>> from sporax.train import OcclusionSensitivity
        >>> class DenseNet(nn.Cell):
        ...     def __init__(self):
        ...         super(DenseNet, self).__init__()
        ...         w = np.array([[0.1, 0.8, 0.1, 0.1],[1, 1, 1, 1]]).astype(np.float32)
        ...         b = np.array([0.3, 0.6]).astype(np.float32)
        ...         self.dense = nn.Dense(4, 2, weight_init=Tensor(w), bias_init=Tensor(b))
        ...     def construct(self, x):
        ...         return self.dense(x)
        >>> model = DenseNet()
        >>> test_data = np.array([[0.1, 0.2, 0.3, 0.4]]).astype(np.float32)
        >>> label = np.array(1).astype(np.int32)
        >>> metric = OcclusionSensitivity()
        >>> metric.clear()
        >>> metric.update(model, test_data, label)
        >>> score = metric.eval()
        >>> print(score)
        [0.29999995 0.6        1.         0.9       ]
    """

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        self.pad_val = check_value_type("pad_val", pad_val, [float])
        self.margin = check_value_type("margin", margin, [int, list])
        self.n_batch = check_value_type("n_batch", n_batch, [int])
        self.b_box = b_box if b_box is None else check_value_type("b_box", b_box, [list])
        self.clear()

    def clear(self):
        """Clears the internal evaluation result."""
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """
        Updates with `model`, `y_pred` and `label`.

        Args:
            inputs: `model` (the classification Cell), `y_pred` (one image, 2D or 3D, with a batch dimension of 1)
                and `label` (the class whose probability is watched), each Tensor, list or numpy.ndarray.

        Raises:
            ValueError: If the number of inputs is not 3.
            RuntimeError: If y_pred.shape[0] is not 1.
            RuntimeError: If the number of labels is different from the number of batches.
        """
        from sporax.nn import Cell

        if len(inputs) != 3:
            raise ValueError(
                "For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, "
                f"predicted value, label), but got {len(inputs)}."
            )
        model = check_value_type("model", inputs[0], [Cell])
        y_pred = self._convert_data(inputs[1])
        label = self._convert_data(inputs[2])
        if y_pred.shape[0] > 1:
            raise RuntimeError(
                "For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                f"(input[1]) must be 1, but got {y_pred.shape[0]}."
            )
        if np.prod(label.shape) != y_pred.shape[0]:
            raise RuntimeError(
                "For 'OcclusionSensitivity.update', the number of the label (input[2]) must be "
                f"same as the batches, but got the label number {np.prod(label.shape)}, and batches {y_pred.shape[0]}."
            )
        y_pred_shape = np.array(y_pred.shape[1:])
        b_box_min, b_box_max = _bounding_box(self.b_box, y_pred_shape)
        temp = model(Tensor(y_pred)).asnumpy()
        self._baseline = temp[0, label].item()
        batch_images, batch_ids = [], []
        sensitivity_im = np.empty(0, dtype=float)
        output_im_shape = y_pred_shape if self.b_box is None else b_box_max - b_box_min + 1
        num_required_predictions = int(np.prod(output_im_shape))
        for i in range(num_required_predictions):
            idx = np.unravel_index(i, output_im_shape)
            if b_box_min is not None:
                idx += b_box_min
            min_idx = [max(0, k - self.margin) for k in idx]
            max_idx = [min(j, k + self.margin) for k, j in zip(idx, y_pred_shape)]
            occlu_im = y_pred.copy()
            occlu_im[(...,) + tuple(slice(k, j) for k, j in zip(min_idx, max_idx))] = self.pad_val
            batch_images.append(occlu_im)
            batch_ids.append(label)
            if len(batch_images) == self.n_batch or i == num_required_predictions - 1:
                sensitivity_im = _append_to_sensitivity_im(model, batch_images, batch_ids, sensitivity_im)
                batch_images, batch_ids = [], []
        self._sensitivity_im = sensitivity_im.reshape(output_im_shape)
        self._is_update = True

    def eval(self):
        """
        Computes the occlusion sensitivity.

        Returns:
            A numpy.ndarray.

        Raises:
            RuntimeError: If the update method is not called first, an error will be reported.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)


def _append_to_sensitivity_im(model, batch_images, batch_ids, sensitivity_im):
    """The model's probability of the label for a batch of occluded images, appended to the previous ones."""
    batch_images = np.vstack(batch_images)
    batch_ids = np.expand_dims(batch_ids, 1)
    model_numpy = model(Tensor(batch_images)).asnumpy()
    first_indices = np.arange(batch_ids.shape[0])[:, None]
    scores = model_numpy[first_indices, batch_ids]
    if sensitivity_im.size == 0:
        return np.vstack(scores)
    return np.vstack((sensitivity_im, scores))


def _bounding_box(b_box, im_shape):
    """Check that the bounding box (if supplied) is as expected."""
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError(
            "For 'OcclusionSensitivity', the bounding box must contain upper and lower for all dimensions (except "
            "batch number), and the length of 'b_box' must be twice as long as predicted value's (except batch "
            f"number), but got 'b_box' length {len(b_box)}, predicted value length (except batch number) "
            f"{len(im_shape)}."
        )
    b_box_min = np.array(b_box[::2])
    b_box_max = np.array(b_box[1::2])
    b_box_min[b_box_min < 0] = 0
    b_box_max[b_box_max < 0] = im_shape[b_box_max < 0] - 1
    if np.any(b_box_max >= im_shape):
        raise ValueError(
            "For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all values."
        )
    if np.any(b_box_min > b_box_max):
        raise ValueError(
            "For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding box for all values."
        )
    return b_box_min, b_box_max
