"""packaging/icu_trim.py: which ICU data items go, and a real trim of the wheel's libicudata when tools exist."""

from __future__ import annotations

import ctypes
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("icu_trim", ROOT / "packaging" / "icu_trim.py")
icu_trim = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(icu_trim)


@pytest.mark.parametrize("item", ["coll/ucadata.icu", "coll/root.res", "coll/res_index.res", "coll/zh.res",
                                  "coll/zh_Hans_CN.res", "coll/zh_CN.res", "coll/en.res", "coll/sv.res", "root.res",
                                  "en.res", "pool.res", "supplementalData.res", "zoneinfo64.res", "uts46.nrm",
                                  "cnvalias.icu", "nfkc.nrm", "likelySubtags.res"])
def test_what_qt_uses_is_kept(item):
    assert not icu_trim.item_is_dropped(item)


@pytest.mark.parametrize("item", ["de.res", "de_AT.res", "zh_Hans_CN.res", "ars.res", "lang/de.res",
                                  "zone/fr.res", "brkitr/cjdict.dict", "curr/en.res", "unit/en.res",
                                  "ibm-1047_P100-1995.cnv", "translit/root.res", "rbnf/en.res", "coll/de.res",
                                  "coll/ko.res", "coll/ja.res", "coll/yue_Hans.res", "coll/de__PHONEBOOK.res",
                                  "coll/de_.res", "unames.icu", "confusables.cfu"])
def test_display_names_locales_codepages_and_other_tailorings_are_dropped(item):
    assert icu_trim.item_is_dropped(item)


def _wheel_icudata() -> Path | None:
    import PySide6

    found = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    return found[0] if found else None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="only Linux wheels ship ICU")
def test_trimmed_library_keeps_soname_symbol_and_loads(tmp_path):
    library = _wheel_icudata()
    if library is None or not all(shutil.which(t) for t in ("readelf", "icupkg")) or not (
            shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("needs the wheel's libicudata, readelf, icupkg (icu-devtools) and a C compiler")
    trimmed = icu_trim.trim(library, tmp_path)
    assert trimmed.name == library.name
    assert trimmed.stat().st_size < library.stat().st_size / 3
    symbol, _offset, size = icu_trim._data_symbol(trimmed)
    assert symbol == icu_trim._data_symbol(library)[0] and size > 10**6
    handle = ctypes.CDLL(str(trimmed))
    header = (ctypes.c_ubyte * 4).in_dll(handle, symbol)
    assert bytes(header)[2:4] == b"\xda\x27"  # ICU's MappedData magic at the start of the common data
