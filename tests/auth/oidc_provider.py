"""A small, real OpenID Connect provider for the tests, built from Authlib's server parts.

It runs on localhost in a thread: discovery document, JWKS (an RS256 key made at start),
authorization endpoint that approves one fixed test person at once, token endpoint
(authorization code grant with the OpenID Connect extension, so the token answer carries
a signed ``id_token`` with the client's nonce) and a userinfo endpoint.  The site under
test talks to it exactly as it talks to Google.

Run alone for a look: ``python -m tests.auth.oidc_provider`` (prints its discovery URL).
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6749.models import AuthorizationCodeMixin, ClientMixin
from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from flask import Flask, abort, jsonify, request
from joserfc.jwk import KeySet, RSAKey
from werkzeug.serving import make_server

CLIENT_ID = "lapau-test-client"
CLIENT_SECRET = "lapau-test-secret"


@dataclass
class Person:
    """The one person this provider knows; it signs them in without asking."""

    sub: str = "test-subject-42"
    name: str = "Rina Test"
    email: str = "rina.test@example.org"


@dataclass
class Client(ClientMixin):  # type: ignore[misc]
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        return None

    def get_allowed_scope(self, scope: str) -> str:
        return " ".join(s for s in scope.split() if s in {"openid", "email", "profile"})

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri.startswith("http://127.0.0.1:") and redirect_uri.endswith("/callback")

    def check_client_secret(self, client_secret: str) -> bool:
        return secrets.compare_digest(client_secret, self.client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method in {"client_secret_basic", "client_secret_post"}

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type == "authorization_code"


@dataclass
class Code(AuthorizationCodeMixin):  # type: ignore[misc]
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    person: Person
    nonce: str | None
    auth_time: int = field(default_factory=lambda: int(time.time()))

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope

    def get_nonce(self) -> str | None:
        return self.nonce

    def get_auth_time(self) -> int:
        return self.auth_time

    def get_acr(self) -> None:
        return None

    def get_amr(self) -> None:
        return None


class Provider:
    """The provider's state and its Flask app."""

    def __init__(self, person: Person | None = None) -> None:
        # Plain http on localhost: Authlib's server refuses it unless told.
        os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"
        self.person = person or Person()
        self.client = Client()
        self.key = RSAKey.generate_key(2048, parameters={"kid": "test-key", "use": "sig"})
        self.codes: dict[str, Code] = {}
        self.tokens: dict[str, Person] = {}
        self.authorized = 0
        self.issuer = ""
        self.app = self.build()
        self.server: Any = None

    def public_jwks(self) -> dict[str, Any]:
        return dict(KeySet([self.key]).as_dict(private=False))

    def build(self) -> Flask:
        provider = self
        app = Flask("oidc_provider")

        class CodeGrant(grants.AuthorizationCodeGrant):  # type: ignore[misc]
            TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

            def save_authorization_code(self, code: str, req: Any) -> None:
                provider.codes[code] = Code(
                    code=code,
                    client_id=req.client.get_client_id(),
                    redirect_uri=req.payload.redirect_uri,
                    scope=req.payload.scope,
                    person=req.user,
                    nonce=req.payload.data.get("nonce"),
                )

            def query_authorization_code(self, code: str, client: Client) -> Code | None:
                found = provider.codes.get(code)
                return found if found and found.client_id == client.get_client_id() else None

            def delete_authorization_code(self, authorization_code: Code) -> None:
                provider.codes.pop(authorization_code.code, None)

            def authenticate_user(self, authorization_code: Code) -> Person:
                return authorization_code.person

        class IDTokens(OpenIDCode):  # type: ignore[misc]
            def exists_nonce(self, nonce: str, req: Any) -> bool:
                return any(code.nonce == nonce for code in provider.codes.values())

            def resolve_client_private_key(self, client: Client) -> RSAKey:
                return provider.key

            def get_client_algorithm(self, client: Client) -> str:
                return "RS256"

            def get_encode_header(self, client: Client) -> dict[str, str]:
                return {"alg": "RS256", "kid": "test-key"}

            def get_client_claims(self, client: Client) -> dict[str, Any]:
                return {"iss": provider.issuer, "aud": [client.get_client_id()]}

            def generate_user_info(self, user: Person, scope: str) -> UserInfo:
                return provider.user_info(user, scope)

        def query_client(client_id: str) -> Client | None:
            return provider.client if client_id == provider.client.client_id else None

        def save_token(token: dict[str, Any], req: Any) -> None:
            provider.tokens[token["access_token"]] = req.user

        server = AuthorizationServer(app, query_client=query_client, save_token=save_token)
        server.register_grant(CodeGrant, [IDTokens(require_nonce=True)])

        @app.get("/.well-known/openid-configuration")
        def discovery() -> Any:
            return jsonify(
                issuer=provider.issuer,
                authorization_endpoint=f"{provider.issuer}/authorize",
                token_endpoint=f"{provider.issuer}/token",
                userinfo_endpoint=f"{provider.issuer}/userinfo",
                jwks_uri=f"{provider.issuer}/jwks",
                response_types_supported=["code"],
                subject_types_supported=["public"],
                id_token_signing_alg_values_supported=["RS256"],
                scopes_supported=["openid", "email", "profile"],
                token_endpoint_auth_methods_supported=[
                    "client_secret_basic",
                    "client_secret_post",
                ],
                claims_supported=["sub", "name", "email", "iss", "aud", "exp", "iat", "nonce"],
            )

        @app.get("/jwks")
        def jwks() -> Any:
            return jsonify(provider.public_jwks())

        @app.get("/authorize")
        def authorize() -> Any:
            # The test person has already said yes.
            provider.authorized += 1
            grant = server.get_consent_grant(end_user=provider.person)
            return server.create_authorization_response(grant=grant, grant_user=provider.person)

        @app.post("/token")
        def token() -> Any:
            return server.create_token_response()

        @app.get("/userinfo")
        def userinfo() -> Any:
            kind, _, value = request.headers.get("Authorization", "").partition(" ")
            person = provider.tokens.get(value) if kind.lower() == "bearer" else None
            if person is None:
                abort(401)
            return jsonify(dict(provider.user_info(person, "openid email profile")))

        return app

    def user_info(self, person: Person, scope: str) -> UserInfo:
        info = UserInfo(sub=person.sub)
        if "profile" in scope:
            info["name"] = person.name
        if "email" in scope:
            info["email"] = person.email
            info["email_verified"] = True
        return info

    def start(self) -> str:
        """Serve on a free localhost port in a thread; returns the discovery URL."""
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.issuer = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"{self.issuer}/.well-known/openid-configuration"

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            # Also close the listening socket (else the garbage collector warns, later).
            self.server.server_close()


if __name__ == "__main__":
    provider = Provider()
    print(provider.start(), flush=True)
    threading.Event().wait()
