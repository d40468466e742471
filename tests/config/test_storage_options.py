"""The storage options an object-store index is opened with, read from the environment."""

from __future__ import annotations

from ctxopt.config.environment import storage_options


def test_s3_takes_the_keys_region_and_an_http_endpoint_from_the_environment() -> None:
    env = {
        "AWS_ACCESS_KEY_ID": "key",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "AWS_SESSION_TOKEN": "token",
        "AWS_DEFAULT_REGION": "eu-west-3",
        "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
    }
    assert storage_options("s3://bucket/index", env) == {
        "aws_endpoint": "http://127.0.0.1:9000",
        "allow_http": "true",
        "aws_access_key_id": "key",
        "aws_secret_access_key": "secret",
        "aws_session_token": "token",
        "aws_region": "eu-west-3",
    }


def test_ctxopt_endpoint_wins_and_https_needs_no_allow_http() -> None:
    env = {
        "CTXOPT_STORAGE_ENDPOINT": "https://minio.example.org",
        "AWS_ENDPOINT_URL": "http://ignored:9000",
    }
    options = storage_options("s3://bucket/index", env)
    assert options == {"aws_endpoint": "https://minio.example.org", "aws_region": "us-east-1"}


def test_plain_aws_passes_nothing_so_lance_uses_its_own_credential_chain() -> None:
    assert storage_options("s3://bucket/index", {"HOME": "/home/me"}) == {}


def test_gcs_and_azure_take_only_the_endpoint_override() -> None:
    env = {"CTXOPT_STORAGE_ENDPOINT": "http://127.0.0.1:4443", "AWS_ACCESS_KEY_ID": "key"}
    assert storage_options("gs://bucket/index", env) == {
        "google_base_url": "http://127.0.0.1:4443",
        "allow_http": "true",
    }
    assert storage_options("az://container/index", env)["azure_storage_endpoint"] == (
        "http://127.0.0.1:4443"
    )
