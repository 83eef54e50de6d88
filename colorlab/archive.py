"""Many game records at once: a folder or a zip of record files, one ``<game>-<code>.json`` per table.

The teacher's page downloads a class's tables as such a zip; ``TableStore.export`` writes
them into a folder; lesson 50 reads either. Each file is a saved game (:mod:`colorlab.record`),
read as strictly as any saved game, and a file too large for a record is refused before it
is unpacked.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from colorlab.record import MAX_BYTES, GameRecord, RecordError


def record_file_name(game: str, code: str) -> str:
    """The file name of one table's record: its game and its join code."""
    return f"{game}-{code}.json"


def records_zip(records: Mapping[str, GameRecord]) -> bytes:
    """The records as a zip of JSON files, by file name."""
    return b"".join(records_zip_parts(records.items()))


PART_BYTES = 1 << 20  # a zip sent in parts: about this many bytes a part


class _Parts(io.RawIOBase):
    """Where a zip is written as it is made: the bytes so far, taken away part by part."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[no-untyped-def]
        self.written.append(bytes(data))
        self.size += len(data)
        return len(data)

    def take(self) -> bytes:
        part, self.written, self.size = b"".join(self.written), [], 0
        return part


def records_zip_parts(records: Iterable[tuple[str, GameRecord]], part_bytes: int = PART_BYTES) -> Iterator[bytes]:
    """The records (file name, record) as a zip of JSON files, made as they come and given in parts of about
    `part_bytes`: joined, the parts are the zip. Neither the records nor the zip are ever held whole."""
    parts = _Parts()
    with zipfile.ZipFile(parts, "w", zipfile.ZIP_DEFLATED) as archive:  # an unseekable file: zipfile streams
        for name, record in records:
            archive.writestr(name, record.to_json())
            if parts.size >= part_bytes:
                yield parts.take()
    yield parts.take()


def record_files(folder: str | Path | None) -> list[Path]:
    """Which record files (``*.json``) lie in this folder, in name order? None, or a missing folder, has none."""
    if folder is None or not Path(folder).is_dir():
        return []
    return sorted(Path(folder).glob("*.json"))


def is_zip(where: str | Path | bytes | None) -> bool:
    """Is this a zip (a file, or its bytes), such as the one the teacher's page downloads?"""
    if isinstance(where, bytes):
        return zipfile.is_zipfile(io.BytesIO(where))
    return where is not None and Path(where).is_file() and zipfile.is_zipfile(where)


def load_records(where: str | Path | bytes) -> dict[str, GameRecord]:
    """Every record in a folder or a zip (its path or its bytes), by file name in name order; a file that is
    no colorlab record is refused by name."""
    if is_zip(where):
        with zipfile.ZipFile(io.BytesIO(where) if isinstance(where, bytes) else where) as archive:
            entries = [entry for entry in archive.infolist() if entry.filename.endswith(".json")]
            return {
                Path(entry.filename).name: _read(entry.filename, _unzipped(archive, entry))
                for entry in sorted(entries, key=lambda entry: Path(entry.filename).name)
            }
    if isinstance(where, bytes):
        raise RecordError("these bytes are not a zip of records")
    return {path.name: _read(path.name, path.read_bytes()) for path in record_files(where)}


def _unzipped(archive: zipfile.ZipFile, entry: zipfile.ZipInfo) -> bytes:
    """The bytes of one file in a zip, refused before unpacking if it is larger than any record may be."""
    if entry.file_size > MAX_BYTES:
        raise RecordError(f"{entry.filename}: file too large ({entry.file_size} bytes; the limit is {MAX_BYTES})")
    return archive.read(entry)


def _read(name: str, data: bytes) -> GameRecord:
    """Read one record, naming its file in any refusal."""
    try:
        return GameRecord.from_json(data)
    except RecordError as error:
        raise RecordError(f"{name}: {error}") from None
