"""The address policy ``public_only`` (SPEC.md §6.4): which addresses a probe may connect to.

The rule is the core's (imageprobe_address_check), the same in the command, C and JavaScript.
It is checked on the address actually connected: the probe resolves the name itself, checks
every address it would connect to, and connects to that address, for every connection,
redirects included. Numeric spellings (``127.1``, ``0x7f.1``, ``2130706433``) resolve to the
address they spell, so they are refused like ``127.0.0.1``.
"""

from __future__ import annotations

import ctypes
from typing import Iterable

from . import _native as native


def parse(text: str) -> bytes | None:
    """The 4 or 16 bytes a numeric address spells (the spellings a resolver accepts), or None."""
    out = ctypes.create_string_buffer(16)
    data = text.encode("utf-8", "replace")
    count = native.address_parse(data, len(data), out)
    return out.raw[:count] if count else None


class AddressPolicy:
    """``public_only`` with optional exceptions (`allow`: CIDR blocks or addresses, such as an
    image service of the application's own on a private network)."""

    __slots__ = ("public_only", "allow")

    def __init__(self, public_only: bool, allow: Iterable[str] = ()) -> None:
        self.public_only = public_only
        self.allow = ",".join(allow).encode("utf-8")
        if public_only and native.address_check(bytes(4), 4, self.allow, len(self.allow), None, 0) < 0:
            raise ValueError(f"allow: not a list of CIDR blocks: {self.allow.decode('utf-8', 'replace')}")

    def refusal(self, text: str) -> str | None:
        """Why connecting to the numeric address `text` is refused; None when allowed."""
        if not self.public_only:
            return None
        address = parse(text)
        if address is None:
            return f"{text} is not an IP address; the address policy allows public addresses only"
        message = ctypes.create_string_buffer(256)
        if native.address_check(address, len(address), self.allow, len(self.allow), message, 256) == 0:
            return None
        return f"{text} {message.value.decode('utf-8', 'replace')}"

    def key(self) -> tuple[bool, bytes]:
        return self.public_only, self.allow


ANY = AddressPolicy(False)
