"""The shuffler: framer (``framer``) and driver (``device``); protocol in
docs/protocols/shuffler.md."""
