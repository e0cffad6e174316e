"""Sign in with Google or Apple: OpenID Connect through Authlib's Flask client.

A provider is offered only when its client id and secret are set (webapp/config.py).  Its
endpoints and keys come from its discovery document; tests point
``OIDC_<NAME>_DISCOVERY_URL`` at a provider of their own on localhost.  An account is
found by the provider's name and its stable subject (``sub``), and made on first use.

Apple is asked for no name or e-mail: with those scopes Apple answers by a cross-site
POST, which carries no SameSite=Lax session cookie, so the sign-in could not be checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from authlib.integrations.flask_client import OAuth
from flask import Flask

from webapp.services import services

DISCOVERY = {
    "google": "https://accounts.google.com/.well-known/openid-configuration",
    "apple": "https://appleid.apple.com/.well-known/openid-configuration",
}
SCOPES = {"google": "openid email profile", "apple": "openid"}
TITLES = {"google": "Google", "apple": "Apple"}


@dataclass(frozen=True)
class Provider:
    name: str
    title: str


def setting(app: Flask, key: str) -> str:
    return str(app.config.get(key) or "")


class SignInProviders:
    """The providers an app offers, in a fixed order, and Authlib's clients for them."""

    def __init__(self, app: Flask) -> None:
        self.oauth = OAuth(app)
        self.offered: list[Provider] = []
        for name, default_url in DISCOVERY.items():
            prefix = name.upper()
            client_id = setting(app, f"{prefix}_CLIENT_ID")
            secret = setting(app, f"{prefix}_CLIENT_SECRET")
            if not client_id or not secret:
                continue
            kwargs: dict[str, str] = {"scope": SCOPES[name]}
            if name == "apple":
                kwargs["token_endpoint_auth_method"] = "client_secret_post"
            self.oauth.register(
                name,
                client_id=client_id,
                client_secret=secret,
                server_metadata_url=setting(app, f"OIDC_{prefix}_DISCOVERY_URL") or default_url,
                client_kwargs=kwargs,
            )
            self.offered.append(Provider(name, TITLES[name]))


def providers() -> list[Provider]:
    """The providers this site offers, in a fixed order."""
    return services().providers.offered


def client(name: str) -> object | None:
    if name not in {provider.name for provider in providers()}:
        return None
    remote: object = services().providers.oauth.create_client(name)
    return remote
