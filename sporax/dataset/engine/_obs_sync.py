"""``sync_wait_for_dataset``: the epoch barrier of ``OBSMindDataset`` over an OBS bucket (Huawei Cloud object
storage): each rank writes a ready marker ``<sync path>/<BATCH_JOB_ID>/<epoch>/<rank>.txt`` once its files for the
epoch are downloaded, and this waits until ``rank_size`` markers are listed. The OBS client comes from the
``obs_runtime`` (its ``get_obs_client()`` and ``config``), so any client with OBS's ``listObjects`` works."""

from __future__ import annotations

import logging
import os
import time

__all__ = ["sync_wait_for_dataset"]

_log = logging.getLogger("sporax")


def _bucket_and_key(obs_path: str) -> tuple[str, str]:
    """``s3://bucket/a/b`` -> ``("bucket", "a/b")``."""
    start = obs_path.find("//") + 2
    end = obs_path.find("/", start)
    return (obs_path[start:], "") if end == -1 else (obs_path[start:end], obs_path[end + 1 :])


def sync_wait_for_dataset(rank_id, rank_size, current_epoch, obs_runtime):
    """Wait until the dataset files every rank needs for ``current_epoch`` are downloaded (``rank_size`` ready
    markers ending in ``.txt`` under ``<SYNC_OBS_PATH>/<BATCH_JOB_ID>/<current_epoch>/``), listing the bucket
    every ``RETRY_DELTA_TIME`` seconds; listing errors are logged and retried.

    Args:
        rank_id (int): this device's rank.
        rank_size (int): the number of ranks.
        current_epoch (int): the epoch about to start.
        obs_runtime: the OBS runtime of the ``OBSMindDataset`` (``config.SYNC_OBS_PATH``,
            ``config.RETRY_DELTA_TIME``, ``get_obs_client()``).
    """
    config = obs_runtime.config
    bucket, key = _bucket_and_key(config.SYNC_OBS_PATH)
    client = obs_runtime.get_obs_client()
    ready_dir = os.path.join(key, os.environ.get("BATCH_JOB_ID", "unknown"), f"{current_epoch}/")
    while True:
        ready = 0
        try:
            resp = client.listObjects(bucket, prefix=ready_dir)
            if resp.status < 300:
                ready = sum(1 for c in resp.body.contents if c.key.endswith(".txt"))
                if ready >= rank_size:
                    break
            else:
                _log.warning("sync_wait_for_dataset: OBS errorCode:%s, errMsg: %s.", resp.errorCode, resp.errorMessage)
        except Exception:  # noqa: BLE001  (any client failure: log it and list again)
            _log.exception("sync_wait_for_dataset: listing %s failed", ready_dir)
        time.sleep(config.RETRY_DELTA_TIME)
        _log.info(
            "sync_wait_for_dataset: waiting for %s, rank %s of %s, %s ready, epoch %s.",
            ready_dir, rank_id, rank_size, ready, current_epoch,
        )  # fmt: skip
    _log.info("sync_wait_for_dataset: %s ready, epoch %s begins.", ready_dir, current_epoch)
