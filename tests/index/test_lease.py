"""The lease that serialises writers of an index on object storage (a real S3 server)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from ctxopt.errors import IndexBusyError
from ctxopt.index.lease import LEASE_NAME, lease_lock, read_lease
from ctxopt.index.location import RemoteIndex, locate
from ctxopt.index.lock import index_lock
from s3server import S3Server


@pytest.fixture
def place(s3_server: S3Server, s3_env: dict[str, str]) -> RemoteIndex:
    location = locate(f"s3://{s3_server.bucket()}/app")
    assert isinstance(location, RemoteIndex)
    return location


def test_a_held_lease_stops_a_second_writer_with_one_line_naming_it(place: RemoteIndex) -> None:
    with index_lock(place.base):
        lease = read_lease(place)
        assert lease is not None and lease.expires > time.time() + 30
        with pytest.raises(IndexBusyError) as caught, index_lock(place.base):
            pass
    message = str(caught.value)
    assert "\n" not in message and f"another ctxopt index is running on {place.base}" in message
    assert f"pid {lease.pid}" in message and "--wait" in message
    assert not place.exists(LEASE_NAME)  # released at the end of the block


def test_the_lease_is_renewed_while_the_run_writes(place: RemoteIndex) -> None:
    with lease_lock(place, seconds=3, settle=0.1):
        first = read_lease(place)
        time.sleep(2.5)  # past two thirds of the lease: renewed at least once
        later = read_lease(place)
    assert first is not None and later is not None
    assert later.owner == first.owner and later.expires > first.expires


def test_an_expired_lease_of_a_killed_run_is_taken_over(place: RemoteIndex) -> None:
    place.write_text(LEASE_NAME, '{"owner": "dead", "host": "ci", "pid": 7, "expires": 1.0}')
    with index_lock(place.base):
        lease = read_lease(place)
        assert lease is not None and lease.owner != "dead"


def test_an_unexpired_lease_of_a_process_gone_from_this_machine_is_taken_over(
    place: RemoteIndex,
) -> None:
    """A run killed with SIGKILL on this machine leaves a lease that would block for up to
    a minute; its process is gone, so the lease is stale at once."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # its pid no longer runs
    lease = {"owner": "killed", "host": socket.gethostname(), "pid": gone.pid}
    place.write_text(LEASE_NAME, json.dumps({**lease, "expires": time.time() + 55}))
    with index_lock(place.base):
        taken = read_lease(place)
        assert taken is not None and taken.owner != "killed"
    alive = {"owner": "alive", "host": socket.gethostname(), "pid": os.getpid()}
    place.write_text(LEASE_NAME, json.dumps({**alive, "expires": time.time() + 55}))
    with pytest.raises(IndexBusyError), index_lock(place.base):
        pass  # a live process's lease still holds
    elsewhere = {"owner": "other", "host": "another-machine", "pid": gone.pid}
    place.write_text(LEASE_NAME, json.dumps({**elsewhere, "expires": time.time() + 55}))
    with pytest.raises(IndexBusyError), index_lock(place.base):
        pass  # a pid of another machine says nothing here


def test_wait_blocks_until_the_other_writer_releases(place: RemoteIndex) -> None:
    released = threading.Event()
    holding = threading.Event()
    messages: list[str] = []

    def other_run() -> None:
        with lease_lock(place, settle=0.1):
            holding.set()
            time.sleep(2.0)
        released.set()

    thread = threading.Thread(target=other_run)
    thread.start()
    assert holding.wait(30)
    with index_lock(place.base, wait=True, notify=messages.append):
        assert released.is_set()
    thread.join()
    assert len(messages) == 1 and messages[0].startswith("waiting for another ctxopt index")


def test_a_writer_whose_lease_is_overwritten_before_the_read_back_stops(
    place: RemoteIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    rival = {"owner": "rival", "host": "ci-2", "pid": 42, "expires": time.time() + 60}

    def rival_writes_during_the_settle(seconds: float) -> None:
        place.write_text(LEASE_NAME, json.dumps(rival))

    monkeypatch.setattr(time, "sleep", rival_writes_during_the_settle)
    busy = pytest.raises(IndexBusyError, match=r"\(ci-2, pid 42; its lease expires in")
    with busy, index_lock(place.base):
        pass
    monkeypatch.undo()
    lease = read_lease(place)
    assert lease is not None and lease.owner == "rival"  # the winner's lease is left alone
