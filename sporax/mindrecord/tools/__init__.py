"""Converters of common datasets to MindRecord (``mindspore.mindrecord.tools``): MNIST, CIFAR-10/100, ImageNet
folders, CSV and TFRecord files."""

from ._converters import Cifar10ToMR, Cifar100ToMR, CsvToMR, ImageNetToMR, MnistToMR, TFRecordToMR

__all__ = ["MnistToMR", "Cifar10ToMR", "Cifar100ToMR", "ImageNetToMR", "CsvToMR", "TFRecordToMR"]
