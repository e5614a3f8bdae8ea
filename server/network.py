"""This machine's addresses, as the phones of a class reach it, and links.

* :func:`lan_addresses` lists this machine's IPv4 addresses that other devices on the
  local network can use, best first: real interfaces only (no loopback, link-local,
  Docker, bridge, veth, virtual machine or VPN interfaces), private ranges first, the
  interface of the default route first within a range.  psutil reads the interfaces
  on Linux, macOS and Windows alike.
* :func:`check_public_url` checks ``PUBLIC_URL`` (the base of join links and QR codes)
  and :func:`is_loopback_url` says whether a link only works on this machine.

A leaf: the settings (server/config/) and the class pages use it without the server.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import psutil

PRIVATE = tuple(
    ipaddress.ip_network(net) for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)
# Interfaces that other devices of the classroom cannot reach this machine through:
# containers and bridges (Docker, Podman, LXC, libvirt, Kubernetes), virtual machines'
# host-only networks (VirtualBox, VMware, Hyper-V / WSL), VPN tunnels, Apple's
# peer-to-peer links.  Matched against the start of the name, case-insensitively.
VIRTUAL = re.compile(
    r"^(lo|docker|br-|veth|virbr|vnet|vboxnet|vmnet|cni|flannel|cali|cilium|kube|weave|"
    r"podman|lxcbr|lxdbr|tun|tap|wg|utun|tailscale|zt|awdl|llw|anpi|gif|stf|"
    r"vethernet|virtualbox|vmware|hyper-v|loopback|npcap|bluetooth)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Interface:
    name: str
    addresses: tuple[str, ...]  # IPv4 addresses
    up: bool = True
    point_to_point: bool = False  # a tunnel (Linux and macOS say so in the flags)


def usable_ipv4(address: str) -> ipaddress.IPv4Address | None:
    """The address when another device could reach this machine at it, else None."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return None
    if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
        return None
    if ip == ipaddress.IPv4Address("255.255.255.255"):
        return None
    return ip


def choose_addresses(interfaces: Iterable[Interface], route: str | None = None) -> list[str]:
    """The usable addresses of ``interfaces``, best first.

    Private ranges (10/8, 172.16/12, 192.168/16) before any other address; within each,
    ``route`` (the source address of the default route) first, then the interfaces'
    order.  Down, virtual and point-to-point interfaces are left out.
    """
    found: list[tuple[int, int, int, str]] = []
    for order, iface in enumerate(interfaces):
        if not iface.up or iface.point_to_point or VIRTUAL.match(iface.name.strip()):
            continue
        for address in iface.addresses:
            ip = usable_ipv4(address)
            if ip is None:
                continue
            private = any(ip in net for net in PRIVATE)
            found.append((0 if private else 1, 0 if address == route else 1, order, address))
    seen: set[str] = set()
    out = []
    for *_, address in sorted(found):
        if address not in seen:
            seen.add(address)
            out.append(address)
    return out


def default_route_address() -> str | None:
    """The source address this machine would use to reach the internet, if it has a
    route there (a UDP "connect" sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: any routed address would do
            return probe.getsockname()[0]
        except OSError:
            return None


def system_interfaces() -> list[Interface]:
    stats = psutil.net_if_stats()
    out = []
    for name, addrs in psutil.net_if_addrs().items():
        stat = stats.get(name)
        flags = set(getattr(stat, "flags", "").split(",")) if stat else set()
        out.append(
            Interface(
                name=name,
                addresses=tuple(a.address for a in addrs if a.family == socket.AF_INET),
                up=stat.isup if stat else True,
                point_to_point="pointopoint" in flags or "loopback" in flags,
            )
        )
    return out


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network, best first (maybe none)."""
    return choose_addresses(system_interfaces(), default_route_address())


def base_url(host: str, port: int, scheme: str = "http") -> str:
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"


# -- links --------------------------------------------------------------------------------


def check_public_url(value: str) -> str:
    """``PUBLIC_URL`` normalised (no trailing slash); ValueError with a one-line reason."""
    text = value.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"PUBLIC_URL must be an http:// or https:// address, e.g. "
            f"http://192.168.1.23:5000, got {value!r}"
        )
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise ValueError(f"PUBLIC_URL has a bad port: {value!r}") from None
    if parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"PUBLIC_URL must be scheme://host[:port][/path] only, got {value!r}")
    return text.rstrip("/")


def is_loopback_host(host: str | None) -> bool:
    """Whether ``host`` (a name or an address) only ever means this machine."""
    if not host:
        return True
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_unspecified


def is_loopback_url(url: str) -> bool:
    return is_loopback_host(urlsplit(url).hostname)
