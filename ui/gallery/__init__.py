"""The screens in sample states and the player that drives them by touch: for the pictures
(``python -m ui.screenshots`` from a checkout) and the tests, never shipped (``pyproject.toml``
excludes this package from the build, issue 24). Each gallery is a real console on simulated
devices, played by touch to the state its picture shows."""
