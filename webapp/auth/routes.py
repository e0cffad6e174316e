"""Sign up, sign in, sign out, sign in again, and the account page.

Thin views: the forms check their fields (forms.py, rules.py), accounts.py reads and
writes the database and signs people in.  Changing the password or deleting the account
needs a fresh sign-in (Flask-Login's ``fresh_login_required``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from authlib.common.errors import AuthlibBaseError
from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, fresh_login_required, login_fresh, login_required
from joserfc.errors import JoseError
from requests import RequestException
from werkzeug.wrappers import Response

from webapp.auth import accounts, oidc, rules
from webapp.auth.forms import (
    ChangePasswordForm,
    DeleteAccountForm,
    ReauthenticateForm,
    SignInForm,
    SignUpForm,
)
from webapp.auth.models import User
from webapp.auth.security import account_key
from webapp.pages import safe_next
from webapp.rate_limits import rate_limited

bp = Blueprint("auth", __name__)
View = TypeVar("View", bound=Callable[..., Any])


def needs_login(view: View) -> View:
    """Flask-Login's ``login_required``, typed."""
    return cast(View, login_required(view))


def needs_fresh_login(view: View) -> View:
    """Flask-Login's ``fresh_login_required``, typed: a remembered session signs in again."""
    return cast(View, fresh_login_required(view))


Page = str | tuple[str, int] | Response


def next_target(form: Any = None) -> str:
    raw = form.next.data if form is not None and form.next.data else request.args.get("next")
    return safe_next(raw)


def user() -> User:
    found: User = current_user._get_current_object()
    return found


@bp.route("/<lang_code>/sign-in", methods=["GET", "POST"])
@rate_limited("10/minute")
@rate_limited("10/minute", key=account_key)
def sign_in() -> Page:
    form = SignInForm()
    if request.method == "GET":
        if current_user.is_authenticated:
            return redirect(next_target())
        form.next.data = next_target()
    elif form.validate_on_submit():
        found = accounts.find_by_username(rules.normalise_username(form.username.data))
        stored = found.password_hash if found is not None else None
        # Checked even for an unknown name: the answer's time tells nothing about accounts.
        if accounts.password_matches(stored, form.password.data) and found is not None:
            accounts.sign_in(found, remember=bool(form.remember.data))
            return redirect(next_target(form), code=303)
        form.password.errors = [_("That username and password do not match.")]
    status = 400 if request.method == "POST" else 200
    return render_template("auth/sign_in.html", form=form), status


@bp.route("/<lang_code>/sign-up", methods=["GET", "POST"])
@rate_limited("5/minute")
@rate_limited("5/minute", key=account_key)
def sign_up() -> Page:
    form = SignUpForm()
    if request.method == "GET":
        form.next.data = next_target()
    elif form.validate_on_submit():
        created = accounts.create_user(form.username.data, form.password.data)
        if created is not None:
            accounts.sign_in(created)
            return redirect(next_target(form), code=303)
        form.username.errors = [_("That username is taken. Try another one.")]
    status = 400 if request.method == "POST" else 200
    return render_template("auth/sign_up.html", form=form), status


@bp.post("/<lang_code>/sign-out")
def sign_out() -> Response:
    accounts.sign_out()
    return redirect(url_for("pages.index"), code=303)


@bp.post("/<lang_code>/account/sign-out-everywhere")
@needs_login
def sign_out_everywhere() -> Response:
    """Every browser of the account, this one too, is signed out (a lost phone)."""
    accounts.end_every_sign_in(user())
    accounts.sign_out()
    flash(_("You are signed out on every device."), "done")
    return redirect(url_for("auth.sign_in"), code=303)


@bp.route("/<lang_code>/sign-in-again", methods=["GET", "POST"])
@rate_limited("10/minute")
@rate_limited("5/minute", key=account_key)
@needs_login
def reauthenticate() -> Page:
    """A stale session (remembered, or older than this browser) confirms who it is."""
    form = ReauthenticateForm()
    me = user()
    if request.method == "GET":
        form.next.data = next_target()
    elif form.validate_on_submit():
        if accounts.password_matches(me.password_hash, form.password.data):
            accounts.sign_in(me)
            return redirect(next_target(form), code=303)
        form.password.errors = [_("That password is not right.")]
    status = 400 if request.method == "POST" else 200
    return render_template(
        "auth/reauthenticate.html", form=form, linked=accounts.identities_of(me)
    ), status


def account_page(
    password_form: ChangePasswordForm | None = None,
    delete_form: DeleteAccountForm | None = None,
    status: int = 200,
) -> tuple[str, int]:
    me = user()
    return render_template(
        "auth/account.html",
        me=me,
        fresh=login_fresh(),
        linked=accounts.identities_of(me),
        password_form=password_form or ChangePasswordForm(me.username, formdata=None),
        delete_form=delete_form or DeleteAccountForm(formdata=None),
    ), status


@bp.get("/<lang_code>/account")
@needs_login
def account() -> Page:
    return account_page()


@bp.route("/<lang_code>/account/password", methods=["GET", "POST"])
@rate_limited("10/minute")
@rate_limited("5/minute", key=account_key)
@needs_fresh_login
def change_password() -> Page:
    me = user()
    form = ChangePasswordForm(me.username)
    if request.method == "GET":
        return redirect(url_for("auth.account"))
    if form.validate_on_submit():
        current = form.current.data or ""  # a post without the field at all gives None
        if me.password_hash is None or accounts.password_matches(me.password_hash, current):
            changed = accounts.set_password(me, form.password.data)
            accounts.sign_in(changed)
            flash(_("Your password is changed. Other devices are signed out."), "done")
            return redirect(url_for("auth.account"), code=303)
        form.current.errors = [_("That password is not right.")]
    return account_page(password_form=form, status=400)


@bp.route("/<lang_code>/account/delete", methods=["GET", "POST"])
@rate_limited("10/minute")
@rate_limited("5/minute", key=account_key)
@needs_fresh_login
def delete_account() -> Page:
    me = user()
    form = DeleteAccountForm()
    if request.method == "GET":
        return redirect(url_for("auth.account"))
    if form.validate_on_submit():
        if rules.normalise_username(form.confirm.data) == me.username:
            accounts.sign_out()
            accounts.delete_user(me)
            return redirect(url_for("pages.index"), code=303)
        form.confirm.errors = [_("That is not your username.")]
    return account_page(delete_form=form, status=400)


def did_not_work(provider: str) -> None:
    title = oidc.TITLES.get(provider, provider)
    message = _("Signing in with %(provider)s did not work. Please try again.", provider=title)
    flash(message, "error")


@bp.get("/auth/<provider>/login")
def oidc_login(provider: str) -> Response:
    remote: Any = oidc.client(provider)
    if remote is None:
        abort(404)
    session["auth_next"] = safe_next(request.args.get("next"))
    callback = url_for("auth.oidc_callback", provider=provider, _external=True)
    try:
        found: Response = remote.authorize_redirect(callback)
    except (AuthlibBaseError, RequestException):
        did_not_work(provider)
        return redirect(url_for("auth.sign_in"))
    return found


@bp.get("/auth/<provider>/callback")
def oidc_callback(provider: str) -> Response:
    remote: Any = oidc.client(provider)
    if remote is None:
        abort(404)
    target = safe_next(session.pop("auth_next", None))
    try:
        token = remote.authorize_access_token()
        claims = dict(token.get("userinfo") or {})
    except (AuthlibBaseError, JoseError, RequestException, ValueError):
        claims = {}
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        did_not_work(provider)
        return redirect(url_for("auth.sign_in", next=target))
    found = accounts.identity_user(provider, subject)
    if found is None and current_user.is_authenticated:
        # Signed in already: this provider becomes another way into the same account.
        found = user()
        accounts.link_identity(found, provider, subject)
    elif found is None:
        found = accounts.user_from_identity(provider, subject, claims)
    accounts.sign_in(found, remember=True)
    return redirect(target)
