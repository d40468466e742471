"""Term splitting shared by the index's full-text column and the query."""

from __future__ import annotations

from ctxopt.terms import expand_identifiers, split_identifier


def test_split_identifier_handles_camel_snake_acronyms_and_digits() -> None:
    assert split_identifier("parseHTTPResponse") == ["parse", "http", "response"]
    assert split_identifier("save_inventory") == ["save", "inventory"]
    assert split_identifier("Base64Encoder") == ["base", "64", "encoder"]
    assert split_identifier("a.b_c") == ["a", "b", "c"]


def test_expand_identifiers_lists_sub_words_of_compound_names_once() -> None:
    text = "def saveInventory(inventory_path): return save_file(inventoryPath)"
    assert expand_identifiers(text) == "file inventory path save"
    assert expand_identifiers("plain words only") == ""


def test_expand_identifiers_is_the_same_with_the_word_cache_warm() -> None:
    text = "loadHTTPConfig(load_http_config, XMLParser2, a_b, x1Y)"
    first = expand_identifiers(text)
    assert first == "config http load parser xml"
    assert expand_identifiers(text) == first
    assert expand_identifiers("xml_parser parser_xml") == "parser xml"
