"""The repository stands on its own (docs/design.md): its text cites only documents it holds.

Code comments, docstrings, templates, stylesheets, translations and documents say what a change
does and why, and cite ``docs/design.md`` and ``docs/rules.md``. They never cite the design and
rules files the project was started from (they are not in the repository), never reach outside
the checkout, and never name a ticket by its number, nor a principle by its number rather than
its name: a reader of the repository cannot open any of those.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SUFFIXES = (".py", ".md", ".html", ".txt", ".po", ".toml", ".js", ".css")

# Each pattern is written so that it does not match its own source text.
FORBIDDEN: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a design file that is not in the repository (cite docs/design.md)", re.compile(r"\bDESIGN\.md")),
    ("a rules file that is not in the repository (cite docs/rules.md)", re.compile(r"\bRULES\.md")),
    ("a path outside the repository", re.compile(r"\.\./shared\b|/work[/]shared\b")),
    ("a ticket number (say what and why instead)", re.compile(r"\b(?:[Ii]ssues?|[Tt]ickets?)[ _]#?\d+")),
    ("a principle by its number (cite it by name, docs/design.md)", re.compile(r"\b[Pp]rinciples? #?\d+")),
)


def _tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout.split("\0")
    return [ROOT / name for name in listed if name.endswith(SUFFIXES) and (ROOT / name).is_file()]


def _citations(path: Path) -> list[str]:
    found = []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in FORBIDDEN:
            match = pattern.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {match.group(0)!r} in {line.strip()[:160]}")
    return found


def test_the_tracked_files_are_listed() -> None:
    files = _tracked_text_files()
    names = {str(path.relative_to(ROOT)) for path in files}
    assert {"README.md", "docs/design.md", "docs/rules.md", "tournament/settings.py"} <= names


def test_no_text_cites_what_the_repository_does_not_hold() -> None:
    found = [citation for path in _tracked_text_files() for citation in _citations(path)]
    assert not found, "cite documents in the repository, say what and why:\n" + "\n".join(found)


def test_the_check_finds_each_kind_of_citation(tmp_path: Path) -> None:
    """The patterns catch what they are for and leave the citations that are right alone."""
    wrong = [
        "see " + "DESIGN" + ".md, the second principle",
        "(" + "RULES" + ".md §4)",
        "read .." + "/shared/seeds",
        "open /work" + "/shared/seeds",
        "as " + "issue" + " 13 changed it",
        "Issue" + " #14: one reader",
        "(" + "issues" + " 5 and 21)",
        "(" + "principle" + " 8)",
    ]
    right = [
        "(docs/rules.md §4)",
        "docs/design.md: one answer to each question",
        'the pair\'s number ("#12")',
        "a shared rank",
        "an issue with the network",
        'docs/design.md, "Reproducible draws"',
    ]
    for line in wrong:
        assert any(pattern.search(line) for _, pattern in FORBIDDEN), line
    for line in right:
        assert not any(pattern.search(line) for _, pattern in FORBIDDEN), line
