"""Page weight and caching, measured over the real server's responses.

People pay for every kilobyte: each HTML page stays within 14 KB compressed (one TCP
round trip's worth) and a whole first load within 60 KB, counting what a browser fetches
to offer the site as an app and to read it offline (the manifest, its icons and the
service worker).  Static files are hashed, compressed and cached for a year; HTML
revalidates with an ETag.
"""

from __future__ import annotations

import gzip
import json
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from typing import Any

import pytest

from webapp import adapters, create_app
from webapp.config import TestConfig
from webapp.locale import LANGUAGES

HTML_BUDGET = 14 * 1024
FIRST_LOAD_BUDGET = 60 * 1024


#: Not pages: what every page links to, counted with each page's first load.
LINKED = {"offline.manifest", "offline.worker"}


def page_paths() -> list[str]:
    """Every page that takes no argument but its language, in every language."""
    with tempfile.TemporaryDirectory() as instance:
        rules = list(create_app(TestConfig(instance)).url_map.iter_rules())
    paths = []
    for rule in rules:
        if (
            "GET" in (rule.methods or ())
            and rule.arguments == {"lang_code"}
            and rule.endpoint not in LINKED
        ):
            for lang in LANGUAGES:
                paths.append(rule.rule.replace("<lang_code>", lang))
    # And each game's guided first game, linked from its rules page and the practice page.
    paths += [
        f"/{lang}/learn/{adapter.name}"
        for adapter in adapters.adapters()
        if adapter.lesson
        for lang in LANGUAGES
    ]
    return sorted(paths)


@dataclass
class Fetched:
    status: int
    headers: Message
    body: bytes


def fetch(url: str, encoding: str = "gzip", headers: dict[str, str] | None = None) -> Fetched:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return Fetched(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        with error:
            return Fetched(error.code, error.headers, error.read())


def subresources(html: str) -> Iterator[str]:
    """What a browser fetches on a first load: stylesheets, scripts, icons, images, sprites."""
    patterns = [
        r'<link[^>]+rel="(?:stylesheet|icon)"[^>]+href="([^"]+)"',
        r'<script[^>]+src="([^"]+)"',
        r'<img[^>]+src="([^"]+)"',
        r'<use[^>]+href="([^"#]+)#',
    ]
    seen = set()
    for pattern in patterns:
        for url in re.findall(pattern, html):
            if url not in seen:
                seen.add(url)
                yield url


def decoded(fetched: Fetched) -> bytes:
    encoding = fetched.headers["Content-Encoding"]
    return gzip.decompress(fetched.body) if encoding == "gzip" else fetched.body


def installation(base: str, html: str) -> Iterator[str]:
    """What a browser may fetch to offer the page's site as an app and to read it offline,
    after the page has loaded: the manifest, its icons and the service worker."""
    manifest = re.search(r'<link rel="manifest" href="([^"]+)"', html)
    worker = re.search(r'<script[^>]+data-worker="([^"]+)"', html)
    assert manifest and worker
    yield manifest[1]
    yield worker[1]
    for icon in json.loads(decoded(fetch(base + manifest[1])))["icons"]:
        yield icon["src"]


@pytest.mark.parametrize("path", page_paths())
def test_page_html_and_first_load_fit_the_budget(live_server: Any, path: str) -> None:
    response = fetch(live_server.url + path)
    assert response.status == 200
    assert response.headers["Content-Encoding"] == "gzip"
    body = response.body
    assert len(body) <= HTML_BUDGET, f"{path}: {len(body)} bytes compressed"
    html = gzip.decompress(body).decode()
    total = len(body)
    for url in subresources(html):
        assert url.startswith("/static/"), f"{path} loads {url} from elsewhere"
        total += len(fetch(live_server.url + url).body)
    for url in installation(live_server.url, html):
        assert url.startswith("/"), f"{path} installs {url} from elsewhere"
        total += len(fetch(live_server.url + url).body)
    assert total <= FIRST_LOAD_BUDGET, f"{path}: first load {total} bytes"


def test_html_revalidates_with_an_etag(live_server: Any) -> None:
    first = fetch(live_server.url + "/en/about")
    assert first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    assert etag
    second = fetch(live_server.url + "/en/about", headers={"If-None-Match": etag})
    assert second.status == 304


def static_urls(live_server: Any) -> list[str]:
    html = gzip.decompress(fetch(live_server.url + "/en/").body).decode()
    return list(subresources(html))


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_static_files_are_compressed_hashed_and_immutable(live_server: Any, encoding: str) -> None:
    urls = static_urls(live_server)
    assert any(url.endswith(".css") for url in urls)
    for url in urls:
        assert re.search(r"\.[0-9a-f]{10}\.\w+$", url), url
        response = fetch(live_server.url + url, encoding=f"{encoding}, identity")
        assert response.headers["Content-Encoding"] == encoding
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Accept-Encoding" in response.headers["Vary"]


def test_unknown_static_files_are_not_found(live_server: Any) -> None:
    assert fetch(live_server.url + "/static/css/site.0000000000.css").status == 404
    assert fetch(live_server.url + "/static/../webapp/config.py").status == 404
