"""Shrink the ICU data library that Linux PySide6 wheels ship (libicudata.so.73, 32 MB) to what Qt uses.

Qt 6 links ICU on Linux for collation (QCollator), case mapping and a few conversions; its locale data (number
and date formats, month and language names) comes from Qt's own CLDR tables, its text layout from HarfBuzz and
its own Unicode tables. So the bundle keeps ICU's collation trees, normalization/IDNA/property files, the
locale-independent supplemental data and the root/English locale, and drops what ICU would only use for its own
formatting and display APIs: per-locale bundles, language/region/currency/unit/time-zone display names, spelled-
out number rules, transliterators, break-iterator dictionaries, and legacy codepage converters (Qt converts
UTF-8/16/32 and Latin-1 itself). ICU's documented answer to its data size is exactly this kind of filtering
("ICU Data Build Tool"); here it is applied to the wheel's prebuilt data with ICU's own ``icupkg``.

Windows and macOS wheels do not ship ICU (Qt uses the system's), so this step is Linux-only. It needs
``readelf`` (binutils), ``icupkg`` (Debian: icu-devtools) and a C compiler; without them the build keeps the full
library and says so. ``python packaging/icu_trim.py LIB OUT_DIR`` runs it alone.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

DROPPED_TREES = ("brkitr/", "curr/", "lang/", "rbnf/", "region/", "translit/", "unit/", "zone/")
KEPT_LOCALES = {"root", "en", "en_001", "en_US", "en_US_POSIX"}
# Collation: the root order (ucadata.icu, the Unicode Collation Algorithm's table, which already sorts German,
# French, Spanish... correctly) and the tailorings of the app's own languages: Chinese (zh: pinyin, the 0.7 MB
# that matters) and English; plus Swedish, whose "ä after z" the self-test uses to prove a tailoring loads. Any
# other locale falls back to the root order (3.7 -> 1.6 MB). ICU's character names and spoof-check tables are
# for APIs Qt never calls (u_charName, uspoof).
KEPT_COLLATIONS = {"root", "en", "zh", "sv"}
DROPPED_ITEMS = {"unames.icu", "confusables.cfu", "confusablesWholeScript.cfu"}
_LOCALE = re.compile(r"^[a-z]{2,3}(?:_[A-Za-z0-9]+)*\.res$")


def item_is_dropped(item: str) -> bool:
    """``item`` as icupkg lists it, e.g. ``coll/de.res``, ``de_AT.res``, ``ibm-1047_P100-1995.cnv``."""
    if item.startswith(DROPPED_TREES) or item.endswith(".cnv") or item in DROPPED_ITEMS:
        return True
    if item.startswith("coll/") and item not in ("coll/ucadata.icu", "coll/res_index.res"):
        language = item.removeprefix("coll/").split("_")[0].split(".")[0]  # de.res, de_.res, de__PHONEBOOK.res
        return language not in KEPT_COLLATIONS
    if "/" not in item and _LOCALE.match(item):
        return item.removesuffix(".res") not in KEPT_LOCALES
    return False


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise FileNotFoundError(f"{name} not found")
    return path


def _data_symbol(library: Path) -> tuple[str, int, int]:
    """(symbol name, file offset, size) of ICU's ``icudtNN_dat`` blob inside the shared library."""
    readelf = _tool("readelf")
    symbols = subprocess.run([readelf, "-W", "--dyn-syms", str(library)], capture_output=True, text=True,
                             check=True).stdout
    match = re.search(r":\s+([0-9a-f]+)\s+(0x[0-9a-f]+|\d+)\s+OBJECT\s+GLOBAL\s+\w+\s+\d+\s+(icudt\d+_dat)\b",
                      symbols)
    if match is None:
        raise ValueError(f"{library}: no icudtNN_dat symbol")
    address, size, name = int(match[1], 16), int(match[2], 0), match[3]
    sections = subprocess.run([readelf, "-W", "-S", str(library)], capture_output=True, text=True,
                              check=True).stdout
    for line in sections.splitlines():
        fields = re.findall(r"\b[0-9a-f]{6,16}\b", line)
        if "PROGBITS" in line and len(fields) >= 3:
            start, offset, length = (int(f, 16) for f in fields[:3])
            if start <= address < start + length:
                return name, offset + (address - start), size
    raise ValueError(f"{library}: cannot map {name} to a file offset")


def trim(library: Path, work_dir: Path) -> Path:
    """Write a trimmed copy of ``library`` (same soname and symbol) into ``work_dir``; return its path."""
    library = Path(library)
    icupkg, compiler = _tool("icupkg"), shutil.which("cc") or _tool("gcc")
    work_dir.mkdir(parents=True, exist_ok=True)
    symbol, offset, size = _data_symbol(library)
    data_name = symbol.removesuffix("_dat") + "l"  # e.g. icudt73l: little-endian package name
    with library.open("rb") as handle:
        handle.seek(offset)
        blob = handle.read(size)
    full = work_dir / "full" / f"{data_name}.dat"  # icupkg wants the file named after the package
    full.parent.mkdir(exist_ok=True)
    full.write_bytes(blob)
    items = subprocess.run([icupkg, "-l", str(full)], capture_output=True, text=True, check=True).stdout.split()
    dropped = [item for item in items if item_is_dropped(item)]
    removals = work_dir / "removed-items.txt"
    removals.write_text("\n".join(dropped) + "\n")
    trimmed = work_dir / f"{data_name}.dat"
    trimmed.unlink(missing_ok=True)
    subprocess.run([icupkg, "-r", str(removals), str(full), str(trimmed)], check=True, capture_output=True)
    assembly = work_dir / "icudata.S"
    assembly.write_text(
        f'\t.section .rodata\n\t.globl {symbol}\n\t.type {symbol}, @object\n\t.balign 16\n{symbol}:\n'
        f'\t.incbin "{trimmed}"\n\t.size {symbol}, . - {symbol}\n\t.section .note.GNU-stack,"",@progbits\n')
    output = work_dir / library.name
    subprocess.run([compiler, "-shared", "-nostdlib", f"-Wl,-soname,{library.name}", "-o", str(output),
                    str(assembly)], check=True, capture_output=True)
    full.unlink()
    return output


def trim_in_toc(binaries: list[tuple[str, str, str]], work_dir: Path) -> tuple[list[tuple[str, str, str]], str]:
    """Swap the TOC's libicudata for a trimmed copy; returns the TOC and a line for the build log."""
    result = []
    message = "no libicudata in the bundle"
    for dest_name, original_src, typecode in binaries:
        src = original_src
        if Path(dest_name).name.startswith("libicudata.so") and typecode != "SYMLINK":
            try:
                trimmed = trim(Path(src), work_dir / "icu")
            except (OSError, ValueError, subprocess.CalledProcessError) as exc:
                message = f"ICU data kept whole ({type(exc).__name__}: {exc})"
            else:
                before, after = Path(src).stat().st_size, trimmed.stat().st_size
                message = f"ICU data trimmed {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB"
                src = str(trimmed)
        result.append((dest_name, src, typecode))
    return result, message


if __name__ == "__main__":
    out = trim(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"{sys.argv[1]}: {Path(sys.argv[1]).stat().st_size / 1e6:.1f} MB -> {out}: {out.stat().st_size / 1e6:.1f} MB")
