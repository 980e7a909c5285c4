"""The command palette knows which screen it was opened from: it lists that screen's keys (every
binding of ours, under its live key, remapped or not, if it can act now) and the sections of the app.

Nothing is listed twice: a section reached by an F-key everywhere and by a letter on the home screen
shows once, with both keys.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape


@dataclass(frozen=True)
class PaletteCommand:
    name: str
    help: str
    run: Callable[[], Awaitable[object]]


def _normalized(action: str) -> str:
    return action.removeprefix("app.")


class ScreenCommands(Provider):
    def commands(self) -> list[PaletteCommand]:
        app, screen = self.app, self.screen
        system = {command.title for command in app.get_system_commands(screen)}
        by_action: dict[str, tuple[str, str, list[str], Callable[[], Awaitable[object]]]] = {}
        for active in screen.active_bindings.values():
            binding = active.binding
            if not binding.id or not binding.description or binding.system or not active.enabled:
                continue  # Textual's own widget keys (scrolling) have no id; disabled ones do nothing here
            if binding.description in system:
                continue  # Quit, Keys: the system commands already offer them
            key = app.get_key_display(binding)
            action = _normalized(binding.action)
            if action in by_action:
                by_action[action][2].append(key)
                continue
            name = binding.description
            group = binding.group.description if binding.group is not None else ""
            if group and not name.startswith(group):
                name = f"{group}: {name}"
            if action.startswith("section("):
                name = f"Go to {name}"
            run = partial(app.run_action, binding.action, active.node)
            by_action[action] = (name, binding.tooltip, [key], run)
        return [  # the palette reads help as markup: escape it
            PaletteCommand(name, escape(f"{tooltip}  ({' or '.join(keys)})".strip()), run)
            for name, tooltip, keys, run in by_action.values()
        ]

    async def discover(self) -> Hits:
        for command in self.commands():
            yield DiscoveryHit(command.name, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.commands():
            score = max(matcher.match(command.name), matcher.match(command.help) * 0.5)
            if score > 0:
                yield Hit(score, matcher.highlight(command.name), command.run, help=command.help)
