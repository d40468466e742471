"""A real S3-compatible server for tests: moto's server mode in a child process on a free
port of 127.0.0.1, buckets made over plain HTTP, and the environment that points ctxopt at it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

START_SECONDS = 60.0  # moto imports a lot; the machine may be loaded


@dataclass(frozen=True)
class S3Server:
    endpoint: str  # http://127.0.0.1:PORT

    def bucket(self) -> str:
        """A new, empty bucket (moto takes a PUT without checking the signature)."""
        name = f"ctxopt-{uuid.uuid4().hex[:12]}"
        request = urllib.request.Request(f"{self.endpoint}/{name}", method="PUT")
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
        return name

    def env(self, home: Path) -> dict[str, str]:
        """Keys, region and endpoint for this server; the instance-metadata lookup off and
        the AWS config files pointed at nothing, so a developer's own setup never leaks in."""
        return {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_REGION": "us-east-1",
            "CTXOPT_STORAGE_ENDPOINT": self.endpoint,
            "AWS_EC2_METADATA_DISABLED": "true",
            "AWS_CONFIG_FILE": str(home / "no-aws-config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(home / "no-aws-credentials"),
        }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(endpoint: str) -> bool:
    try:
        with urllib.request.urlopen(endpoint, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # any HTTP answer means it is up
    except OSError:
        return False


@contextmanager
def running_s3_server(log: Path) -> Iterator[S3Server]:
    """moto's S3 server for the block; stopped (and waited for) afterwards."""
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "MOTO_ALLOW_NONEXISTENT_REGION": "true"},
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _answers(endpoint):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"moto server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield S3Server(endpoint)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
