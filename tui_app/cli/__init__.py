"""The ``reverie`` command line (click): one module per command group, registered in ``main``."""
