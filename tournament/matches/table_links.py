"""A table's QR code: a signed link to that table's match in one round, for any phone.

The link is ``/table/<token>/``; the token is ``django.core.signing`` (a ``Signer``) over (round,
table, generation) with its own salt, so it cannot be forged or moved to another table or round, and the
server keeps nothing per link. It reaches that one match and nothing else (the player pages take
the match from the token, never from the address). It stops working:

- when the round is over (finished) — and before it is published;
- when the organiser revokes it: the table's ``TableLinkKey.generation`` goes up by one, and the
  tokens carrying the old generation are refused (cards printed after carry the new one).

A phone that cannot scan types the table's **code** instead: the card prints a short address
(``/table/``) and the table's number and code — six digits derived, like the token, from the site's
secret and (round, table, generation), so nothing is stored and withdrawing the link changes the code
too. Typing the number and the code opens the same page as the QR code (:func:`table_code_find`); the
wrong codes are counted like the seat PINs' (``table_codes``: per table number being guessed and per
phone, never per address).

The QR codes are SVG from segno (presentation attributes only, so the strict CSP allows them), the
same way as the referees' sign-in links (``referee_views``).
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from dataclasses import dataclass

import segno
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournament.audit import history_author
from tournament.errors import UserError
from tournament.matches.access import ACTIVE_ROUND
from tournament.matches.event import round_event
from tournament.matches.models import Match, Round, RoundStatus, Table, TableLinkKey
from tournament.people import Actor
from tournament.registration.lifecycle import event_write

SALT = "tournament.matches.table_links"
QR_CACHE_SECONDS = 2 * 24 * 3600


class TableLinkRefused(UserError):
    """A table link that does not open its match now (bad, revoked, round not open): HTTP 403."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, status=403)


@dataclass(frozen=True, slots=True)
class TableLink:
    """What a valid token opens: its round, its table and the table's match in that round."""

    token: str
    round: Round
    table: Table
    match: Match


def _generations(round_: Round) -> dict[int, int]:
    return dict(TableLinkKey.objects.filter(round=round_).values_list("table_id", "generation"))


def table_token(*, round_: Round, table_id: int, generation: int | None = None) -> str:
    """The token of ``table_id``'s link in ``round_`` (its current generation unless given)."""
    if generation is None:
        generation = _generations(round_).get(table_id, 0)
    # no timestamp (a plain Signer): the same table, round and generation always give the same token,
    # so the table card, the draw sheet and the score sheet carry one code
    return signing.Signer(salt=SALT).sign_object([round_.pk, table_id, generation])


def table_tokens(*, round_: Round) -> dict[int, str]:
    """Table id → token for every table of the round's matches (one query for the generations)."""
    generations = _generations(round_)
    table_ids = Match.objects.filter(round=round_, table__isnull=False).values_list("table_id", flat=True)
    return {
        table_id: table_token(round_=round_, table_id=table_id, generation=generations.get(table_id, 0))
        for table_id in table_ids
    }


CODE_DIGITS = 6
"""A table code's length: 10⁶ codes per table number, against some twenty guesses a round allows."""


def table_code(*, round_id: int, table_id: int, generation: int) -> str:
    """The code printed on a table's card beside its number, to type when the QR code cannot be scanned."""
    message = f"table-code:{round_id}:{table_id}:{generation}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return str(int.from_bytes(digest[:8], "big") % 10**CODE_DIGITS).zfill(CODE_DIGITS)


def table_codes_of(*, round_: Round) -> dict[int, str]:
    """Table id → its code for every table of the round's matches (one query for the generations)."""
    generations = _generations(round_)
    table_ids = Match.objects.filter(round=round_, table__isnull=False).values_list("table_id", flat=True)
    return {
        table_id: table_code(round_id=round_.pk, table_id=table_id, generation=generations.get(table_id, 0))
        for table_id in table_ids
        if table_id is not None
    }


def table_code_find(*, number: int, code: str) -> str | None:
    """The token of the table numbered ``number`` whose code is ``code``, in a round being played
    (published, running or time called), or None. The code is compared as its NFKC digits (a
    Chinese keyboard's full-width digits are digits), in constant time."""
    given = "".join(unicodedata.normalize("NFKC", code or "").split()).encode()
    if not given:
        return None
    tables = (
        Match.objects.filter(table__number=number, round__status__in=ACTIVE_ROUND)
        .values_list("round_id", "table_id")
        .distinct()
    )
    for round_id, table_id in tables:
        if table_id is None:
            continue
        keys = TableLinkKey.objects.filter(round_id=round_id, table_id=table_id)
        generation = keys.values_list("generation", flat=True).first() or 0
        if hmac.compare_digest(table_code(round_id=round_id, table_id=table_id, generation=generation).encode(), given):
            return str(signing.Signer(salt=SALT).sign_object([round_id, table_id, generation]))
    return None


def table_url(request: HttpRequest, token: str) -> str:
    return str(request.build_absolute_uri(reverse("matches:table", args=[token])))


def qr_svg(url: str, *, scale: int = 4) -> SafeString:
    """The QR code of ``url`` as inline SVG (segno writes no inline style: the CSP allows it).

    Drawing one takes some milliseconds (``bench/table_links_bench.py``); a round's sheets are
    printed again and again, so each code is kept in the cache under its address (a token's address
    never changes: a revocation makes a new one)."""
    key = f"table-qr:{scale}:{hashlib.sha256(url.encode()).hexdigest()}"
    svg: str | None = cache.get(key)
    if svg is None:
        svg = segno.make(url, error="m").svg_inline(scale=scale, svgclass="qr", light="#fff")
        cache.set(key, svg, timeout=QR_CACHE_SECONDS)
    return mark_safe(svg)  # segno's own SVG: no input of a user's but the address


def table_qr_codes(*, request: HttpRequest, round_: Round, scale: int = 3) -> dict[int, SafeString]:
    """Match id → the QR code of its table's link, for the printed sheets of a round (about 5 ms a
    code: the sheets of a few hundred tables take a second or two)."""
    tokens = table_tokens(round_=round_)
    matches = Match.objects.filter(round=round_, table__isnull=False).values_list("pk", "table_id")
    return {match_id: qr_svg(table_url(request, tokens[table_id]), scale=scale) for match_id, table_id in matches}


def _invalid() -> TableLinkRefused:
    return TableLinkRefused(
        "table_link_invalid", _("This table code is not valid. Scan the code on your table card again.")
    )


def table_link_resolve(*, token: str) -> TableLink:
    """The match ``token`` opens, or :class:`TableLinkRefused` with why it does not (forged or
    damaged, revoked, the round over or not published yet)."""
    try:
        round_id, table_id, generation = signing.Signer(salt=SALT).unsign_object(token)
        round_id, table_id, generation = int(round_id), int(table_id), int(generation)
    except (signing.BadSignature, TypeError, ValueError):
        raise _invalid() from None
    match = (
        Match.objects.select_related("round__stage__tournament", "table", "ns_pair", "ew_pair")
        .filter(round_id=round_id, table_id=table_id)
        .first()
    )
    if match is None or match.table is None:
        raise _invalid()
    current = TableLinkKey.objects.filter(round_id=round_id, table_id=table_id).values_list("generation", flat=True)
    if generation != (current.first() or 0):
        raise TableLinkRefused(
            "table_link_revoked", _("This table code was withdrawn by the organiser. Ask a referee for the new one.")
        )
    if match.round.status == RoundStatus.FINISHED:
        raise TableLinkRefused("table_link_round_over", _("This round is over: the table code no longer opens it."))
    if match.round.status not in ACTIVE_ROUND:
        raise TableLinkRefused("table_link_not_yet", _("This round has not been published yet."))
    return TableLink(token=token, round=match.round, table=match.table, match=match)


@event_write("round_", of=round_event)
def table_link_revoke(*, round_: Round, table_id: int | None = None, user: Actor | None = None) -> int:
    """Withdraw the links of one table of ``round_`` (``table_id``) or of all its tables: their
    printed QR codes stop working; reprinted cards carry new ones. Returns the tables revoked."""
    tables = Match.objects.filter(round=round_, table__isnull=False)
    if table_id is not None:
        tables = tables.filter(table_id=table_id)
    table_ids = list(tables.values_list("table_id", flat=True))
    with transaction.atomic():
        existing = list(TableLinkKey.objects.select_for_update().filter(round=round_, table_id__in=table_ids))
        for key in existing:
            key.generation += 1
            history_author(key, user, "table link revoked")
            key.save(update_fields=["generation"])
        for new_id in set(table_ids) - {key.table_id for key in existing}:
            key = TableLinkKey(round=round_, table_id=new_id, generation=1)
            history_author(key, user, "table link revoked")
            key.save()
    return len(table_ids)
