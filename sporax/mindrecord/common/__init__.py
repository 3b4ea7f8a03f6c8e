"""Errors of ``mindspore.mindrecord``."""

from .exceptions import *
