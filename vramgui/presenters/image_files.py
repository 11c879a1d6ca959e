"""Chart images for the window's exports: PNG-encoded in memory, then written with the app's atomic writer.

``QImage.save(path)`` writes in place: a full disk or a vanished folder leaves a truncated PNG where the user's
file was. Encoding into a buffer first and handing the bytes to ``vramgui.io.files.atomic_write_bytes`` means a
failed export keeps the old file byte-identical and says why.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice
from PySide6.QtGui import QImage

from vramgui.io.files import atomic_write_bytes
from vramgui.presenters.documents import SaveError

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def png_bytes(image: QImage) -> bytes:
    """``image`` as PNG file bytes; ``SaveError`` when Qt cannot encode it (a null image)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 takes the format as str at run time; its stubs say bytes
    ok = not image.isNull() and image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    if not ok:
        raise SaveError(translate("ImageFiles", "the chart could not be encoded as PNG"))
    return bytes(data.data())


def save_png(path: str | os.PathLike[str], image: QImage) -> None:
    """Write ``image`` to ``path`` as PNG, atomically; ``SaveError`` with the reason when it fails."""
    payload = png_bytes(image)
    try:
        atomic_write_bytes(path, payload)
    except OSError as err:
        raise SaveError(err.strerror or str(err)) from err
