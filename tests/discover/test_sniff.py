"""Binary sniffing on real byte heads: compressed streams are binary, legacy text is not."""

from __future__ import annotations

import codecs
import random

import pytest

from ctxopt.discover.sniff import MAX_ODD_SHARE, looks_binary, wide_encoding


def pdf_like(size: int = 8192, seed: int = 7) -> bytes:
    """A PDF/Illustrator-like head: a text header, then deflate-looking bytes with no NUL."""
    rng = random.Random(seed)
    header = b"%PDF-1.6\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n"
    body = bytes(rng.randrange(1, 256) for _ in range(size - len(header)))
    return header + body


LATIN1_PROSE = (
    "# Crème brûlée: préparation à l'avance, déjà très appréciée à Noël.\n"
    "def recette():\n    return 'Fermé le lundi; ouvert à 9 h. Oeufs frais, façon grand-mère.'\n"
).encode("latin-1")


def test_pdf_like_bytes_without_nul_are_binary() -> None:
    head = pdf_like()
    assert b"\0" not in head
    assert looks_binary(head)


def test_latin1_text_is_not_binary() -> None:
    head = LATIN1_PROSE * 40
    with pytest.raises(UnicodeDecodeError):
        head.decode("utf-8")
    assert not looks_binary(head)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_wide_text_with_a_bom_is_not_binary(codec: str) -> None:
    text = "def f(x):\n    return x * 2  # naïve\n" * 50
    encoded = text.encode(codec)
    if not encoded.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE)):
        encoded = codecs.BOM_UTF16_BE + encoded
    assert b"\0" in encoded
    assert wide_encoding(encoded) is not None
    assert not looks_binary(encoded[:8191])  # cut mid-character, as the head read may be


def test_bom_in_front_of_binary_is_still_binary() -> None:
    assert looks_binary(codecs.BOM_UTF16_LE + pdf_like()[200:])


def test_utf8_text_cut_mid_character_is_text() -> None:
    head = ("λ = 'héllo wörld ✓'\n" * 500).encode("utf-8")[:8191]
    assert not looks_binary(head)


def test_nul_byte_is_binary_and_empty_is_not() -> None:
    assert looks_binary(b"abc\x00def")
    assert not looks_binary(b"")


def test_control_characters_count_towards_the_share() -> None:
    share = int(MAX_ODD_SHARE * 1000)
    below = b"\x01" * (share - 10) + b"a" * (1000 - share + 10)
    above = b"\x01" * (share + 10) + b"a" * (1000 - share - 10)
    assert not looks_binary(below)
    assert looks_binary(above)
    assert not looks_binary(b"\x1b[31mred\x1b[0m\tok\r\n\f" * 100)
