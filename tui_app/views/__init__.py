"""View-models of the TUI: what a screen shows, computed from the application layer, no widgets."""
