"""The keypad's byte pipe: one vendor-specific USB interface with two interrupt endpoints.

The device is found with pyusb by vendor and product id on a backend chosen by configuration
(libusb 1.0 on a table PC, the in-memory bus of ``drivers.sim.usb_backend`` in tests and
training), so the same pyusb calls run everywhere. Every USB failure but a read timeout means
the keypad is gone for this connection: ``TransportError``, and the I/O thread reconnects.
One :meth:`UsbKeypadTransport.read` returns exactly one interrupt transfer, because reports are
framed per transfer.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
from collections.abc import Callable
from typing import Any, Final

import usb.core  # type: ignore[import-untyped]
import usb.util  # type: ignore[import-untyped]

from dealer_console.devices.config import DEFAULT_PRODUCT_ID, DEFAULT_VENDOR_ID
from drivers.transport import TransportError

__all__ = ["DEFAULT_PRODUCT_ID", "DEFAULT_VENDOR_ID", "KeypadBackendError", "UsbKeypadTransport"]

CONFIGURATION: Final = 1
INTERFACE: Final = 0
INTERFACE_CLASS_VENDOR: Final = 0xFF
EP_IN: Final = 0x81
EP_OUT: Final = 0x01
BACKENDS: Final = ("libusb1", "libusb0", "openusb")


class KeypadBackendError(ValueError):
    """A keypad setting in the profile that cannot work (names the setting)."""


def backend_from_config(name: str) -> Any:
    """The pyusb backend named in the profile.

    ``libusb1`` / ``libusb0`` / ``openusb`` are pyusb's own; ``package.module:factory`` calls
    ``factory()`` (how a trainer's machine plugs in the simulated bus).
    """
    if name in BACKENDS:
        module = importlib.import_module(f"usb.backend.{name}")
        backend = module.get_backend()
        if backend is None:
            raise KeypadBackendError(f"keypad backend {name!r}: the library is not installed")
        return backend
    module_name, sep, attr = name.partition(":")
    if not sep or not module_name or not attr:
        raise KeypadBackendError(
            f"keypad backend {name!r} is neither one of {', '.join(BACKENDS)} "
            "nor 'module:factory'"
        )
    try:
        factory: Callable[[], Any] = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise KeypadBackendError(f"keypad backend {name!r}: {exc}") from exc
    return factory()


def describe(exc: BaseException) -> str:
    err = getattr(exc, "errno", None)
    if err == errno.ENODEV:
        return "unplugged"
    return str(exc) or type(exc).__name__


class UsbKeypadTransport:
    """One open connection to the keypad; a new one after every reconnection."""

    def __init__(
        self, backend: Any, vendor_id: int, product_id: int, poll_interval: float = 0.02
    ) -> None:
        self._backend = backend
        self.vendor_id = vendor_id
        self.product_id = product_id
        self._timeout_ms = max(1, round(poll_interval * 1000))
        self._dev: Any = None

    @property
    def port(self) -> str:
        return f"usb:{self.vendor_id:04x}:{self.product_id:04x}"

    def open(self) -> None:
        """Find, configure and claim the keypad; raise :class:`TransportError` when it is absent."""
        try:
            dev = usb.core.find(
                idVendor=self.vendor_id, idProduct=self.product_id, backend=self._backend
            )
            if dev is None:
                raise TransportError(f"keypad {self.port}: not on the bus")
            try:
                if dev.is_kernel_driver_active(INTERFACE):
                    dev.detach_kernel_driver(INTERFACE)
            except NotImplementedError:
                pass
            dev.set_configuration(CONFIGURATION)
            usb.util.claim_interface(dev, INTERFACE)
        except usb.core.USBError as exc:
            raise TransportError(f"keypad {self.port}: {describe(exc)}") from exc
        self._dev = dev

    def interrupt(self) -> None:
        """Nothing to cut short: a read waits one poll interval (a few milliseconds)."""

    def read(self) -> bytes:
        """One IN transfer, or b"" when nothing came within the poll interval."""
        if self._dev is None:
            raise TransportError(f"keypad {self.port}: not open")
        try:
            data = self._dev.read(EP_IN, 64, self._timeout_ms)
        except usb.core.USBTimeoutError:
            return b""
        except usb.core.USBError as exc:
            raise TransportError(f"keypad {self.port}: {describe(exc)}") from exc
        return bytes(data)

    def write(self, data: bytes, timeout_ms: int = 100) -> None:
        if self._dev is None:
            raise TransportError(f"keypad {self.port}: not open")
        try:
            self._dev.write(EP_OUT, data, timeout_ms)
        except usb.core.USBError as exc:
            raise TransportError(f"keypad {self.port}: {describe(exc)}") from exc

    def close(self) -> None:
        dev, self._dev = self._dev, None
        if dev is not None:
            with contextlib.suppress(usb.core.USBError):  # already gone: nothing to release
                usb.util.dispose_resources(dev)
