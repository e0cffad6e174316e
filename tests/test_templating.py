"""The templates' context calls what they call as Jinja's own context would."""

from __future__ import annotations

from typing import Any

from jinja2 import DictLoader, Environment, pass_context, pass_environment
from jinja2.runtime import Context

from webapp.templating import QuickCalls


def environment() -> Environment:
    found = Environment(autoescape=True)
    found.context_class = QuickCalls
    return found


def test_a_plain_function_gets_its_arguments_only() -> None:
    env = environment()
    env.globals["join"] = lambda *parts, sep="-": sep.join(parts)
    assert env.from_string('{{ join("a", "b", sep="+") }}').render() == "a+b"


def test_a_context_function_gets_the_context_and_the_loops_variables() -> None:
    @pass_context
    def seen(context: Context, name: str) -> str:
        assert isinstance(context, QuickCalls)
        return str(context.get(name))

    env = environment()
    env.globals["seen"] = seen
    source = "{{ seen('x') }}|{% for i in [1, 2] %}{% set y = i * 10 %}{{ seen('y') }},{% endfor %}"
    assert env.from_string(source).render(x=7) == "7|10,20,"


def test_other_callables_go_jinjas_way() -> None:
    class Greeter:
        @pass_environment
        def __call__(self, env: Environment, name: str) -> str:
            return f"{type(env).__name__} greets {name}"

    env = environment()
    env.globals["greet"] = Greeter()
    env.globals["upper"] = str.upper  # a builtin method, not a plain function
    assert env.from_string("{{ greet('you') }} {{ upper('a') }}").render() == (
        "Environment greets you A"
    )


def test_a_stop_iteration_is_undefined_as_jinja_makes_it() -> None:
    def empty() -> Any:
        raise StopIteration

    env = environment()
    env.globals["empty"] = empty
    assert env.from_string("[{{ empty() }}]").render() == "[]"


def test_imports_and_includes_see_the_globals_as_under_jinjas_context() -> None:
    """The global names are listed only when asked: a template imported without context
    still sees the globals its importer was given, and an include its includer's."""
    sources = {
        "page.html": (
            '{% from "macros.html" import hello %}{{ hello("Rina") }}|{% include "part.html" %}'
        ),
        "macros.html": "{% macro hello(name) %}{{ greeting }}, {{ name }}{% endmacro %}",
        "part.html": "{{ greeting }} again, {{ name }}",
    }
    rendered = []
    for context_class in (Context, QuickCalls):
        env = Environment(autoescape=True, loader=DictLoader(sources))
        env.context_class = context_class
        page = env.get_template("page.html", globals={"greeting": "Selamat datang"})
        rendered.append(page.render(name="Rina"))
    assert rendered[0] == rendered[1] == "Selamat datang, Rina|Selamat datang again, Rina"
