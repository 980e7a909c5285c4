"""The app's stylesheet: Textual's, skipping work whose result it already has.

Textual parses every CSS source again on each ``refresh_css`` (twice on each mode's first switch)
and restyles every node of a screen each time it is shown, which also empties the widgets' render
caches. :class:`ReusingStylesheet` parses only a source or a theme it has not parsed yet, and
restyles a widget only when the rules that can match it (by its type names, id and classes) or its
path from the app (each node's type, id, classes and the pseudo-classes those rules name) changed
since it was last styled. What that saves: ``bench_tui_start.py`` in ``tests/bench/README.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import NamedTuple
from weakref import WeakKeyDictionary

from textual.css.model import RuleSet
from textual.css.stylesheet import CssSource, RulesMap, Stylesheet
from textual.css.types import CSSLocation
from textual.dom import DOMNode
from textual.widget import Widget


class Candidates(NamedTuple):
    """The rules that can match a widget, in the stylesheet's order, and the pseudo-classes they name."""

    rules: tuple[RuleSet, ...]
    pseudo_classes: tuple[str, ...]

    def same_rules(self, other: Candidates) -> bool:
        return len(self.rules) == len(other.rules) and all(a is b for a, b in zip(self.rules, other.rules, strict=True))


class Styled(NamedTuple):
    """What a widget was last styled from (its rules are held, so no rule's id is reused meanwhile)."""

    candidates: Candidates
    path: tuple[Hashable, ...]


def component_names(widget_type: type[DOMNode]) -> frozenset[str]:
    """The selector names of a widget class's component classes (``.datatable--cursor``), its bases' too."""
    names: set[str] = set()
    for base in widget_type.__mro__:
        names.update(f".{name}" for name in base.__dict__.get("COMPONENT_CLASSES", ()))
    return frozenset(names)


class ReusingStylesheet(Stylesheet):
    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.variables_now: dict[str, str] = dict(variables or {})
        self.parsed_from: tuple[dict[str, str], dict[CSSLocation, CssSource]] | None = None
        self.full_parses = 0  # parses that started from an empty cache (the tests read it)
        self.styled: WeakKeyDictionary[Widget, Styled] = WeakKeyDictionary()
        self.indexed_rules: list[RuleSet] | None = None  # the rules ``candidates_by_names`` was made from
        self.candidates_by_names: dict[frozenset[str], Candidates] = {}
        self.components: dict[type[DOMNode], frozenset[str]] = {}
        self.node_keys: dict[tuple[int, tuple[str, ...]], Hashable] | None = None  # within one update_nodes
        self.skipped = 0  # restyles skipped: the same rules and path as last time (the tests read it)

    def set_variables(self, variables: dict[str, str]) -> None:
        """Textual's, which also empties the parse cache: only when the variables changed."""
        if variables == self.variables_now:
            return
        self.variables_now = dict(variables)
        super().set_variables(variables)

    def parse(self) -> None:
        """Textual's parse, through the stylesheet's cache (one entry per source, its text, priority and
        scope: only a new or changed source is parsed)."""
        if self.parsed_from is None or self.parsed_from[0] != self.variables_now:
            self.full_parses += 1
        super().parse()
        self.parsed_from = (dict(self.variables_now), dict(self.source))

    def reparse(self) -> None:
        """Nothing when neither the variables nor the sources changed since the last parse; otherwise a
        parse of what changed. (Textual's own re-parses every source into a new, empty stylesheet.)"""
        if self.parsed_from != (self.variables_now, self.source):
            self.parse()

    # --- restyle only what would change --------------------------------------------------------------

    def candidates(self, node: Widget) -> Candidates:
        """The rules Textual's own apply considers for ``node`` (found under its type names, id and
        classes), with those of its component classes, in the stylesheet's order."""
        rules = self.rules
        if rules is not self.indexed_rules:
            self.indexed_rules = rules
            self.candidates_by_names = {}
        node_type = type(node)
        components = self.components.get(node_type)
        if components is None:
            components = self.components[node_type] = component_names(node_type)
        names = frozenset(node._selector_names) | components  # read only: the index Textual's apply uses
        found = self.candidates_by_names.get(names)
        if found is None:
            rules_map = self.rules_map
            matching = {id(rule) for name in names & rules_map.keys() for rule in rules_map[name]}
            chosen = tuple(rule for rule in rules if id(rule) in matching)
            pseudo: set[str] = set()
            for rule in chosen:
                pseudo |= rule.pseudo_classes
            found = self.candidates_by_names[names] = Candidates(chosen, tuple(sorted(pseudo)))
        return found

    def node_key(self, node: DOMNode, pseudo: tuple[str, ...]) -> Hashable:
        """What those rules can see of one node on the path: its class, id, classes, pseudo-classes."""
        keys = self.node_keys
        if keys is not None and (known := keys.get((id(node), pseudo))) is not None:
            return known
        key = (type(node), node.id, node.classes, tuple(name for name in pseudo if node.has_pseudo_class(name)))
        if keys is not None:
            keys[(id(node), pseudo)] = key
        return key

    def path_key(self, node: Widget, pseudo: tuple[str, ...]) -> tuple[Hashable, ...]:
        return tuple(self.node_key(step, pseudo) for step in node.css_path_nodes)

    def apply(self, node: DOMNode, *, animate: bool = False, cache: dict[tuple, RulesMap] | None = None) -> None:
        """Textual's apply, skipped for a widget last styled from the same rules and the same path."""
        if not isinstance(node, Widget):  # the app, and the virtual nodes of component classes
            super().apply(node, animate=animate, cache=cache)
            return
        candidates = self.candidates(node)
        path = self.path_key(node, candidates.pseudo_classes)
        last = self.styled.get(node)
        if last is not None and last.path == path and last.candidates.same_rules(candidates):
            self.skipped += 1
            return
        super().apply(node, animate=animate, cache=cache)
        self.styled[node] = Styled(candidates, path)

    def update_nodes(self, nodes: Iterable[DOMNode], animate: bool = False) -> None:
        """Textual's, with each node's own key worked out once for the whole pass (ancestors repeat)."""
        outer = self.node_keys is None
        if outer:
            self.node_keys = {}
        try:
            super().update_nodes(nodes, animate=animate)
        finally:
            if outer:
                self.node_keys = None
