"""How a person is named on pages and sheets: by their name, never by an account's login.

A referee's account is made with the referee's name (``first_name``) and a generated login
(``referee-3-…``) that means nothing to anyone; an organiser's account may have a name or only a
login. Pages (:func:`person_name`) and the workbook's value queries (:func:`person_name_expression`)
say the same thing.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import Coalesce, Concat, NullIf, Trim

Actor: TypeAlias = User | AnonymousUser
"""Who is acting: ``request.user``, a signed-in account or an anonymous visitor. Permission checks
take an ``Actor``; services that name the author of a change take an ``Actor | None`` (nobody:
the demo, a task, the shell), and record only a signed-in account."""


def signed_in(user: Actor | None) -> User | None:
    """``user``'s account when signed in, else None (what the audit columns store for an anonymous
    or nobody's write)."""
    return None if user is None or isinstance(user, AnonymousUser) else user


def person_name(user: User | None) -> str:
    """The person's name (first and last), else their login; "" for nobody."""
    if user is None:
        return ""
    full = f"{user.first_name} {user.last_name}".strip()
    return full or str(user.get_username())


def person_name_expression(path: str) -> Combinable:
    """:func:`person_name` of the account at ``path`` (e.g. ``"entered_by"``) as an ORM expression,
    for a ``values_list``; NULL for nobody."""
    full = Trim(Concat(F(f"{path}__first_name"), Value(" "), F(f"{path}__last_name")))
    return Coalesce(NullIf(full, Value("")), F(f"{path}__username"))
