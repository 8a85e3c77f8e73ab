"""The jackpot keypad with its card reader, on USB: transport (pyusb), codec (reports), device
(the I/O thread's protocol). The wire protocol is docs/protocols/keypad.md."""
