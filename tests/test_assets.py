"""Static files: compressed at full strength once (per process, and kept on disk for the
next), and never served stale."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import brotli

from webapp.assets import Assets, compressed


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


def test_another_process_reads_the_kept_forms_and_a_damaged_one_is_made_again(
    tmp_path: Path,
) -> None:
    body = b"body { color: teal; }\n" * 50
    key = hashlib.sha256(body).hexdigest()
    fresh = compressed.__wrapped__  # past this process's memory: as a new process finds it
    first = fresh(body, tmp_path)
    assert first == (gzip.compress(body, 9, mtime=0), brotli.compress(body, quality=11))
    assert (tmp_path / f"{key}.br").read_bytes() == first[1]
    # What is kept is what is served: a kept form (here a quicker one) is read, not made.
    quick = brotli.compress(body, quality=1)
    (tmp_path / f"{key}.br").write_bytes(quick)
    assert fresh(body, tmp_path) == (first[0], quick)
    # A cut-off or foreign file is never served: the forms are made and kept again.
    (tmp_path / f"{key}.br").write_bytes(quick[:-5])
    assert fresh(body, tmp_path) == first
    (tmp_path / f"{key}.gz").write_bytes(gzip.compress(b"another file"))
    assert fresh(body, tmp_path) == first
    assert (tmp_path / f"{key}.gz").read_bytes() == first[0]
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"{key}.br", f"{key}.gz"]


def test_a_folder_that_cannot_be_written_only_costs_the_compression(tmp_path: Path) -> None:
    body = b"p { margin: 0; }\n" * 40
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    forms = compressed.__wrapped__(body, blocked / "compressed")
    assert forms == (gzip.compress(body, 9, mtime=0), brotli.compress(body, quality=11))
