"""Errors of ``mindspore.mindrecord``: one class per failure, all subclasses of :class:`MindRecordException`."""

from __future__ import annotations

__all__ = [
    "MindRecordException",
    "UnknownError",
    "ParamValueError",
    "ParamTypeError",
    "ParamMissError",
    "PathNotExistsError",
    "DbConnectionError",
    "MRMOpenError",
    "MRMOpenForAppendError",
    "MRMInvalidPageSizeError",
    "MRMInvalidHeaderSizeError",
    "MRMSetHeaderError",
    "MRMWriteDatasetError",
    "MRMCommitError",
    "MRMLaunchError",
    "MRMFinishError",
    "MRMCloseError",
    "MRMAddSchemaError",
    "MRMAddIndexError",
    "MRMBuildSchemaError",
    "MRMGetMetaError",
    "MRMIndexGeneratorError",
    "MRMGenerateIndexError",
    "MRMInitSegmentError",
    "MRMFetchCandidateFieldsError",
    "MRMReadCategoryInfoError",
    "MRMFetchDataError",
    "MRMInvalidSchemaError",
    "MRMValidateDataError",
    "MRMDefineIndexError",
    "MRMDefineBlobError",
    "MRMUnsupportedSchemaError",
    "MRMDefineCategoryError",
]


class MindRecordException(Exception):
    """Base class of the MindRecord errors.

    Args:
        detail (str, optional): what went wrong. Default: ``""``.
    """

    _summary = "MindRecord error."

    def __init__(self, detail: str = "") -> None:
        self.detail = detail
        msg = self._summary + (f" Detail: {detail}" if detail else "")
        super().__init__(f"[{type(self).__name__}]: {msg}")

    @property
    def error_msg(self) -> str:
        return str(self)


def _make(name: str, summary: str) -> type[MindRecordException]:
    return type(name, (MindRecordException,), {"_summary": summary, "__doc__": summary})


UnknownError = _make("UnknownError", "Unknown error.")
ParamValueError = _make("ParamValueError", "Invalid parameter value.")
ParamTypeError = _make("ParamTypeError", "Invalid parameter type.")
ParamMissError = _make("ParamMissError", "Param missing.")
PathNotExistsError = _make("PathNotExistsError", "Invalid path: it does not exist.")
DbConnectionError = _make("DbConnectionError", "Db connection is error.")
MRMOpenError = _make("MRMOpenError", "MindRecord could not open.")
MRMOpenForAppendError = _make("MRMOpenForAppendError", "MindRecord could not open for append.")
MRMInvalidPageSizeError = _make("MRMInvalidPageSizeError", "Failed to set page size.")
MRMInvalidHeaderSizeError = _make("MRMInvalidHeaderSizeError", "Failed to set header size.")
MRMSetHeaderError = _make("MRMSetHeaderError", "Failed to set header.")
MRMWriteDatasetError = _make("MRMWriteDatasetError", "Failed to write dataset.")
MRMCommitError = _make("MRMCommitError", "Failed to commit.")
MRMLaunchError = _make("MRMLaunchError", "Failed to launch.")
MRMFinishError = _make("MRMFinishError", "Failed to finish.")
MRMCloseError = _make("MRMCloseError", "Failed to close.")
MRMAddSchemaError = _make("MRMAddSchemaError", "Failed to add schema.")
MRMAddIndexError = _make("MRMAddIndexError", "Failed to add index field.")
MRMBuildSchemaError = _make("MRMBuildSchemaError", "Failed to build schema.")
MRMGetMetaError = _make("MRMGetMetaError", "Failed to get meta info.")
MRMIndexGeneratorError = _make("MRMIndexGeneratorError", "Failed to create index generator.")
MRMGenerateIndexError = _make("MRMGenerateIndexError", "Failed to generate index.")
MRMInitSegmentError = _make("MRMInitSegmentError", "Failed to initialize segment.")
MRMFetchCandidateFieldsError = _make("MRMFetchCandidateFieldsError", "Failed to fetch candidate category fields.")
MRMReadCategoryInfoError = _make("MRMReadCategoryInfoError", "Failed to read category information.")
MRMFetchDataError = _make("MRMFetchDataError", "Failed to fetch data by category.")
MRMInvalidSchemaError = _make("MRMInvalidSchemaError", "Schema format is error.")
MRMValidateDataError = _make("MRMValidateDataError", "Raw data is not valid.")
MRMDefineIndexError = _make("MRMDefineIndexError", "Failed to define index field.")
MRMDefineBlobError = _make("MRMDefineBlobError", "Failed to define blob field.")
MRMUnsupportedSchemaError = _make("MRMUnsupportedSchemaError", "Schema is not supported.")
MRMDefineCategoryError = _make("MRMDefineCategoryError", "Failed to define category field.")
