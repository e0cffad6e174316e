"""What a username and a password must be: few rules, each one explained.

Passwords follow current advice (NIST SP 800-63B): long enough, not the username, not one
of the passwords everyone tries first, not blank, and no rules about digits or symbols.
They are hashed with scrypt, off the event loop (scrypt takes a tenth of a second of CPU
and releases the GIL meanwhile), and a check costs the same whether or not the account
exists.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from flask_babel import lazy_gettext as _l
from werkzeug.security import check_password_hash, generate_password_hash

from webapp.offload import off_loop

USERNAME = re.compile(r"[a-z0-9_-]{3,20}")
MIN_PASSWORD = 8
#: Long enough for any passphrase, short enough that hashing stays cheap.
MAX_PASSWORD = 128

#: The passwords tried first in every attack (of eight characters or more), including the
#: Indonesian and Dutch favourites.
COMMON_PASSWORDS = frozenset(
    """
    password password1 password12 password123 passw0rd p@ssw0rd 12345678 123456789 1234567890
    12341234 11111111 00000000 88888888 87654321 123123123 11223344 qwertyui qwertyuiop
    qwerty123 1q2w3e4r 1qaz2wsx asdfghjk asdfasdf zxcvbnm1 iloveyou iloveyou1 sunshine
    princess football baseball superman starwars whatever trustno1 letmein1 welcome1
    abcd1234 abc12345 aa123456 monkey123 dragon123 master123 computer internet
    indonesia bismillah sayangku sayang123 rahasia123 katasandi bangsat1 jakarta123
    wachtwoord welkom01 welkom123 geheim123 voetbal1 nederland amsterdam
    lapau123 lapaulapau koikoi123 hanafuda kartuceki
    """.split()
)


def normalise_username(raw: str) -> str:
    """Usernames are compared and stored lower-case.

    >>> normalise_username("  Rina_07 ")
    'rina_07'
    """
    return raw.strip().lower()


def username_problem(username: str) -> str | None:
    """Why ``username`` (already normalised) cannot be used, or None."""
    if not USERNAME.fullmatch(username):
        return str(_l("3 to 20 characters: letters a–z, digits, _ and - only."))
    return None


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: only spaces, or characters that print nothing.

    >>> is_blank(" " * 8), is_blank("\u200b\u3000\t" * 3), is_blank("  a  ")
    (True, True, False)
    """
    return all(char.isspace() or unicodedata.category(char) in ("Cc", "Cf") for char in text)


def password_problem(password: str, username: str) -> str | None:
    """Why ``password`` is not good enough for ``username``, or None.

    >>> password_problem("correct horse", "rina") is None
    True
    """
    if is_blank(password):
        return str(_l("A password cannot be only spaces."))
    if len(password) < MIN_PASSWORD:
        return str(_l("Use at least 8 characters."))
    if len(password) > MAX_PASSWORD:
        return str(_l("Use at most 128 characters."))
    if password.strip().lower() == username.lower():
        return str(_l("Your password cannot be your username."))
    if password.lower() in COMMON_PASSWORDS:
        return str(_l("This password is one of the first that attackers try. Choose another."))
    return None


def hash_password(password: str, method: str) -> str:
    """``password`` hashed as ``method`` says (the app's ``PASSWORD_HASH``)."""
    return off_loop(generate_password_hash, password, method=method)


@cache
def dummy_hash(method: str) -> str:
    """What a password is checked against when there is no hash (the answer is then no)."""
    return hash_password("not a real password", method)


def check_password(stored: str | None, password: str, method: str) -> bool:
    """Whether ``password`` matches ``stored``; as slow for None (no such account, or an
    account without a password) as for a wrong password hashed as ``method`` (the app's
    ``PASSWORD_HASH``), so the time tells nothing."""
    matches = off_loop(check_password_hash, stored or dummy_hash(method), password)
    return stored is not None and matches
