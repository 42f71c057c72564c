"""Content-Security-Policy (issue 18): only the site's own scripts and styles, nothing inline, on
every page; no template writes an inline script, style or event handler."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, english_client, organiser

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/accounts/login/"])
def test_pages_send_a_policy_of_the_sites_own_scripts_and_styles(client, path):
    policy = _policy(client.get(path))
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert not any("unsafe" in value for values in policy.values() for value in values)


def test_organiser_and_public_pages_send_the_policy_too():
    boss = organiser(username="boss")
    event = TournamentFactory()
    event.organisers.add(boss)
    client = english_client()
    client.force_login(boss)
    for url in (reverse("registration:pairs", args=[event.pk]), f"/t/{event.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert _policy(response)["script-src"] == ["'self'"]


def test_only_the_api_documentation_page_widens_it_to_its_cdn(client):
    policy = _policy(client.get(reverse("api:docs")))
    assert "https://cdn.jsdelivr.net" in policy["script-src"] and "'unsafe-inline'" not in policy["script-src"]


INLINE = [
    re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I),  # a script without src
    re.compile(r"<style\b", re.I),
    re.compile(r"\sstyle=", re.I),
    re.compile(r"\son[a-z]+=", re.I),  # onclick=, onsubmit= …
    re.compile(r"\shx-on", re.I),  # htmx evaluates these with new Function (unsafe-eval)
    re.compile(r"javascript:", re.I),
]


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_writes_inline_script_or_style(template):
    text = template.read_text(encoding="utf-8")
    found = [pattern.pattern for pattern in INLINE if pattern.search(text)]
    assert not found, f"{template.name}: {found}"
