"""One application error type and one mapping to HTTP: every error a user can cause — the
application's own, the rules core's, Django's ValidationError — answers a 4xx with a code and a
readable message, on the API and on the pages alike; services refuse with ``UserError`` only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from scoring.cards import CardError, parse_level
from scoring.errors import ErrorCode, ScoringError
from tournament.api.errors import api_exception_handler
from tournament.errors import USER_ERRORS, UserError, UserErrorMiddleware, user_error, user_error_on_form
from tournament.matches.errors import MatchRefused


@pytest.mark.parametrize(
    ("error", "code", "status"),
    [
        (ScoringError(ErrorCode.INVALID_ORDER, "N and E are not partners."), "invalid_order", 400),
        (ScoringError(ErrorCode.MATCH_FINISHED, "The match is over."), "match_finished", 409),
        (CardError("bad_card", "Not a card: 'ZZ'.", "不是牌：'ZZ'。"), "bad_card", 400),
        (ValidationError({"seed": ["Too big."]}), "bad_input", 400),
        (ValidationError("A draft round exists already.", code="draft_exists"), "draft_exists", 400),
        (MatchRefused("match_locked", "Signed off."), "match_locked", 409),
        (MatchRefused("reason_required", "Give a reason.", conflict=False), "reason_required", 400),
        (UserError("too_large", "The file is too large.", status=413), "too_large", 413),
    ],
)
def test_each_family_of_user_errors_maps_to_one_code_message_and_status(error, code, status):
    mapped = user_error(error)
    assert isinstance(error, USER_ERRORS)
    assert mapped is not None and (mapped.code, mapped.status) == (code, status)
    assert mapped.message


def test_a_bug_is_not_a_user_error():
    assert user_error(KeyError("x")) is None
    assert not isinstance(KeyError("x"), USER_ERRORS)


def test_the_rules_core_message_is_in_the_user_language():
    error = ScoringError(ErrorCode.INVALID_ORDER, "N and E are not partners.", 3, message_zh="N 和 E 不是搭档。")
    from django.utils import translation

    with translation.override("zh-hans"):
        mapped = user_error(error)
    assert mapped is not None
    assert mapped.message == "N 和 E 不是搭档。" and mapped.message_en == "N and E are not partners."
    assert mapped.to_json()["deal"] == 3


def test_the_api_answers_a_django_validation_error_with_400_and_its_fields():
    """Before: DRF's handler knew nothing of Django's ValidationError, so a service refusing a
    value through it became a 500."""
    response = api_exception_handler(ValidationError({"seed": ["Ensure this value is at most 2147483647."]}), {})
    assert response is not None and response.status_code == 400
    assert response.data["error"]["code"] == "bad_input"
    assert response.data["error"]["fields"] == {"seed": ["Ensure this value is at most 2147483647."]}


def test_the_api_answers_a_rules_core_error_from_any_view_with_its_code():
    with pytest.raises(CardError) as caught:
        parse_level("Z")
    response = api_exception_handler(caught.value, {})
    assert response is not None and response.status_code == 400
    assert response.data["error"]["code"] == "bad_level"


@pytest.mark.parametrize(
    ("error", "status"),
    [(ValidationError("The round is finished.", code="round_finished"), 400), (MatchRefused("x", "Busy."), 409)],
)
def test_a_page_that_lets_a_user_error_through_answers_its_status_with_the_message(error, status, db):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    middleware = UserErrorMiddleware(lambda request: None)
    response = middleware.process_exception(request, error)
    assert response is not None and response.status_code == status
    message = error.messages[0] if isinstance(error, ValidationError) else error.message
    assert message in response.content.decode()


def test_a_page_bug_is_left_to_django():
    request = RequestFactory().get("/")
    assert UserErrorMiddleware(lambda request: None).process_exception(request, KeyError("x")) is None


def test_a_refusal_of_fields_carries_each_field_message_and_all_of_them_as_its_message():
    error = UserError.of_fields({"name": "Give the name.", "seed": ["Seed 3 is taken.", "Too big."]}, code="dup")
    assert (error.code, error.status) == ("dup", 400)
    assert error.fields == {"name": ["Give the name."], "seed": ["Seed 3 is taken.", "Too big."]}
    assert error.message == "Give the name. Seed 3 is taken. Too big."
    assert error.messages == ["Give the name.", "Seed 3 is taken.", "Too big."]
    assert UserError("x", "One.").messages == ["One."]
    body = api_exception_handler(error, {})
    assert body is not None and body.status_code == 400
    assert body.data["error"]["code"] == "dup" and body.data["error"]["fields"] == error.fields


def test_a_refusal_goes_on_a_bound_form_by_field_and_the_rest_above_it():
    from django import forms

    class NameForm(forms.Form):
        name = forms.CharField()

    form = NameForm({"name": "李"})
    assert form.is_valid()
    user_error_on_form(form, UserError.of_fields({"name": "Taken.", "other": "Elsewhere."}, code="duplicate"))
    assert form.errors == {"name": ["Taken."], "__all__": ["Elsewhere."]}
    assert form.has_error("name", code="duplicate")
    plain = NameForm({"name": "王"})
    assert plain.is_valid()
    user_error_on_form(plain, UserError("round_finished", "The round is finished."))
    assert plain.non_field_errors() == ["The round is finished."]


# Where Django's ValidationError may be raised (or built to be raised) in the application.
FORM_MODULE = re.compile(r"(^|_)forms$")
FORM_BASE = re.compile(r"(Form|FormSet|Field|Widget)$")
BOUNDARY_MODULES = {"tournament/errors.py"}  # the mapping to UserError and user_error_on_form


def _validation_error_uses(source: str) -> list[tuple[int, str | None]]:
    """(line, enclosing class) of every use of Django's ValidationError in ``source``: a call or a
    bare raise of it, however it was imported (``from django.core.exceptions import …``,
    ``from django import forms`` → ``forms.ValidationError``, ``exceptions.ValidationError`` …)."""
    tree = ast.parse(source)
    names: set[str] = set()  # the class under a local name
    modules: set[str] = set()  # a module that holds it
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in {"django.core.exceptions", "django.forms"}:
            names |= {alias.asname or alias.name for alias in node.names if alias.name == "ValidationError"}
        elif isinstance(node, ast.ImportFrom) and node.module in {"django", "django.core"}:
            held = {"forms", "exceptions"}
            modules |= {alias.asname or alias.name for alias in node.names if alias.name in held}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in {"django.forms", "django.core.exceptions"}:
                    modules.add(alias.asname or alias.name)

    def is_it(node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in names
        return isinstance(node, ast.Attribute) and node.attr == "ValidationError" and ast.unparse(node.value) in modules

    found: list[tuple[int, str | None]] = []

    def visit(node: ast.AST, owner: ast.ClassDef | None) -> None:
        if isinstance(node, ast.ClassDef):
            owner = node
        if (isinstance(node, ast.Call) and is_it(node.func)) or (
            isinstance(node, ast.Raise) and node.exc is not None and is_it(node.exc)
        ):
            found.append((node.lineno, None if owner is None else owner.name))
        for child in ast.iter_child_nodes(node):
            visit(child, owner)

    def form_class(owner: ast.ClassDef | None) -> bool:
        return owner is not None and any(FORM_BASE.search(ast.unparse(base)) for base in owner.bases)

    classes = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    visit(tree, None)
    return [(line, owner) for line, owner in found if not form_class(classes.get(owner or ""))]


def test_django_validation_error_is_raised_only_at_the_form_boundary():
    """Services and selectors refuse with ``UserError`` (``UserError.of_fields`` for field errors);
    Django's ``ValidationError`` belongs to the form boundary only:

    - a forms module (``forms.py``, ``*_forms.py``) or a class deriving from a form, formset, form
      field or widget (its ``clean`` methods);
    - ``tournament/errors.py``, which maps one to a ``UserError`` and puts a ``UserError`` on a
      bound form (``user_error_on_form``).

    Models do not validate in ``clean()``: a model's check constraints guard the database and the
    services validate before writing, so a model module is held to the same rule. DRF's
    ``serializers.ValidationError`` is the API's form boundary and not Django's class.
    """
    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in sorted((root / "tournament").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if "migrations" in path.parts or FORM_MODULE.search(path.stem) or relative in BOUNDARY_MODULES:
            continue
        offenders += [f"{relative}:{line}" for line, _owner in _validation_error_uses(path.read_text())]
    assert offenders == []


def test_the_boundary_check_finds_a_service_that_raises_validation_error():
    service = (
        "from django.core.exceptions import ValidationError as VE\n"
        "from django import forms\n"
        "def stage_create(*, name):\n"
        "    raise VE('no')\n"
        "def round_draw():\n"
        "    return forms.ValidationError('no')\n"
        "class Clean(forms.Form):\n"
        "    def clean(self):\n"
        "        raise forms.ValidationError('fine here')\n"
    )
    assert _validation_error_uses(service) == [(4, None), (6, None)]
