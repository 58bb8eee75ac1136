"""Every block of SPEC.md §6.4's table, checked without connecting."""

from __future__ import annotations

import pytest

from imageprobe._address import AddressPolicy

POLICY = AddressPolicy(True)

REFUSED = [
    "127.0.0.1", "127.255.255.254", "::1",                      # loopback
    "0.0.0.0", "0.1.2.3", "::",                                 # unspecified, "this network"
    "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fc00::1", "fd12:3456::1",   # private
    "169.254.169.254", "fe80::1", "fec0::1",                    # link-local, site-local
    "100.64.0.1", "100.127.255.255",                            # CGNAT
    "224.0.0.1", "239.255.255.255", "240.0.0.1", "255.255.255.255", "ff02::1",   # multicast, reserved
    "192.0.2.1", "198.51.100.1", "203.0.113.1", "198.18.0.1", "198.19.255.255", "192.0.0.8",
    "2001:db8::1", "3fff::1", "2001::1", "2001:1ff::1",          # documentation, benchmarking, Teredo...
    "100::1", "64:ff9b:1::1", "4000::1",                         # outside global unicast
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::a00:1", "2002:a00:1::1",  # IPv4 inside IPv6
]
ALLOWED = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "198.20.0.1", "2606:4700:4700::1111",
           "2a00:1450:4001::1", "::ffff:8.8.8.8", "2002:808:808::1", "64:ff9b::808:808"]


@pytest.mark.parametrize("address", REFUSED)
def test_refused(address: str) -> None:
    assert POLICY.refusal(address) is not None


@pytest.mark.parametrize("address", ALLOWED)
def test_allowed(address: str) -> None:
    assert POLICY.refusal(address) is None


def test_exceptions_and_the_default() -> None:
    allowing = AddressPolicy(True, ["10.8.0.0/16", "fd00::/8", "127.0.0.1"])
    assert allowing.refusal("10.8.1.2") is None and allowing.refusal("10.9.0.1") is not None
    assert allowing.refusal("fd00::5") is None and allowing.refusal("127.0.0.1") is None
    assert allowing.refusal("::ffff:10.8.0.1") is None and allowing.refusal("127.0.0.2") is not None
    assert AddressPolicy(False).refusal("127.0.0.1") is None
