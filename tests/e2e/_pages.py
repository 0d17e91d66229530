"""What the page-replay tests share (test_faq_other_2_10.py, test_error_pages_2_10.py, test_availability_2_10.py):
comparing ours' result of a page's example with the one real MindSpore 2.10 recorded."""
import numpy as np


def raises_with_bases(e):
    """A page-code module's ``_raises``, with the names of every class of the exception: ours may raise a subclass
    of 2.10's (MSValueError of ValueError)."""
    return ("raises", [c.__name__ for c in type(e).__mro__], str(e)[:400])


def same(have, want, where, phrases=None):
    """``have`` (ours, through the recorder's JSON round trip) equals ``want`` (2.10's): floats to 1e-5, everything
    else exactly; where 2.10 raised, ours raised that class (or a subclass) with ``phrases[where]`` (or the phrase
    of ``where``'s example) in its message."""
    phrases = phrases or {}
    if isinstance(want, list) and len(want) == 3 and want[0] == "raises":
        assert isinstance(have, list) and have[:1] == ["raises"], f"{where}: 2.10 raised {want[1]}, ours gave {have!r}"
        classes = have[1] if isinstance(have[1], list) else [have[1]]
        assert want[1] in classes, f"{where}: ours raised {classes[0]}: {have[2]!r}; 2.10 raised {want[1]}: {want[2]!r}"
        phrase = phrases.get(where, phrases.get(where.split("/")[0], ""))
        assert phrase in have[2], f"{where}: {have[2]!r} lacks {phrase!r}"
    elif isinstance(want, list):
        assert isinstance(have, list) and len(have) == len(want), f"{where}: {have!r} != {want!r}"
        for i, (h, w) in enumerate(zip(have, want)):
            same(h, w, f"{where}[{i}]", phrases)
    elif isinstance(want, dict):
        assert isinstance(have, dict) and sorted(have) == sorted(want), f"{where}: {have!r} != {want!r}"
        for k in want:
            same(have[k], want[k], f"{where}/{k}", phrases)
    elif isinstance(want, float):
        assert isinstance(have, float), f"{where}: {have!r} != {want!r} (a float)"
        np.testing.assert_allclose(have, want, rtol=1e-5, atol=1e-6, err_msg=where)
    else:
        assert type(have) is type(want) and have == want, f"{where}: {have!r} != {want!r}"
