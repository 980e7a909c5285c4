"""The demo home: a populated workbench built in a temporary folder (``reverie demo``)."""
