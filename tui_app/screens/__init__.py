"""The app's screens, one module each, and the registry of top-level sections.

Adding a screen (a new section such as search, curation or topics):

1. Write ``tui_app/screens/<name>.py`` with a ``ReverieScreen`` subclass (``screens/base.py``):
   set ``SECTION = "<name>"``, take the ``Session`` as the only constructor argument, yield the body
   from ``compose_body()`` (the section bar and footer come from the base), and load data in
   ``reload()`` through ``@work(thread=True, exclusive=True, exit_on_error=False, group="load",
   description=...)`` workers that post a dataclass from ``tui_app/messages.py``; the base reloads
   on every return to the screen and turns any worker error into one modal.
2. Give every ``Binding`` an ``id`` ("<name>.<action>") and a ``tooltip``; use letters, F-keys,
   ctrl, arrows, Esc or Enter. The footer and the command palette pick them up by themselves;
   ``tui.keymap`` in config.toml can rebind them by id.
3. Append a ``Section("<name>", "<Title>", "<f-key>", "tui_app.screens.<name>:<Class>", "<tooltip>",
   home_key="<letter>")`` to ``SECTIONS`` in ``registry.py``. That adds the mode, the global key
   (binding id ``section.<name>``), the home-screen letter (``home.<name>``), the section-bar entry
   and the palette's "Go to <Title>". The module is imported only when the section is first opened.
4. Styles go in ``tui_app/app.tcss`` under an id of the screen's main container.
5. Add pilot tests (``tests/test_tui_<name>.py``, fixtures from ``tests/test_tui_support.py``), a
   snapshot in ``tests/test_tui_snapshots.py``, and a ``Shot`` in ``scripts/screenshots.py``.

Screens that are not sections (a detail view) are pushed onto the current section's stack with
``self.app.push_screen(DetailScreen(self.session, ...))`` and set ``RELOAD_ON_RESUME = False`` if
they load once. A banner line on the home screen is a function appended to ``HOME_NOTICES``.
"""
