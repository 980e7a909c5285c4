"""Widgets, dialogs and plain-text formatting shared by the screens."""
