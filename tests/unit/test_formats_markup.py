"""HTML and Liquid: provable breakage refused with its line, odd files left editable, valid
templates that look broken left alone — and a corpus of published themes with no false red."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pytest

from prewrite_daemon.check.patch import FileEdit, PreparedPatch
from prewrite_daemon.ladder.formats import check_for, html, liquid
from prewrite_daemon.ladder.parse import parse_patch
from tests.support.markup_corpus import CorpusUnavailable, corpus_files

if TYPE_CHECKING:
    from pathlib import Path

    from prewrite.protocol import Diagnostic

SECTION = """\
<div class="banner">
  {%- if section.settings.title != blank -%}
    <h2>{{ section.settings.title | escape }}</h2>
  {%- endif -%}
  {% render 'icon', name: 'cart' %}
  {% for block in section.blocks %}{% endfor %}
</div>
{% schema %}
{"name": "Banner", "settings": [{"type": "text", "id": "title", "label": "Title"}]}
{% endschema %}
"""
LAYOUT = """\
---
layout: default
---
<html><head>
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "WebSite", "name": "Site"}
</script>
<style>body { margin: 0 }</style>
</head><body>
{% if page.title %}<h1>{{ page.title }}</h1>{% endif %}
{{ content }}
</body></html>
"""


def found(path: str, text: str) -> Diagnostic:
    check = check_for(path)
    assert check is not None, path
    diagnostic = check(path, text)
    assert diagnostic is not None, text
    return diagnostic


def passes(path: str, text: str) -> bool:
    check = check_for(path)
    assert check is not None, path
    return check(path, text) is None


def judge(
    tmp_path: Path, path: str, old: str | None, new: str
) -> tuple[list[Diagnostic], list[str]]:
    """The parse rung's comparative verdict on one changed file."""
    return parse_patch(PreparedPatch(tmp_path, (FileEdit(path, old, new),)))


def test_the_registry_knows_the_markup_suffixes() -> None:
    assert check_for("site/index.HTML") is html.check
    assert check_for("old/page.htm") is html.check
    assert check_for("sections/banner.liquid") is liquid.check


def test_valid_files_pass() -> None:
    assert passes("sections/banner.liquid", SECTION)
    assert passes("_layouts/page.html", LAYOUT)


# --- provable breakage, with the line -----------------------------------------------------


@pytest.mark.parametrize(
    ("path", "text", "line", "words"),
    [
        ("s.liquid", "<p>\n{{ product.title </p>\n", 2, "{{ opened on line 2 never closes"),
        ("s.liquid", "<p>\n\n{% render 'x' </p>\n", 3, "{% opened on line 3 never closes"),
        ("s.liquid", "{% if a %}\n<p>x</p>\n", 1, "{% if %} on line 1 never closes"),
        ("s.liquid", "<p>\n{% endfor %}\n", 2, "{% endfor %} on line 2 closes no {% for %}"),
        ("s.liquid", "{% for x in y %}\n{% if x %}\n{% endfor %}\n", 2, "{% if %} on line 2"),
        ("s.liquid", '{% schema %}\n{"name": "x" "y"}\n{% endschema %}\n', 2, "not JSON"),
        ("s.liquid", "{% comment %}\nnote\n", 1, "{% comment %} on line 1 never closes"),
        ("s.liquid", "{% liquid\n  if a\n    echo b\n%}\n", 2, "{% if %} on line 2 never"),
        ("s.liquid", "<div>\n<!-- old\n</div>\n", 2, "<!-- opened on line 2 never closes"),
        ("p.html", "<body>\n<!--\n<p>x</p>\n", 2, "never closes (no -->"),
        ("p.html", "<p>a</p>\n<script>\nlet a = 1;\n", 2, "<script> opened on line 2"),
        ("p.html", "<style>p { color: red }\n", 1, "<style> opened on line 1"),
        ("p.html", "<script>\nw('</script>');\n</script>\n", 3, "</script> on line 3 closes no"),
        ("p.html", "<p>x</p>\n</style>\n", 2, "</style> on line 2 closes no <style>"),
        (
            "p.html",
            '<script type="application/ld+json">\n{"@type": "Thing",}\n</script>\n',
            2,
            "JSON-LD block opened on line 1 is not JSON",
        ),
        ("_layouts/a.html", "<p>\n{% if page.x %}\n</p>\n", 2, "{% if %} on line 2 never"),
        ("_includes/a.html", "<p>{{ page.x </p>\n", 1, "{{ opened on line 1"),
    ],
)
def test_a_provable_break_names_its_line(path: str, text: str, line: int, words: str) -> None:
    diagnostic = found(path, text)
    assert diagnostic.line == line, diagnostic.message
    assert words in diagnostic.message
    assert f"(line {line}: " in diagnostic.message  # the line is quoted for the agent
    assert (diagnostic.severity, diagnostic.rule) == ("error", "syntax")


def test_json_ld_is_strict_json_comments_refused() -> None:
    block = '<script type="application/ld+json">\n{"@type": "Thing" // what\n}\n</script>\n'
    assert "not JSON" in found("p.html", block).message


# --- tricky non-breakage --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "<script>function f(){return {a:{b:1}}}</script>\n}} and %} as text\n",
        "{% section 'header' %}{% mytag %}{% endmytag %}{% endhighlight %}{% render 'x' %}",
        "{% raw %}{{ unclosed {% if %}{% endraw %}",
        "{%- raw -%}{% endif %}{%- endraw -%}",
        "{% comment %}{% if %}{% comment %}nested{% endcomment %}{{{% endcomment %}",
        "{%- if a -%}x{%- elsif b -%}y{%- else -%}z{%- endif -%}",
        "{%- liquid\n  if a\n    echo b\n  endif\n  comment\n  if\n  endcomment\n-%}",
        "{% javascript %}\nif (a) { b({}) } // {{ {%\n{% endjavascript %}",
        "{% stylesheet %}a{}{% endstylesheet %}{% doc %}@param {{%{% enddoc %}",
        '{% schema %}\n{"name": "x", // a comment\n "settings": [],}\n{% endschema %}',
        "{% form 'product', product %}{% endform %}{% paginate c by 3 %}{% endpaginate %}",
        "{% style %}.a { color: {{ c }} }{% endstyle %}",
        "{% assign x = '50%}' %}",
        "{{ '<!--' }} {% if a %}<!-- x {% endif %} -->",
        "<svg><script href='a.js'/></svg>",
        '<a title="<script>">x</a><textarea><style></textarea>',
    ],
)
def test_valid_liquid_that_looks_broken_passes(text: str) -> None:
    assert passes("snippets/x.liquid", text), found("snippets/x.liquid", text).message


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("docs/syntax.html", "<p>Liquid tags start with {% and outputs with {{</p>"),
        ("site/a.html", "<p>{{ Vue.binding }}</p><p>}}</p>"),
        ("templates/a.html", "{# {% if commented_out %} #}{% block body %}{% endblock %}"),
        ("templates/a.html", "{% verbatim %}{% if %}{% endverbatim %}{%+ if a +%}{%- endif %}"),
        ("p.html", '<script type="application/ld+json">{"name": "{{ page.title }}"}</script>'),
        ("p.html", '<script type="application/ld+json">  </script><!--> <!---> <!-- ok -->'),
        ("p.html", "<![CDATA[ x ]]><!DOCTYPE html><?xml version='1.0'?><p>"),
        ("p.html", "<script>document.write('<scr' + 'ipt><\\/script>')</script>"),
    ],
)
def test_html_that_is_not_broken_passes(path: str, text: str) -> None:
    assert passes(path, text), found(path, text).message


def test_a_plain_page_is_not_judged_as_a_template() -> None:
    assert not html.is_template("docs/syntax.html", "<p>write {% if %} to branch</p>")
    assert html.is_template("docs/a.html", "---\ntitle: x\n---\n<p></p>")
    assert html.is_template("_includes/nav.html", "<nav></nav>")
    assert html.is_template("docs/a.html", "{% include nav.html %}")


# --- comparative: the parse rung -------------------------------------------------------------


def test_a_patch_breaking_a_template_is_refused(tmp_path: Path) -> None:
    broken = SECTION.replace("  {%- endif -%}\n", "")
    introduced, already = judge(tmp_path, "sections/banner.liquid", SECTION, broken)
    assert [d.line for d in introduced] == [2]
    assert already == []


def test_an_already_odd_file_stays_editable_with_a_note(tmp_path: Path) -> None:
    odd = "<p>intro</p>\n<script>\nw('</script>');\n</script>\n"
    introduced, already = judge(tmp_path, "p.html", odd, odd.replace("intro", "welcome"))
    assert introduced == []
    assert len(already) == 1
    assert "p.html" in already[0]
    assert "closes no <script>" in already[0]


def test_a_correct_edit_is_allowed(tmp_path: Path) -> None:
    edited = LAYOUT.replace("{{ content }}", "<main>{{ content }}</main>")
    assert judge(tmp_path, "_layouts/page.html", LAYOUT, edited) == ([], [])
    assert judge(tmp_path, "sections/new.liquid", None, SECTION) == ([], [])


# --- corpus ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_published_themes_round_trip_without_a_false_red(tmp_path: Path) -> None:
    """Every HTML and Liquid file of the pinned packages, re-written unchanged and with a
    harmless edit, passes the comparative parse rung; breaking each is caught."""
    try:
        files = corpus_files()
    except CorpusUnavailable as exc:
        pytest.skip(f"the npm registry is not reachable: {exc}")
    counts: Counter[str] = Counter()
    refused: list[str] = []
    missed: list[str] = []
    for item in files:
        is_liquid = item.path.endswith(".liquid") or html.is_template(item.path, item.text)
        counts["liquid" if is_liquid else "html"] += 1
        counts["html files"] += item.path.endswith((".html", ".htm"))
        edited = _harmless_edit(item.text)
        for new in (item.text, edited):
            introduced, already = judge(tmp_path, item.path, item.text, new)
            refused += [f"{item.package} {item.path}: {d.message}" for d in introduced]
            counts["already odd"] += bool(already)
        breaks = ["\n<!--\n", "\n<script>\n"]
        breaks += ["\n{% if corpus %}\n", "\n{{ corpus\n"] if is_liquid else []
        for broken in breaks:
            introduced, _ = judge(tmp_path, item.path, item.text, edited + broken)
            missed += [] if introduced else [f"{item.package} {item.path}: {broken.strip()}"]
    print(f"markup corpus: {len(files)} files, {dict(counts)}")  # the counts, with -s
    assert not refused, "\n".join(refused)
    assert not missed, "\n".join(missed)
    assert counts["html files"] >= 50, counts
    assert counts["liquid"] >= 50, counts


def _harmless_edit(text: str) -> str:
    """A blank line in the middle and a comment at the end: what an agent's edit may add."""
    lines = text.split("\n")
    lines.insert(len(lines) // 2, "")
    return "\n".join(lines) + "\n<!-- edited -->\n"
