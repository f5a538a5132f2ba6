"""Placeholder replaced by the CLI implementation."""


def main() -> None:
    raise SystemExit("noughts CLI not built yet")
