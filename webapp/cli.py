"""Command-line helpers: ``flask translate`` (extract, update, compile, init).

As in the Flask mega-tutorial: English source strings are extracted from the code and
templates into ``messages.pot``, merged into each language's catalog, and compiled.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
from flask import Flask

ROOT = Path(__file__).resolve().parent
CATALOGS = ROOT / "i18n"
TEMPLATE = CATALOGS / "messages.pot"
CONFIG = CATALOGS / "babel.cfg"


def pybabel(*args: str) -> None:
    command = [sys.executable, "-m", "babel.messages.frontend", *args]
    if subprocess.run(command, check=False).returncode != 0:
        raise click.ClickException(f"pybabel {args[0]} failed")


def extract() -> None:
    pybabel(
        "extract",
        "-F",
        str(CONFIG),
        "-k",
        "_l",
        "--no-location",
        "--sort-output",
        "--no-wrap",
        "--omit-header",
        "-o",
        str(TEMPLATE),
        str(ROOT),
    )


@click.group()
def translate() -> None:
    """Translation and localization commands."""


@translate.command("extract")
def extract_command() -> None:
    """Collect the source strings into messages.pot."""
    extract()


@translate.command()
def update() -> None:
    """Extract, then merge the new strings into every catalog."""
    extract()
    pybabel("update", "-i", str(TEMPLATE), "-d", str(CATALOGS), "--no-wrap", "--ignore-obsolete")


@translate.command("compile")
def compile_command() -> None:
    """Compile every catalog for use."""
    pybabel("compile", "-d", str(CATALOGS))


@translate.command()
@click.argument("lang")
def init(lang: str) -> None:
    """Start a catalog for a new language."""
    extract()
    pybabel("init", "-i", str(TEMPLATE), "-d", str(CATALOGS), "-l", lang, "--no-wrap")


def init_app(app: Flask) -> None:
    app.cli.add_command(translate)
