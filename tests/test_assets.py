"""Static files: compressed at full strength once per process, and never served stale."""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli

from webapp.assets import Assets


def test_a_changed_file_gets_a_new_url_and_its_new_content_at_full_compression(
    tmp_path: Path,
) -> None:
    style = tmp_path / "css" / "site.css"
    style.parent.mkdir()
    urls = set()
    for colour in ("red", "teal", "red"):
        style.write_text(f"body {{ color: {colour}; }}\n" * 50)
        assets = Assets(tmp_path)
        asset = assets.by_name["css/site.css"]
        assert asset.brotli == brotli.compress(style.read_bytes(), quality=11)
        assert asset.gzip is not None and gzip.decompress(asset.gzip) == style.read_bytes()
        urls.add(assets.url("css/site.css"))
    assert len(urls) == 2
