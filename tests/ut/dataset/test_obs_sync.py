"""sync_wait_for_dataset against a stand-in OBS client: the prefix listed and when the wait ends are what
MindSpore 2.10 gives with the same client (an error and a failed listing retried, then 1 and 2 ready markers)."""

import types

import sporax.dataset as ds


class _Client:
    def __init__(self):
        self.calls = []

    def listObjects(self, bucket, prefix):  # noqa: N802  (OBS SDK's name)
        self.calls.append((bucket, prefix))
        n = len(self.calls)
        if n == 1:
            raise OSError("network down")
        if n == 2:
            return types.SimpleNamespace(status=404, errorCode="NoSuchKey", errorMessage="missing")
        items = [types.SimpleNamespace(key=f"{prefix}{i}.txt") for i in range(n - 2)]
        items.append(types.SimpleNamespace(key=f"{prefix}x.lock"))  # not a ready marker
        return types.SimpleNamespace(status=200, body=types.SimpleNamespace(contents=items))


def test_sync_wait_for_dataset(monkeypatch):
    monkeypatch.setenv("BATCH_JOB_ID", "job7")
    client = _Client()
    config = types.SimpleNamespace(SYNC_OBS_PATH="s3://bkt/sync/dir", RETRY_DELTA_TIME=0)
    runtime = types.SimpleNamespace(config=config, get_obs_client=lambda: client)
    ds.sync_wait_for_dataset(0, 2, 3, runtime)
    assert client.calls == [("bkt", "sync/dir/job7/3/")] * 4
