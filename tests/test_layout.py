"""The shape of the code: one game in two halves, shared modules that name no game, no cycles.

**Who may name a game.**  A game lives in two places: its engine package
``webapp/game/<name>/`` and its web adapter ``webapp/adapters/<name>.py``.  Every other Python
module of ``webapp`` finds a game through the registries by the name it was handed, and names
none itself.  A module *names* a game when

- one of its identifiers holds the game's name as a word (``koa_mark``, ``KOWAH_WINS``,
  ``KoaView``: identifiers are split at underscores and case changes), or
- one of its string literals holds the game's name as a whole word, case-insensitively
  (``"koa"``, ``f"play/{game}"`` does not; ``"koikoi123"`` does not either).

Comments and docstrings (with the doctests in them) may name games: they explain, and a
doctest needs a real game to run.  The migrations are a frozen history and are not read.
Templates are not checked yet (the home page and the rules index still list the games).

**Imports.**  The engines import nothing but the standard library and ``webapp.game``; the
adapters import no area of the site.  Between the packages of ``webapp`` (its areas and
top-level modules; ``webapp/__init__.py`` is the composition root that imports them all)
the imports form no cycle.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from webapp import adapters
from webapp.game import registry

WEBAPP = Path(__file__).resolve().parent.parent / "webapp"
GAMES = tuple(registry.games())


def sources() -> Iterator[Path]:
    for path in sorted(WEBAPP.rglob("*.py")):
        if "migrations" not in path.relative_to(WEBAPP).parts:
            yield path


def owner(path: Path) -> str | None:
    """The game a file belongs to, if it is one of a game's two halves."""
    parts = path.relative_to(WEBAPP).parts
    if parts[0] == "game" and len(parts) > 2 and parts[1] in GAMES:
        return parts[1]
    if parts[0] == "adapters" and path.stem in GAMES:
        return path.stem
    return None


def docstring_lines(tree: ast.Module) -> set[int]:
    """The first line of every docstring (module, class, function) in ``tree``."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    lines.add(body[0].lineno)
    return lines


def words_of(identifier: str) -> list[str]:
    """
    >>> words_of("koa_mark"), words_of("KOWAH_WINS"), words_of("KoikoiView")
    (['koa', 'mark'], ['kowah', 'wins'], ['koikoi', 'view'])
    """
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", identifier)]


def names_of_games(path: Path) -> list[str]:
    """Each place in ``path`` that names a game, as ``line: token``."""
    text = path.read_text(encoding="utf-8")
    docstrings = docstring_lines(ast.parse(text))
    whole_word = re.compile(r"\b(" + "|".join(GAMES) + r")\b", re.IGNORECASE)
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        line = token.start[0]
        if token.type == tokenize.NAME and set(words_of(token.string)) & set(GAMES):
            found.append(f"{line}: {token.string}")
        elif token.type == tokenize.STRING and line not in docstrings:
            if whole_word.search(token.string):
                found.append(f"{line}: {token.string}")
    return found


def test_every_engine_has_one_adapter_and_every_adapter_an_engine() -> None:
    assert sorted(adapters.names()) == sorted(GAMES)


@pytest.mark.parametrize(
    "path", [p for p in sources() if owner(p) is None], ids=lambda p: str(p.relative_to(WEBAPP))
)
def test_shared_modules_name_no_game(path: Path) -> None:
    assert names_of_games(path) == []


def test_the_name_rule_sees_names_in_code_but_not_in_docstrings(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Koa and koikoi in a docstring."""\n'
        "# kowah in a comment\n"
        'def f(game: str) -> str:\n    """>>> f("koa")"""\n'
        '    return game if game != "Koi-Koi" else "koikoi123"\n'
        "koa_mark = 1\n"
        'HAND = {"kowah": "discard"}\n'
    )
    assert names_of_games(sample) == ["6: koa_mark", '7: "kowah"']


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file (absolute names)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def package_of(module: str) -> str | None:
    """The package of ``webapp`` a module belongs to: ``webapp.<area or top-level module>``."""
    parts = module.split(".")
    if parts[0] != "webapp" or len(parts) < 2:
        return None
    unit = WEBAPP / parts[1]
    return f"webapp.{parts[1]}" if unit.is_dir() or unit.with_suffix(".py").exists() else None


def module_name(path: Path) -> str:
    parts = path.relative_to(WEBAPP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sources():
        if path == WEBAPP / "__init__.py":
            continue  # the composition root imports every area
        source = package_of(module_name(path))
        assert source is not None
        targets = {package_of(module) for module in imports_of(path)}
        graph.setdefault(source, set()).update(t for t in targets if t and t != source)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one package (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_between_packages() -> None:
    assert cycles(package_graph()) == []


def test_cycles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]


def test_engines_import_only_the_standard_library_and_each_other() -> None:
    outside = {
        f"{path.relative_to(WEBAPP)}: {module}"
        for path in sources()
        if path.relative_to(WEBAPP).parts[0] == "game"
        for module in imports_of(path)
        if not module.startswith("webapp.game")
        and module.partition(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()


def test_adapters_import_no_area_of_the_site() -> None:
    allowed = {"webapp.adapters", "webapp.cards", "webapp.game"}
    reached = {
        package_of(module)
        for path in (WEBAPP / "adapters").glob("*.py")
        for module in imports_of(path)
    }
    assert reached - {None} <= allowed
