"""The app's screens, one module each, and ``registry.py``: the sections reached by their F-keys.

A section is a ``ReverieScreen`` (``base.py``) that takes the session, yields its body from
``compose_body()`` and loads in ``@work(thread=True)`` workers posting messages from
``tui_app/messages.py``; a ``Section`` entry in ``registry.SECTIONS`` gives it its mode, F-key,
home letter, section-bar entry and palette command. Every ``Binding`` has an id and a tooltip.
Styles live in ``tui_app/app.tcss`` (the unlock screen's in ``gate.tcss``). Tests are in
``tests/tui`` (helpers in ``tests/helpers/tui.py``), screenshots from ``scripts/screenshots.py``.
"""
