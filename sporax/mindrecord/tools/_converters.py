"""The converters: each reads a dataset in its published format and writes MindRecord files with MindSpore's
schemas (images as JPEG bytes, encoded by OpenCV as MindSpore does). ``transform()`` (or ``run()``) does the
work and returns ``SUCCESS``."""

from __future__ import annotations

import csv
import enum
import gzip
import os
import pickle

import numpy as np

from ..._checkparam import check_converter_file, check_converter_path, check_partition_number
from ..filewriter import FileWriter


class MSRStatus(enum.IntEnum):
    """Result of a converter run."""

    SUCCESS = 0
    FAILED = 1


SUCCESS = MSRStatus.SUCCESS
FAILED = MSRStatus.FAILED


def _jpeg(img_bgr_or_gray) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".jpeg", np.ascontiguousarray(img_bgr_or_gray))
    if not ok:
        raise RuntimeError("Failed to encode an image as JPEG.")
    return buf.tobytes()


def _write(path, partition, schema, desc, index, rows):
    writer = FileWriter(path, partition)
    writer.add_schema(schema, desc)
    if index:
        writer.add_index(index)
    batch = []
    for r in rows:
        batch.append(r)
        if len(batch) == 256:
            writer.write_raw_data(batch)
            batch = []
    if batch:
        writer.write_raw_data(batch)
    writer.commit()


class MnistToMR:
    """MNIST's gzipped IDX files in ``source`` to ``destination_train.mindrecord`` and
    ``destination_test.mindrecord`` (schema: label int64, data bytes as a JPEG)."""

    def __init__(self, source, destination, partition_number=1) -> None:
        self.source = check_converter_path(source, "source")
        self.destination = check_converter_path(destination, "destination")
        self.partition_number = check_partition_number(partition_number)
        for f in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
                  "t10k-labels-idx1-ubyte.gz"):  # fmt: skip
            check_converter_file(os.path.join(source, f))

    def _rows(self, prefix):
        with gzip.open(os.path.join(self.source, f"{prefix}-images-idx3-ubyte.gz"), "rb") as f:
            images = np.frombuffer(f.read()[16:], np.uint8).reshape(-1, 28, 28, 1)
        with gzip.open(os.path.join(self.source, f"{prefix}-labels-idx1-ubyte.gz"), "rb") as f:
            labels = np.frombuffer(f.read()[8:], np.uint8).astype(np.int64)
        for img, lb in zip(images, labels):
            yield {"label": int(lb), "data": _jpeg(img)}

    def run(self):
        schema = {"label": {"type": "int64"}, "data": {"type": "bytes"}}
        for prefix, name in (("train", "train"), ("t10k", "test")):
            _write(f"{self.destination}_{name}.mindrecord", self.partition_number, schema, "mnist_schema", ["label"],
                   self._rows(prefix))  # fmt: skip
        return SUCCESS

    def transform(self):
        return self.run()


def _unpickle(path):
    with open(path, "rb") as f:
        return pickle.load(f, encoding="bytes")


class Cifar10ToMR:
    """CIFAR-10's Python pickles (``data_batch_1..5``, ``test_batch``) to ``destination`` and
    ``destination_test`` (schema: id, label int64, data bytes as a JPEG)."""

    _FILES = ([f"data_batch_{i}" for i in range(1, 6)], ["test_batch"])
    _LABELS: tuple[tuple[bytes, str], ...] = ((b"labels", "label"),)
    _DESC = "img_train"

    def __init__(self, source, destination) -> None:
        self.source = check_converter_path(source, "source")
        self.destination = check_converter_path(destination, "destination")

    def _load(self, names):
        data, labels = [], {k: [] for _, k in self._LABELS}
        for n in names:
            d = _unpickle(os.path.join(self.source, n))
            data.append(np.asarray(d[b"data"], np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
            for src, k in self._LABELS:
                labels[k].extend(int(v) for v in d[src])
        return np.concatenate(data), labels

    def _schema(self):
        s = {"id": {"type": "int64"}}
        s.update({k: {"type": "int64"} for _, k in self._LABELS})
        s["data"] = {"type": "bytes"}
        return s

    def _rows(self, images, labels):
        for i, img in enumerate(images):
            row = {"id": i, "data": _jpeg(img[..., [2, 1, 0]])}
            row.update({k: v[i] for k, v in labels.items()})
            yield row

    def run(self, fields=None):
        for names, dest, desc in ((self._FILES[0], self.destination, "img_train"),
                                  (self._FILES[1], self.destination + "_test", "img_test")):  # fmt: skip
            images, labels = self._load(names)
            _write(dest, 1, self._schema(), desc, fields, self._rows(images, labels))
        return SUCCESS

    def transform(self, fields=None):
        return self.run(fields)


class Cifar100ToMR(Cifar10ToMR):
    """CIFAR-100's Python pickles (``train``, ``test``) to ``destination`` and ``destination_test`` (schema: id,
    fine_label, coarse_label int64, data bytes as a JPEG)."""

    _FILES = (["train"], ["test"])
    _LABELS = ((b"fine_labels", "fine_label"), (b"coarse_labels", "coarse_label"))


class ImageNetToMR:
    """An ImageNet-style folder to MindRecord: ``map_file`` lines ``<folder> <label>``; every ``.JPEG``/``.jpg``
    of ``image_dir/<folder>`` becomes a row (label int32, image bytes, file_name string)."""

    def __init__(self, map_file, image_dir, destination, partition_number=1) -> None:
        self.map_file = check_converter_path(map_file, "map_file")
        self.image_dir = check_converter_path(image_dir, "image_dir")
        self.destination = check_converter_path(destination, "destination")
        self.partition_number = check_partition_number(partition_number)
        check_converter_file(map_file)

    def _rows(self):
        with open(self.map_file, encoding="utf-8") as f:
            pairs = [ln.split() for ln in f if ln.strip()]
        found = False
        for folder, label in pairs:
            d = os.path.join(self.image_dir, folder)
            if not os.path.isdir(d):
                continue
            found = True
            for item in sorted(os.listdir(d)):
                if not (item.endswith("JPEG") or item.endswith("jpg")):
                    continue
                p = os.path.join(d, item)
                with open(p, "rb") as f:
                    yield {"file_name": p, "label": int(label), "image": f.read()}
        if not found:
            raise RuntimeError(f"Invalid path, no valid image dir in {self.image_dir}.")

    def run(self):
        schema = {"label": {"type": "int32"}, "image": {"type": "bytes"}, "file_name": {"type": "string"}}
        _write(self.destination, self.partition_number, schema, "imagenet_schema", ["label", "file_name"], self._rows())
        return SUCCESS

    def transform(self):
        return self.run()


def _infer(values):
    def is_int(s):
        try:
            int(s)
            return True
        except ValueError:
            return False

    def is_float(s):
        try:
            float(s)
            return True
        except ValueError:
            return False

    vals = [v for v in values if v != ""]
    if vals and all(v in ("True", "False") for v in vals):
        return "int32"
    if vals and all(is_int(v) for v in vals):
        return "int64"
    if vals and all(is_float(v) for v in vals):
        return "float64"
    return "string"


class CsvToMR:
    """A CSV file (header line first) to MindRecord: int64, float64, bool (as int32) or string columns, inferred
    like pandas; ``columns_list`` picks the index columns."""

    def __init__(self, source, destination, columns_list=None, partition_number=1) -> None:
        self.source = check_converter_path(source, "source")
        self.destination = check_converter_path(destination, "destination")
        check_converter_file(source)
        if columns_list is not None and not isinstance(columns_list, list):
            raise ValueError("The parameter columns_list must be list of str.")
        self.columns_list = columns_list
        self.partition_number = check_partition_number(partition_number)

    def run(self):
        with open(self.source, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        if not rows:
            raise RuntimeError("Failed to generate schema from csv file.")
        header, body = rows[0], rows[1:]
        types = [_infer([r[i] for r in body]) for i in range(len(header))]
        schema = {h: {"type": t} for h, t in zip(header, types)}
        conv = {"int64": int, "float64": float, "int32": lambda s: int(s == "True"), "string": str}
        out = ({h: conv[t](r[i]) for i, (h, t) in enumerate(zip(header, types))} for r in body)
        _write(self.destination, self.partition_number, schema, "csv_schema", self.columns_list, out)
        return SUCCESS

    def transform(self):
        return self.run()


class TFRecordToMR:
    """A TFRecord file of ``tf.train.Example`` to MindRecord (no TensorFlow needed). ``feature_dict`` maps each
    feature to its spec: a ``tf.io.FixedLenFeature``-like object (``shape``, ``dtype``) or a ``(shape, dtype)``
    pair with dtype ``'int64'``, ``'float32'`` or ``'string'``; ``bytes_fields`` are stored as bytes."""

    def __init__(self, source, destination, feature_dict, bytes_fields=None) -> None:
        self.source = check_converter_path(source, "source")
        self.destination = check_converter_path(destination, "destination")
        if not isinstance(feature_dict, dict) or not feature_dict:
            raise ValueError("Parameter feature_dict must be a non-empty dict.")
        self.feature_dict = feature_dict
        self.bytes_fields = list(bytes_fields or [])
        for b in self.bytes_fields:
            if b not in feature_dict:
                raise ValueError(f"Parameter bytes_fields: {b} not in feature_dict.")

    @staticmethod
    def _spec(v):
        if isinstance(v, tuple):
            shape, dtype = v
        else:
            shape, dtype = getattr(v, "shape", []), getattr(v, "dtype", "string")
        return list(shape or []), str(getattr(dtype, "name", dtype)).replace("tf.", "")

    def run(self):
        from .._tfrecord import parse_example, read_records

        schema, specs = {}, {}
        for name, v in self.feature_dict.items():
            shape, dtype = self._spec(v)
            specs[name] = (shape, dtype)
            if name in self.bytes_fields or dtype == "string":
                schema[name] = {"type": "bytes" if name in self.bytes_fields else "string"}
            else:
                t = "int64" if dtype.startswith("int") else "float32" if dtype == "float32" else "float64"
                schema[name] = {"type": t, "shape": shape or [-1]} if shape not in ([], [1]) else {"type": t}

        def rows():
            for rec in read_records(self.source):
                ex = parse_example(rec)
                row = {}
                for name, (shape, _dtype) in specs.items():
                    kind, vals = ex[name]
                    if kind == "bytes":
                        row[name] = vals[0] if name in self.bytes_fields else vals[0].decode("utf-8")
                    else:
                        arr = np.asarray(vals, np.int64 if kind == "int64" else np.float32)
                        row[name] = arr.reshape(shape) if shape not in ([], [1]) else arr.reshape(-1)[0].item()
                yield row

        _write(self.destination, 1, schema, "TFRecord to MindRecord", None, rows())
        return SUCCESS

    def transform(self):
        return self.run()
