"""The account forms.  Flask-WTF adds and checks the CSRF token; the rules are in rules.py."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, PasswordField, StringField
from wtforms.validators import InputRequired, ValidationError

from webapp.auth import rules

REQUIRED = _l("Fill this in.")


def _username(form: Any, field: Field) -> None:
    field.data = rules.normalise_username(field.data or "")
    problem = rules.username_problem(field.data)
    if problem:
        raise ValidationError(problem)


class NewPassword:
    """A new password must pass the rules for the username named by ``username_of``."""

    def __init__(self, username_of: str) -> None:
        self.username_of = username_of

    def __call__(self, form: Any, field: Field) -> None:
        username = form[self.username_of].data if self.username_of in form else self.username_of
        problem = rules.password_problem(field.data or "", str(username or ""))
        if problem:
            raise ValidationError(problem)


class SignUpForm(FlaskForm):  # type: ignore[misc]
    username = StringField(_l("Username"), [InputRequired(REQUIRED), _username])
    password = PasswordField(_l("Password"), [InputRequired(REQUIRED), NewPassword("username")])
    next = HiddenField()


class SignInForm(FlaskForm):  # type: ignore[misc]
    username = StringField(_l("Username"), [InputRequired(REQUIRED)])
    password = PasswordField(_l("Password"), [InputRequired(REQUIRED)])
    remember = BooleanField(_l("Keep me signed in on this device"))
    next = HiddenField()


class ReauthenticateForm(FlaskForm):  # type: ignore[misc]
    password = PasswordField(_l("Password"), [InputRequired(REQUIRED)])
    next = HiddenField()


class ChangePasswordForm(FlaskForm):  # type: ignore[misc]
    current = PasswordField(_l("Current password"))
    password = PasswordField(_l("New password"), [InputRequired(REQUIRED)])

    def __init__(self, username: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.username = username

    def validate_password(self, field: Field) -> None:
        problem = rules.password_problem(field.data or "", self.username)
        if problem:
            raise ValidationError(problem)


class DeleteAccountForm(FlaskForm):  # type: ignore[misc]
    confirm = StringField(_l("Type your username to confirm"), [InputRequired(REQUIRED)])
