"""What markdown text points at: links, wiki links, ``@imports``, file names, and the phrases by
which one record says it replaces another ("supersedes [old](old.md)", "replaced by [[new]]").

Targets are returned as written; :class:`core.curate.signals.ScopeContext` resolves them against
the records of the scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

_MD_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_WIKI = re.compile(r"\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|[^\]\n]*)?\]\]")
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:~/|\.{1,2}/|/)?[\w.\-/]+\.\w+)")
# Anchored at the start of a word, so a long run of letters costs linear time, never quadratic.
_PATHISH = r"(?<![\w/.\-])[\w.\-/]+\.(?:md|markdown|txt)\b"
_EXTENSION = re.compile(r"\.(?:md|markdown|txt)\b")
_PATH_CHAR = re.compile(r"[\w.\-/]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")

# A target, as any of the forms above, captured for the supersession phrases.
_TARGET = r"(\[\[[^\]\n]+\]\]|!?\[[^\]\n]*\]\([^)\n]+\)|`[^`\n]+`|" + _PATHISH + ")"
_KEYWORDS = ("supersed", "replac", "obsolet", "deprecat", "대체", "置き換え", "置換")
_REPLACES = [
    re.compile(r"\b(?:supersedes|replaces|obsoletes|deprecates)\s*:?\s*" + _TARGET, re.IGNORECASE),
    re.compile(_TARGET + r"\s*(?:을|를)\s*대체"),
    re.compile(_TARGET + r"\s*を\s*(?:置き換え|置換)"),
]
_REPLACED_BY = [
    re.compile(r"\b(?:superseded|replaced|obsoleted|deprecated)\s+(?:by|in favou?r of)\s*:?\s*" + _TARGET,
               re.IGNORECASE),
    re.compile(_TARGET + r"\s*(?:으로|로)\s*대체"),
    re.compile(_TARGET + r"\s*に\s*(?:置き換え|置換)"),
]


@dataclass(frozen=True)
class Refs:
    links: tuple[str, ...]  # path-like targets (relative to the file, or ``~``/absolute)
    mentions: tuple[str, ...]  # names (wiki links)
    supersedes: tuple[str, ...]
    superseded_by: tuple[str, ...]


def _clean_path(target: str) -> str | None:
    target = target.strip()
    if not target or target.startswith("#") or _SCHEME.match(target):
        return None
    target = target.split("#", 1)[0].split("?", 1)[0]
    return unquote(target) or None


def _target_text(raw: str) -> str:
    """The path or name inside one captured target of a supersession phrase."""
    if raw.startswith("[["):
        return raw[2:-2].split("|", 1)[0].split("#", 1)[0].strip()
    if raw.startswith("`"):
        return raw.strip("`").strip()
    match = _MD_LINK.match(raw)
    if match:
        return _clean_path(match.group(1)) or ""
    return raw.strip()


def _bare_files(body: str) -> list[str]:
    """File names written as plain text (``notes/plan.md``): found from their extension backwards,
    which is much cheaper than trying a pattern at the start of every word."""
    found = []
    for match in _EXTENSION.finditer(body):
        start = match.start()
        while start > 0 and _PATH_CHAR.match(body[start - 1]):
            start -= 1
        name = body[start:match.end()]
        if start < match.start() and name.strip("./"):
            found.append(name)
    return found


def _without_code_blocks(text: str) -> str:
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return "\n".join(out)


def references(text: str, *, imports: bool = False, bare_files: bool = True) -> Refs:
    """Every reference in ``text``: links and file names (``links``), wiki links (``mentions``),
    and supersession phrases in both directions. ``imports`` also reads ``@path`` (CLAUDE.md)."""
    body = _without_code_blocks(text)
    lowered = body.lower()
    links: list[str] = []
    # Each pattern runs only when its marker is present: most notes have few links, and a scan of
    # 10,000 files should not pay for regular expressions that cannot match.
    for marker, pattern in (("](", _MD_LINK), ("]:", _REF_DEF)):
        if marker in body:
            for match in pattern.finditer(body):
                cleaned = _clean_path(match.group(1))
                if cleaned:
                    links.append(cleaned)
    if imports and "@" in body:
        links.extend(match.group(1) for match in _IMPORT.finditer(body))
    if bare_files and (".md" in lowered or ".txt" in lowered or ".markdown" in lowered):
        links.extend(_bare_files(body))
    mentions = [m.group(1).strip() for m in _WIKI.finditer(body)] if "[[" in body else []
    phrases = ""
    if any(k in lowered for k in _KEYWORDS):
        phrases = "\n".join(line for line in body.splitlines() if any(k in line.lower() for k in _KEYWORDS))
    supersedes = [_target_text(m.group(1)) for p in _REPLACES for m in p.finditer(phrases)]
    superseded_by = [_target_text(m.group(1)) for p in _REPLACED_BY for m in p.finditer(phrases)]
    return Refs(
        links=tuple(dict.fromkeys(links)),
        mentions=tuple(dict.fromkeys(mentions)),
        supersedes=tuple(t for t in dict.fromkeys(supersedes) if t),
        superseded_by=tuple(t for t in dict.fromkeys(superseded_by) if t),
    )
