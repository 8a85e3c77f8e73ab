"""A USB bus in memory that pyusb opens like a real one: a ``usb.backend.IBackend``.

Passed to ``usb.core.find(backend=...)``, it makes the real pyusb code path run (device and
descriptor objects, configuration, interface claiming, interrupt transfers, string
descriptors) against simulated devices, so a driver test exercises what runs on a table PC.
pyftdi's virtual backend is the model. Errors are the ones libusb raises: ``USBTimeoutError``
on a read with nothing to read, ``USBError`` with ``errno.ENODEV`` once a device is unplugged;
a handle opened before an unplug stays dead after the replug, as a real one does.

A simulated device implements :class:`VirtualDevice`; the bus only routes calls to it.
"""

from __future__ import annotations

import array
import errno
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

import usb.backend  # type: ignore[import-untyped]
import usb.core  # type: ignore[import-untyped]

LIBUSB_ERROR_NO_DEVICE = -4
LIBUSB_ERROR_TIMEOUT = -7
LIBUSB_ERROR_PIPE = -9


def no_device() -> usb.core.USBError:
    return usb.core.USBError(
        "No such device (it may have been disconnected)", LIBUSB_ERROR_NO_DEVICE, errno.ENODEV
    )


def timed_out() -> usb.core.USBTimeoutError:
    return usb.core.USBTimeoutError("Operation timed out", LIBUSB_ERROR_TIMEOUT, errno.ETIMEDOUT)


def stalled() -> usb.core.USBError:
    return usb.core.USBError("Pipe error", LIBUSB_ERROR_PIPE, errno.EPIPE)


# --- descriptors: plain objects with the fields pyusb copies, under their USB names ---------


@dataclass(frozen=True)
class EndpointDescriptor:
    bEndpointAddress: int  # USB field names, as pyusb reads them
    bmAttributes: int
    wMaxPacketSize: int
    bInterval: int
    bLength: int = 7
    bDescriptorType: int = 0x05
    bRefresh: int = 0
    bSynchAddress: int = 0
    extra_descriptors: tuple[int, ...] = ()


@dataclass(frozen=True)
class InterfaceDescriptor:
    bInterfaceNumber: int
    bInterfaceClass: int
    endpoints: tuple[EndpointDescriptor, ...]
    bAlternateSetting: int = 0
    bInterfaceSubClass: int = 0
    bInterfaceProtocol: int = 0
    iInterface: int = 0
    bLength: int = 9
    bDescriptorType: int = 0x04
    extra_descriptors: tuple[int, ...] = ()

    @property
    def bNumEndpoints(self) -> int:
        return len(self.endpoints)


@dataclass(frozen=True)
class ConfigurationDescriptor:
    bConfigurationValue: int
    interfaces: tuple[InterfaceDescriptor, ...]
    bmAttributes: int = 0x80  # bus powered
    bMaxPower: int = 50  # in 2 mA units: 100 mA
    iConfiguration: int = 0
    bLength: int = 9
    bDescriptorType: int = 0x02
    extra_descriptors: tuple[int, ...] = ()

    @property
    def bNumInterfaces(self) -> int:
        return len({i.bInterfaceNumber for i in self.interfaces})

    @property
    def wTotalLength(self) -> int:
        return self.bLength + sum(i.bLength + 7 * len(i.endpoints) for i in self.interfaces)


@dataclass(frozen=True)
class DeviceDescriptor:
    idVendor: int
    idProduct: int
    bcdDevice: int
    configurations: tuple[ConfigurationDescriptor, ...]
    strings: tuple[str, ...] = ()
    """String descriptors 1, 2, ... (index 0 is the language list, US English)."""
    iManufacturer: int = 0
    iProduct: int = 0
    iSerialNumber: int = 0
    bcdUSB: int = 0x0200
    bDeviceClass: int = 0  # class given per interface
    bDeviceSubClass: int = 0
    bDeviceProtocol: int = 0
    bMaxPacketSize0: int = 64
    bLength: int = 18
    bDescriptorType: int = 0x01
    bus: int = 1
    address: int = 1
    port_number: int = 1
    port_numbers: tuple[int, ...] = (1,)
    speed: int = 2  # usb.util.SPEED_FULL

    @property
    def bNumConfigurations(self) -> int:
        return len(self.configurations)


class VirtualDevice(Protocol):
    """A simulated device on the bus. ``generation`` grows at every plug-in, so the bus can
    refuse a handle opened before an unplug."""

    @property
    def descriptor(self) -> DeviceDescriptor: ...

    @property
    def plugged(self) -> bool: ...

    @property
    def generation(self) -> int: ...

    def intr_read(self, ep: int, size: int, timeout_ms: int) -> bytes:
        """Wait up to ``timeout_ms`` for a transfer from IN endpoint ``ep``; raise
        ``USBTimeoutError`` (:func:`timed_out`) when none, ``USBError`` when unplugged."""

    def intr_write(self, ep: int, data: bytes, timeout_ms: int) -> int:
        """Take one transfer for OUT endpoint ``ep``; return the bytes taken."""


@dataclass
class _Handle:
    device: VirtualDevice
    generation: int
    configuration: int = 0
    claimed: set[int] = field(default_factory=set)


class VirtualUsbBackend(usb.backend.IBackend):  # type: ignore[misc]
    """The bus: attach devices, then hand it to ``usb.core.find(backend=...)``."""

    def __init__(self, *devices: VirtualDevice) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._devices: list[VirtualDevice] = list(devices)

    def attach(self, device: VirtualDevice) -> None:
        with self._lock:
            self._devices.append(device)

    # -- enumeration and descriptors --

    def enumerate_devices(self) -> list[VirtualDevice]:
        with self._lock:
            return [d for d in self._devices if d.plugged]

    def get_parent(self, dev: VirtualDevice) -> None:
        return None

    def get_device_descriptor(self, dev: VirtualDevice) -> DeviceDescriptor:
        return dev.descriptor

    def get_configuration_descriptor(
        self, dev: VirtualDevice, config: int
    ) -> ConfigurationDescriptor:
        return dev.descriptor.configurations[config]

    def get_interface_descriptor(
        self, dev: VirtualDevice, intf: int, alt: int, config: int
    ) -> InterfaceDescriptor:
        matching = [
            i
            for i in dev.descriptor.configurations[config].interfaces
            if i.bInterfaceNumber == intf
        ]
        return matching[alt]

    def get_endpoint_descriptor(
        self, dev: VirtualDevice, ep: int, intf: int, alt: int, config: int
    ) -> EndpointDescriptor:
        return self.get_interface_descriptor(dev, intf, alt, config).endpoints[ep]

    # -- handles --

    def _live(self, handle: _Handle) -> VirtualDevice:
        dev = handle.device
        if not dev.plugged or dev.generation != handle.generation:
            raise no_device()
        return dev

    def open_device(self, dev: VirtualDevice) -> _Handle:
        if not dev.plugged:
            raise no_device()
        return _Handle(dev, dev.generation)

    def close_device(self, dev_handle: _Handle) -> None:
        dev_handle.claimed.clear()

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        dev = self._live(dev_handle)
        values = {c.bConfigurationValue for c in dev.descriptor.configurations}
        if config_value not in values | {0}:
            raise stalled()
        dev_handle.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        self._live(dev_handle)
        return dev_handle.configuration

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        self._live(dev_handle)
        if altsetting != 0:
            raise stalled()

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        self._live(dev_handle)
        dev_handle.claimed.add(intf)

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        dev_handle.claimed.discard(intf)

    def is_kernel_driver_active(self, dev_handle: _Handle, intf: int) -> bool:
        return False

    def detach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        return None

    def attach_kernel_driver(self, dev_handle: _Handle, intf: int) -> None:
        return None

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        self._live(dev_handle)

    def reset_device(self, dev_handle: _Handle) -> None:
        self._live(dev_handle)

    # -- transfers --

    def intr_read(
        self, dev_handle: _Handle, ep: int, intf: int, buff: array.array[int], timeout: int
    ) -> int:
        dev = self._live(dev_handle)
        if intf not in dev_handle.claimed:
            raise stalled()
        data = dev.intr_read(ep, len(buff), timeout)
        if dev.generation != dev_handle.generation:
            raise no_device()
        buff[: len(data)] = array.array("B", data)
        return len(data)

    def intr_write(
        self, dev_handle: _Handle, ep: int, intf: int, data: array.array[int], timeout: int
    ) -> int:
        dev = self._live(dev_handle)
        if intf not in dev_handle.claimed:
            raise stalled()
        return dev.intr_write(ep, bytes(data), timeout)

    def ctrl_transfer(
        self,
        dev_handle: _Handle,
        bmRequestType: int,  # pyusb's parameter names
        bRequest: int,
        wValue: int,
        wIndex: int,
        data: array.array[int],
        timeout: int,
    ) -> Any:
        """Only what pyusb itself asks: GET_DESCRIPTOR for string descriptors."""
        dev = self._live(dev_handle)
        if bmRequestType != 0x80 or bRequest != 0x06 or wValue >> 8 != 0x03:
            raise stalled()
        index = wValue & 0xFF
        if index == 0:
            raw = bytes((4, 3, 0x09, 0x04))  # one language: 0x0409, US English
        elif index <= len(dev.descriptor.strings):
            text = dev.descriptor.strings[index - 1].encode("utf-16-le")
            raw = bytes((2 + len(text), 3)) + text
        else:
            raise stalled()
        raw = raw[: len(data)]
        data[: len(raw)] = array.array("B", raw)
        return len(raw)
