"""Whether an address never leaves the machine: the one test behind every loopback-only rule (the REST
API's bind address and peers, `reverie serve`, an OpenAI-compatible embedding endpoint)."""

from __future__ import annotations

import ipaddress


def is_loopback_address(text: str) -> bool:
    """True for an IPv4 or IPv6 address on loopback (127.0.0.0/8, ::1); False for anything else,
    host names included (each caller decides which names it accepts)."""
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False
