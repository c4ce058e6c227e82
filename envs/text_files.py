"""Reading a text file a user named (a rules file, a training config, a run's record), with
one line saying why it cannot be read rather than a traceback from the filesystem."""

from __future__ import annotations

from pathlib import Path


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path``; a ``ValueError`` naming it as ``what`` (``"rules file"``) and
    why it cannot be read: it does not exist, it is a folder, it is not UTF-8 text, or the
    system refuses it (its reason)."""
    name = f"{what} {str(path)!r}"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{name} does not exist") from None
    except IsADirectoryError:
        raise ValueError(f"{name} is a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name} is not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise ValueError(f"{name} cannot be read: {exc.strerror or exc}") from None
