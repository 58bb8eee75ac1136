"""The address policy ``public_only`` (SPEC.md §6.4): which addresses a probe may connect to.

Checked on the address actually connected: the probe resolves the name itself, checks every
address it would connect to, and connects to that address, for every connection, redirects
included. Numeric spellings (``127.1``, ``0x7f.1``, ``2130706433``) resolve to the address they
spell, so they are refused like ``127.0.0.1``.
"""

from __future__ import annotations

import ipaddress
from typing import Iterable, Sequence, Union

Address = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
Network = Union[ipaddress.IPv4Network, ipaddress.IPv6Network]

# IPv4 blocks that are not public (SPEC.md §6.4's table).
_IPV4 = [
    ("0.0.0.0/8", "unspecified (0.0.0.0/8)"),
    ("10.0.0.0/8", "private (10.0.0.0/8)"),
    ("100.64.0.0/10", "shared address space (CGNAT, 100.64.0.0/10)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local (169.254.0.0/16)"),
    ("172.16.0.0/12", "private (172.16.0.0/12)"),
    ("192.0.0.0/24", "IETF protocol assignments (192.0.0.0/24)"),
    ("192.0.2.0/24", "documentation"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("192.168.0.0/16", "private (192.168.0.0/16)"),
    ("198.18.0.0/15", "benchmarking (198.18.0.0/15)"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved or broadcast (240.0.0.0/4)"),
]
_IPV6 = [
    ("fc00::/7", "unique local (private)"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
    ("64:ff9b:1::/48", "local-use NAT64"),
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("2001::/23", "IETF protocol assignments (Teredo, benchmarking, ORCHID)"),
]
_IPV4_BLOCKS = [(ipaddress.IPv4Network(block), name) for block, name in _IPV4]
_IPV6_BLOCKS = [(ipaddress.IPv6Network(block), name) for block, name in _IPV6]
_EMBEDDING = [ipaddress.IPv6Network(block) for block in ("::ffff:0:0/96", "::/96", "64:ff9b::/96")]
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")
_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (IPv4-mapped, IPv4-compatible, NAT64, 6to4)."""
    if address.version != 6:
        return None
    packed = address.packed
    if any(address in block for block in _EMBEDDING):
        return ipaddress.IPv4Address(packed[12:16])
    if address in _SIX_TO_FOUR:
        return ipaddress.IPv4Address(packed[2:6])
    return None


def non_public_block(address: Address) -> str | None:
    """The name of the non-public block holding `address`, or None for a public address."""
    if address.version == 4:
        return next((name for block, name in _IPV4_BLOCKS if address in block), None)
    v4 = embedded_ipv4(address)
    if v4 is not None:
        packed = address.packed
        if packed == bytes(16):
            return "unspecified"
        if packed == bytes(15) + b"\x01":
            return "loopback"
        inner = non_public_block(v4)
        return f"{inner} (as {v4} inside IPv6)" if inner else None
    for block, name in _IPV6_BLOCKS:
        if address in block:
            return name
    if address not in _GLOBAL_UNICAST:
        return "not global unicast"
    return None


class AddressPolicy:
    """``public_only`` with optional exceptions (`allow`: CIDR blocks or addresses, such as an
    image service of the application's own on a private network)."""

    __slots__ = ("public_only", "exceptions")

    def __init__(self, public_only: bool, allow: Iterable[str] = ()) -> None:
        self.public_only = public_only
        self.exceptions: Sequence[Network] = [ipaddress.ip_network(block, strict=False) for block in allow]

    def refusal(self, text: str) -> str | None:
        """Why connecting to the numeric address `text` is refused; None when allowed."""
        if not self.public_only:
            return None
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if any(address in block for block in self.exceptions if block.version == address.version):
            return None
        v4 = embedded_ipv4(address)
        if v4 is not None and any(v4 in block for block in self.exceptions if block.version == 4):
            return None
        block = non_public_block(address)
        if block is None:
            return None
        return f"{address} is {block}; the address policy allows public addresses only"

    def key(self) -> tuple[bool, tuple[str, ...]]:
        return self.public_only, tuple(str(block) for block in self.exceptions)


ANY = AddressPolicy(False)
