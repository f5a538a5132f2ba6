"""Files a command will write, checked before the work starts (a table that takes an hour to
build is not then lost to a typo in ``--save``), and stores named with ``--db``.

A folder is known to be writable only by writing in it: ``os.access`` says yes to root for
``/proc`` and for read-only mounts, so :func:`check_writable` creates (and removes) an empty
file in the folder.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from noughts.core import NoughtsError

__all__ = ["check_db", "check_folder", "check_writable"]


def _probe(folder: Path, option: str, path: Path) -> None:
    """``NoughtsError`` naming ``option`` unless a file can be created in ``folder``."""
    try:
        fd, name = tempfile.mkstemp(prefix=".noughts-probe-", dir=folder)
    except OSError as e:
        raise NoughtsError(f"{option} {path}: cannot write in {folder} ({e.strerror or e})") from None
    os.close(fd)
    os.unlink(name)


def _make_folder(folder: Path, option: str, path: Path) -> None:
    """Make ``folder`` (and its parents), or ``NoughtsError`` saying why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise NoughtsError(f"{option} {path}: cannot make the folder {folder} ({e.strerror or e})") from None


def check_writable(
    path: Path, option: str, suffixes: tuple[str, ...] = (), *, make_folder: bool = False
) -> Path:
    """``path`` if a file can be written there: its folder exists (or, with ``make_folder``, is
    made) and a file can be created in it, it is not a folder itself, and its name ends in one of
    ``suffixes`` (when given); else ``NoughtsError`` naming ``option``.
    """
    if path.is_dir():
        raise NoughtsError(f"{option} {path} is a folder; give a file name")
    if suffixes and path.suffix not in suffixes:
        raise NoughtsError(f"{option} names a {' or '.join(suffixes)} file, not {path.name!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        if not make_folder or folder.exists():
            what = "is not a folder" if folder.exists() else "does not exist"
            raise NoughtsError(f"{option} {path}: there is no folder {folder} (it {what})")
        _make_folder(folder, option, path)
    if path.exists() and not os.access(path, os.W_OK):
        raise NoughtsError(f"{option} {path}: cannot write there (permission denied)")
    _probe(folder, option, path)
    return path


def check_folder(path: Path, option: str) -> Path:
    """``path`` if it is (or can be made) a folder that files can be written in: made when
    missing; ``NoughtsError`` naming ``option`` if it is a file or cannot be written in.
    """
    if path.exists() and not path.is_dir():
        raise NoughtsError(f"{option} {path} is a file; give a folder (it is made if missing)")
    if not path.is_dir():
        _make_folder(path, option, path)
    _probe(path, option, path)
    return path


def check_db(path: Path | None, option: str = "--db") -> Path | None:
    """A store named on the command line, checked before it is opened: its folder must exist
    (a typo in ``--db`` does not silently make folders and an empty store), and it must not be a
    folder. None (the default store) and ``:memory:`` pass unchanged.
    """
    if path is None or str(path) == ":memory:":
        return path
    if path.is_dir():
        raise NoughtsError(f"{option} {path} is a folder; give the store's file (e.g. {path / 'noughts.db'})")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise NoughtsError(
            f"{option} {path}: there is no folder {folder}; make it first (mkdir -p {folder})"
            " or leave out --db for the default store"
        )
    return path
