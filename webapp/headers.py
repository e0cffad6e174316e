"""What every response carries: security headers, HTML caching and compression.

HTML, the web app manifest and the service worker are revalidated on every visit
(``no-cache`` with an ETag, so an unchanged one costs a 304 and no body) and compressed for
the client; static files carry their own year-long headers (see :mod:`webapp.assets`).
The Content-Security-Policy allows no inline script at all; the one inline ``<style>``
(the display settings) is allowed by its hash.  The manifest and the service worker
(webapp/offline.py) come from the site itself only.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import re

import brotli
from flask import Flask, Response, current_app, g, request
from markupsafe import Markup

MIN_COMPRESS = 512
#: Responses drawn for each request, as opposed to the hashed static files.
DRAWN = {"text/html", "application/manifest+json", "text/javascript"}


def inline_style(css: str) -> Markup:
    """An inline ``<style>`` element that the policy allows by its hash.

    A hash rather than a nonce keeps a page byte-identical between visits, so its ETag
    holds and a revisit costs a 304.
    """
    digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
    g.setdefault("style_hashes", []).append(f"'sha256-{digest}'")
    return Markup("<style>{}</style>").format(Markup(css))


def content_security_policy() -> str:
    styles = " ".join(["'self'", *g.get("style_hashes", [])])
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            f"style-src {styles}",
            "img-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self'",
            "manifest-src 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "object-src 'none'",
        ]
    )


def secure(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", content_security_policy())
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    hsts = current_app.config.get("STRICT_TRANSPORT_SECURITY")
    if hsts:
        response.headers.setdefault("Strict-Transport-Security", hsts)
    return response


#: A form's CSRF token carries a timestamp, so it differs from one second to the next.
CSRF_VALUE = re.compile(rb'(name="csrf_token"[^>]*? value=")[^"]*')


def page_etag(body: bytes) -> str:
    """The page's ETag: its body without CSRF token values, plus the session's CSRF secret.

    Two renders of a page differ only in their tokens, so they share a tag and a revisit
    costs a 304; the secret behind the tokens (``g.etag_salt``, set by
    webapp/auth/security.py) keeps a cached page from outliving its session's tokens.
    """
    masked = CSRF_VALUE.sub(rb"\1", body)
    return hashlib.sha1(masked + g.get("etag_salt", b"")).hexdigest()


def compress(response: Response) -> Response:
    """Compress a drawn response for the client, after revalidation."""
    # Static files are compressed and cached in their own way (assets.py).
    if (
        response.mimetype not in DRAWN
        or response.direct_passthrough
        or request.endpoint == "static"
    ):
        return response
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Encoding")
    if response.status_code == 200:
        # Weak: the compressed and plain bodies are the same page in two encodings.
        response.set_etag(page_etag(response.get_data()), weak=True)
        response.make_conditional(request)
    body = response.get_data()
    if response.status_code == 304 or len(body) < MIN_COMPRESS:
        return response
    accepted = request.headers.get("Accept-Encoding", "").lower()
    if "br" in accepted:
        response.set_data(brotli.compress(body, quality=5))
        response.headers["Content-Encoding"] = "br"
    elif "gzip" in accepted:
        response.set_data(gzip.compress(body, 6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress)
    app.after_request(secure)
