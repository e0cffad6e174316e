"""Static files under content-hashed names, compressed once, cached for a year.

Every file below ``webapp/static`` is read at start-up, named by its content hash
(``css/site.css`` is served as ``/static/css/site.3f9a1c0b2e.css``) and compressed with
gzip and brotli.  A changed file gets a new URL, so browsers may keep the old one
forever, which is what people on metered phone plans need.  Templates ask for URLs with
``asset_url('css/site.css')``.  Brotli at quality 11 is slow (0.4 s for the site's files), so
each content is compressed once per process, however many apps the process creates (the
tests create hundreds), and its compressed forms are kept on disk by content, as Python
keeps compiled modules: every worker start, every restart and every test server after the
first reads them instead of compressing again.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path

import brotli
from flask import Flask, Response, abort, request
from werkzeug.wrappers import Response as BaseResponse

from webapp.services import services

COMPRESSIBLE = (".css", ".js", ".svg", ".json", ".txt", ".html", ".xml", ".webmanifest")
SKIPPED = {"README.md", "LICENSE.md"}
YEAR = 365 * 24 * 3600
#: The compressed forms kept between processes, named by their content's hash (beside the
#: compiled modules, which git ignores; a folder that cannot be written is only slower).
KEPT = Path(__file__).resolve().parent / "__pycache__" / "compressed"


@dataclass(frozen=True)
class Asset:
    """One static file with its compressed forms."""

    name: str
    body: bytes
    gzip: bytes | None
    brotli: bytes | None
    mimetype: str
    digest: str

    @property
    def hashed_name(self) -> str:
        stem, dot, suffix = self.name.rpartition(".")
        return f"{stem}.{self.digest}.{suffix}" if dot else f"{self.name}.{self.digest}"

    def encoded(self, accept_encoding: str) -> tuple[bytes, str | None]:
        """The smallest form the client accepts, with its Content-Encoding."""
        accepted = {part.split(";")[0].strip() for part in accept_encoding.lower().split(",")}
        if self.brotli is not None and "br" in accepted:
            return self.brotli, "br"
        if self.gzip is not None and "gzip" in accepted:
            return self.gzip, "gzip"
        return self.body, None


@functools.cache
def compressed(body: bytes, kept: Path = KEPT) -> tuple[bytes, bytes]:
    """The gzip and brotli forms of ``body``, remembered by content in the process and in
    the folder ``kept``."""
    key = hashlib.sha256(body).hexdigest()
    found = read_kept(kept, key, body)
    if found is not None:
        return found
    forms = gzip.compress(body, 9, mtime=0), brotli.compress(body, quality=11)
    keep(kept, key, forms)
    return forms


def read_kept(kept: Path, key: str, body: bytes) -> tuple[bytes, bytes] | None:
    """The forms of ``body`` another process kept, if they are whole: each is checked
    against the body (decompressing costs a hundredth of compressing), so a damaged or
    foreign file is compressed again rather than served."""
    try:
        forms = (kept / f"{key}.gz").read_bytes(), (kept / f"{key}.br").read_bytes()
        if gzip.decompress(forms[0]) == body and brotli.decompress(forms[1]) == body:
            return forms
    except (OSError, EOFError, gzip.BadGzipFile, brotli.error):
        pass
    return None


def keep(kept: Path, key: str, forms: tuple[bytes, bytes]) -> None:
    """Write the forms for the next process; each file appears whole or not at all (a
    rename), since several workers may start at once."""
    try:
        kept.mkdir(parents=True, exist_ok=True)
        for suffix, form in zip((".gz", ".br"), forms, strict=True):
            part = kept / f"{key}{suffix}.{os.getpid()}"
            part.write_bytes(form)
            os.replace(part, kept / f"{key}{suffix}")
    except OSError:
        pass  # a read-only install compresses at every start instead


def load_asset(root: Path, path: Path) -> Asset:
    body = path.read_bytes()
    name = path.relative_to(root).as_posix()
    compress = name.endswith(COMPRESSIBLE)
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if mimetype.startswith("text/") or mimetype.endswith(("javascript", "svg+xml", "json")):
        mimetype += "; charset=utf-8"
    gzipped, brotlied = compressed(body) if compress else (None, None)
    return Asset(
        name=name,
        body=body,
        gzip=gzipped,
        brotli=brotlied,
        mimetype=mimetype,
        digest=hashlib.sha256(body).hexdigest()[:10],
    )


class Assets:
    """The static files of one app, by logical and by hashed name."""

    def __init__(self, root: Path) -> None:
        files = [p for p in sorted(root.rglob("*")) if p.is_file() and p.name not in SKIPPED]
        self.by_name = {asset.name: asset for asset in (load_asset(root, p) for p in files)}
        self.by_hashed_name = {asset.hashed_name: asset for asset in self.by_name.values()}
        # One name for this set of files: it changes whenever any file does (webapp/offline.py
        # names the offline cache by it, so a new set replaces the old cache).
        names = "\n".join(sorted(self.by_hashed_name)).encode()
        self.fingerprint = hashlib.sha256(names).hexdigest()[:10]

    def url(self, name: str) -> str:
        return f"/static/{self.by_name[name].hashed_name}"

    def serve(self, hashed_name: str) -> BaseResponse:
        asset = self.by_hashed_name.get(hashed_name)
        if asset is None:
            abort(404)
        body, encoding = asset.encoded(request.headers.get("Accept-Encoding", ""))
        response = Response(body, content_type=asset.mimetype)
        if encoding:
            response.headers["Content-Encoding"] = encoding
        response.headers["Vary"] = "Accept-Encoding"
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        response.set_etag(asset.digest)
        return response.make_conditional(request)


def static_files(app: Flask) -> Assets:
    """The app's static files, read, named and compressed (once, at start-up)."""
    return Assets(Path(app.root_path) / "static")


def init_app(app: Flask) -> None:
    assets = services(app).assets
    app.add_url_rule("/static/<path:hashed_name>", "static", assets.serve)
