"""More text transforms: Unicode normalisation and case folding, regular expressions, the BERT tokenizers,
n-grams, sequence-pair truncation, script-based tokenization, and the optional-package tokenizers
(SentencePiece, Jieba).

Regular expressions follow ICU's syntax as far as Python's ``re`` allows: ``\\p{..}``/``\\P{..}`` with a
Unicode general category (``L``, ``Lu``, ``N``, ``Nd``, ``P``, ``S``, ``Z``, ...) are supported (expanded
into character classes), and ``$1`` in replacements means group 1. ``UnicodeScriptTokenizer`` derives a
character's script from its Unicode name (Latin, Cyrillic, Greek, Han, ...); digits, punctuation and
symbols form the Common script and combining marks stay with the character before them, as in ICU.
"""
import functools
import re
import sys
import unicodedata
from enum import IntEnum

import numpy as np

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import TensorOperation, check_bool, check_type, runtime_error, to_array
from mindspore.dataset.text.transforms import _scalar_string, _strings, _with_offsets
from mindspore.dataset.text.utils import Vocab

__all__ = ["NormalizeForm", "JiebaMode", "SentencePieceModel", "SPieceTokenizerLoadType", "SPieceTokenizerOutType",
           "CaseFold", "NormalizeUTF8", "RegexReplace", "RegexTokenizer", "BasicTokenizer", "WordpieceTokenizer",
           "BertTokenizer", "Ngram", "TruncateSequencePair", "UnicodeScriptTokenizer", "JiebaTokenizer",
           "SentencePieceVocab", "SentencePieceTokenizer", "FilterWikipediaXML"]


class NormalizeForm(IntEnum):
    """Unicode normalization forms for :class:`NormalizeUTF8` and :class:`BasicTokenizer`."""
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class JiebaMode(IntEnum):
    """Segmentation modes of :class:`JiebaTokenizer`."""
    MIX = 0
    MP = 1
    HMM = 2


class SentencePieceModel(IntEnum):
    """Model types of :class:`SentencePieceVocab`."""
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerLoadType(IntEnum):
    """How :class:`SentencePieceTokenizer` gets its model."""
    FILE = 0
    MODEL = 1


class SPieceTokenizerOutType(IntEnum):
    """What :class:`SentencePieceTokenizer` returns: the pieces or their ids."""
    STRING = 0
    INT = 1


def _check_enum(value, enum, name):
    if not isinstance(value, enum):
        raise MSTypeError(f"Argument {name} with value {value!r} is not of type [{enum}], but got {type(value)}.")
    return value


def _string_array(value, op_name):
    array = value if isinstance(value, np.ndarray) else np.asarray(value)
    return _strings(array, op_name)


def _map_strings(value, op_name, fn):
    array = _string_array(value, op_name)
    out = [fn(s) for s in array.reshape(-1).tolist()]
    return np.array(out, dtype=np.str_).reshape(array.shape)


# ---------------------------------------------------------------------------------------------------------------
# normalisation

_IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]")


def nfkc_casefold(text):
    """Unicode NFKC_Casefold: compatibility decomposition, full case folding, default ignorables removed."""
    text = _IGNORABLE.sub("", unicodedata.normalize("NFKC", text))
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text.casefold()).casefold())


class CaseFold(TensorOperation):
    """Fold the case of strings (Unicode NFKC_Casefold: 'ß' becomes 'ss', 'Ⅻ' becomes 'xii').

    Examples:
        >>> from mindspore.dataset import text
        >>> str(text.CaseFold()("Welcome To BEIJING"))
        'welcome to beijing'
    """

    def __call__(self, value):
        return _map_strings(value, "CaseFold", nfkc_casefold)


_FORMS = {NormalizeForm.NFC: "NFC", NormalizeForm.NFKC: "NFKC", NormalizeForm.NFD: "NFD", NormalizeForm.NFKD: "NFKD"}


class NormalizeUTF8(TensorOperation):
    """Apply a Unicode normalization form to strings.

    Args:
        normalize_form (NormalizeForm, optional): NONE, NFC, NFKC, NFD or NFKD. Default: NormalizeForm.NFKC.

    Examples:
        >>> from mindspore.dataset import text
        >>> str(text.NormalizeUTF8(text.NormalizeForm.NFKC)("ﬁ"))
        'fi'
    """

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        self.normalize_form = _check_enum(normalize_form, NormalizeForm, "normalize_form")

    def __call__(self, value):
        form = _FORMS.get(self.normalize_form)
        if form is None:
            return _string_array(value, "NormalizeUTF8").astype(np.str_)
        return _map_strings(value, "NormalizeUTF8", lambda s: unicodedata.normalize(form, s))


# ---------------------------------------------------------------------------------------------------------------
# ICU-style regular expressions on Python's re

@functools.lru_cache(maxsize=None)
def _category_class(name):
    """The characters of a Unicode general category (``L``, ``Lu``, ...) as ``re`` class ranges."""
    if len(name) not in (1, 2) or not name[0].isupper():
        raise MSValueError(f"Unsupported Unicode property \\p{{{name}}}: only general categories (L, Lu, N, Nd, P, "
                           f"S, Z, ...) are supported.")
    ranges, start, prev = [], None, None
    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code)).startswith(name):
            if start is None:
                start = code
            prev = code
        elif start is not None:
            ranges.append((start, prev))
            start = None
    if start is not None:
        ranges.append((start, prev))
    if not ranges:
        raise MSValueError(f"Unsupported Unicode property \\p{{{name}}}: no character has this general category.")
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


_PROPERTY = re.compile(r"\\([pP])\{\^?([A-Za-z_]+)\}")
_ALIASES = {"Letter": "L", "Number": "N", "Punctuation": "P", "Symbol": "S", "Separator": "Z", "Mark": "M",
            "Other": "C", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Decimal_Number": "Nd"}


def translate_icu(pattern):
    """An ICU regular expression as a Python one (``\\p{..}`` expanded, ``(?<name>`` kept by ``re``)."""
    out, depth, i = [], 0, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            match = _PROPERTY.match(pattern, i)
            if match:
                negate = (match.group(1) == "P") != pattern[i + 3:i + 4].startswith("^")
                body = _category_class(_ALIASES.get(match.group(2), match.group(2)))
                if depth:
                    if negate:
                        raise MSValueError("\\P{..} inside a character class is not supported.")
                    out.append(body)
                else:
                    out.append(f"[{'^' if negate else ''}{body}]")
                i = match.end()
                continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
        out.append(ch)
        i += 1
    return "".join(out)


def compile_icu(pattern, op_name):
    try:
        return re.compile(translate_icu(pattern))
    except re.error as exc:
        raise MSValueError(f"{op_name}: the pattern {pattern!r} is not a valid regular expression: {exc}.") from None


_DOLLAR_GROUP = re.compile(r"\\\$|\$(\d+)|\$\{(\w+)\}|\\")


def _icu_replacement(replace):
    def sub(match):
        if match.group(0) == "\\$":
            return "$"
        if match.group(0) == "\\":
            return "\\\\"
        return f"\\g<{match.group(1) or match.group(2)}>"
    return _DOLLAR_GROUP.sub(sub, replace)


class RegexReplace(TensorOperation):
    """Replace the matches of a regular expression (ICU syntax) in strings.

    Args:
        pattern (str): the regular expression.
        replace (str): the replacement (``$1`` for group 1).
        replace_all (bool, optional): replace every match (True) or the first one. Default: True.

    Examples:
        >>> from mindspore.dataset import text
        >>> str(text.RegexReplace("\\\\s+", "_")("a  b c"))
        'a_b_c'
    """

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern = check_type(pattern, str, "pattern")
        self.replace = check_type(replace, str, "replace")
        self.replace_all = check_bool(replace_all, "replace_all")
        self._regex = compile_icu(pattern, "RegexReplace")
        self._replacement = _icu_replacement(replace)

    def __call__(self, value):
        count = 0 if self.replace_all else 1
        return _map_strings(value, "RegexReplace", lambda s: self._regex.sub(self._replacement, s, count=count))


def _split_spans(text, delim, keep):
    """Spans of the pieces between matches of ``delim``; matches fully matched by ``keep`` are pieces too."""
    spans, pos = [], 0
    for match in delim.finditer(text):
        if match.end() == match.start():
            continue
        if match.start() > pos:
            spans.append((pos, match.start()))
        if keep is not None and keep.fullmatch(match.group(0)):
            spans.append(match.span())
        pos = match.end()
    if pos < len(text):
        spans.append((pos, len(text)))
    return spans


class RegexTokenizer(TensorOperation):
    """Split strings at the matches of a regular expression (ICU syntax).

    Args:
        delim_pattern (str): the delimiter pattern.
        keep_delim_pattern (str, optional): delimiters fully matching this pattern are kept as tokens.
            Default: '' (no delimiter is kept).
        with_offsets (bool, optional): also return start/end byte offsets. Default: False.

    Examples:
        >>> from mindspore.dataset import text
        >>> text.RegexTokenizer("\\\\s+")("Welcome  to Beijing").tolist()
        ['Welcome', 'to', 'Beijing']
    """

    def __init__(self, delim_pattern, keep_delim_pattern='', with_offsets=False):
        self.delim_pattern = check_type(delim_pattern, str, "delim_pattern")
        self.keep_delim_pattern = check_type(keep_delim_pattern, str, "keep_delim_pattern")
        self.with_offsets = check_bool(with_offsets, "with_offsets")
        self._delim = compile_icu(delim_pattern, "RegexTokenizer")
        self._keep = compile_icu(keep_delim_pattern, "RegexTokenizer") if keep_delim_pattern else None

    def __call__(self, value):
        text = _scalar_string(value, "RegexTokenizer")
        return _with_offsets(text, _split_spans(text, self._delim, self._keep), self.with_offsets)


# ---------------------------------------------------------------------------------------------------------------
# BERT tokenizers

_UNUSED = re.compile(r"\[(UNK|CLS|SEP|PAD|MASK|unused\d+)\]")


def _is_cjk(ch):
    code = ord(ch)
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF
            or 0x2A700 <= code <= 0x2B73F or 0x2B740 <= code <= 0x2B81F or 0x2B820 <= code <= 0x2CEAF
            or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F)


def _is_punct(ch):
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_control(ch):
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cf")


def _clean(text, lower_case, normalization_form):
    """BERT's cleaning of a piece of text: control characters and U+0000/U+FFFD dropped, whitespace made
    spaces, then case folding with accents removed (``lower_case``) or the chosen normalization form."""
    chars = []
    for ch in text:
        if ch in ("\x00", "\ufffd") or _is_control(ch):
            continue
        chars.append(" " if ch.isspace() else ch)
    text = "".join(chars)
    if lower_case:
        text = unicodedata.normalize("NFD", nfkc_casefold(text))
        return "".join(c for c in text if unicodedata.category(c) != "Mn")
    if normalization_form in _FORMS:
        return unicodedata.normalize(_FORMS[normalization_form], text)
    return text


def basic_tokenize(text, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                   preserve_unused_token=True):
    """BERT's basic tokenization: ``(normalized text, [(token, start, end)])``, the spans being character
    indices into the normalized text (offsets are reported in it, as MindSpore does)."""
    segments = []
    if preserve_unused_token:
        pos = 0
        for match in _UNUSED.finditer(text):
            segments.append((text[pos:match.start()], False))
            segments.append((match.group(0), True))
            pos = match.end()
        segments.append((text[pos:], False))
    else:
        segments.append((text, False))
    normalized, tokens = "", []
    for piece, special in segments:
        if not piece:
            continue
        base = len(normalized)
        if special:
            normalized += piece
            tokens.append((piece, base, base + len(piece)))
            continue
        piece = _clean(piece, lower_case, normalization_form)
        normalized += piece
        start = None
        for i, c in enumerate(piece):
            if c.isspace() or unicodedata.category(c) == "Zs":
                if start is not None:
                    tokens.append((piece[start:i], base + start, base + i))
                    start = None
                if keep_whitespace:
                    if tokens and tokens[-1][0].isspace() and tokens[-1][2] == base + i:
                        tokens[-1] = (tokens[-1][0] + c, tokens[-1][1], base + i + 1)
                    else:
                        tokens.append((c, base + i, base + i + 1))
            elif _is_punct(c) or _is_cjk(c):
                if start is not None:
                    tokens.append((piece[start:i], base + start, base + i))
                    start = None
                tokens.append((c, base + i, base + i + 1))
            elif start is None:
                start = i
        if start is not None:
            tokens.append((piece[start:], base + start, base + len(piece)))
    return normalized, tokens


def _byte_offsets(text):
    return np.cumsum([0] + [len(ch.encode("utf-8")) for ch in text])


def _check_normalization(normalization_form):
    return _check_enum(normalization_form, NormalizeForm, "normalization_form")


class BasicTokenizer(TensorOperation):
    """BERT's basic tokenizer: split on whitespace and punctuation, one token per CJK character.

    Args:
        lower_case (bool, optional): case fold and strip accents. Default: False.
        keep_whitespace (bool, optional): keep runs of whitespace as tokens. Default: False.
        normalization_form (NormalizeForm, optional): normalization when `lower_case` is False.
            Default: NormalizeForm.NONE.
        preserve_unused_token (bool, optional): keep '[UNK]', '[CLS]', '[SEP]', '[PAD]', '[MASK]', '[unusedN]'
            whole. Default: True.
        with_offsets (bool, optional): also return start/end byte offsets (in the normalized text, as
            MindSpore). Default: False.

    Examples:
        >>> from mindspore.dataset import text
        >>> text.BasicTokenizer()("Hello, World!").tolist()
        ['Hello', ',', 'World', '!']
    """

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        self.lower_case = check_bool(lower_case, "lower_case")
        self.keep_whitespace = check_bool(keep_whitespace, "keep_whitespace")
        self.normalization_form = _check_normalization(normalization_form)
        self.preserve_unused_token = check_bool(preserve_unused_token, "preserve_unused_token")
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def __call__(self, value):
        text = _scalar_string(value, "BasicTokenizer")
        normalized, tokens = basic_tokenize(text, self.lower_case, self.keep_whitespace, self.normalization_form,
                                            self.preserve_unused_token)
        return _emit([t for t, _, _ in tokens], [(a, b) for _, a, b in tokens], normalized, self.with_offsets)


def _emit(tokens, spans, text, with_offsets):
    if not tokens:
        tokens, spans = [""], [(0, 0)]
    array = np.array(tokens, dtype=np.str_)
    if not with_offsets:
        return array
    pos = _byte_offsets(text)
    return (array, np.array([pos[a] for a, _ in spans], np.uint32), np.array([pos[b] for _, b in spans], np.uint32))


def wordpiece(token, vocab, suffix_indicator, max_bytes_per_token, unknown_token):
    """Greedy longest-match-first pieces of one token: ``[(piece, start byte, end byte)]``."""
    data = token.encode("utf-8")
    if len(data) > max_bytes_per_token:
        return [(unknown_token if unknown_token else token, 0, len(data))]
    pieces, start = [], 0
    chars = token
    char_bytes = _byte_offsets(chars)
    while start < len(chars):
        end = len(chars)
        found = None
        while end > start:
            piece = chars[start:end]
            if start > 0:
                piece = suffix_indicator + piece
            if piece in vocab:
                found = piece
                break
            end -= 1
        if found is None:
            return [(unknown_token if unknown_token else token, 0, len(data))]
        pieces.append((found, int(char_bytes[start]), int(char_bytes[end])))
        start = end
    return pieces


def _check_wordpiece_args(vocab, suffix_indicator, max_bytes_per_token, unknown_token):
    check_type(vocab, Vocab, "vocab")
    check_type(suffix_indicator, str, "suffix_indicator")
    if isinstance(max_bytes_per_token, bool) or not isinstance(max_bytes_per_token, int):
        raise MSTypeError(f"Argument max_bytes_per_token with value {max_bytes_per_token} is not of type "
                          f"[<class 'int'>], but got {type(max_bytes_per_token)}.")
    if not 0 <= max_bytes_per_token <= 2147483647:
        raise MSValueError("Input max_bytes_per_token is not within the required interval of [0, 2147483647].")
    check_type(unknown_token, str, "unknown_token")


class WordpieceTokenizer(TensorOperation):
    """Split tokens into word pieces of a vocabulary (greedy longest match first).

    Args:
        vocab (Vocab): the vocabulary.
        suffix_indicator (str, optional): prefix of non-initial pieces. Default: '##'.
        max_bytes_per_token (int, optional): longer tokens become `unknown_token`. Default: 100.
        unknown_token (str, optional): what a token that cannot be split becomes; '' keeps the token.
            Default: '[UNK]'.
        with_offsets (bool, optional): also return start/end byte offsets (within each token). Default: False.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> vocab = text.Vocab.from_list(["book", "##s"])
        >>> text.WordpieceTokenizer(vocab)(np.array(["books"])).tolist()
        ['book', '##s']
    """

    def __init__(self, vocab, suffix_indicator='##', max_bytes_per_token=100, unknown_token='[UNK]',
                 with_offsets=False):
        _check_wordpiece_args(vocab, suffix_indicator, max_bytes_per_token, unknown_token)
        self.vocab = vocab
        self.suffix_indicator = suffix_indicator
        self.max_bytes_per_token = max_bytes_per_token
        self.unknown_token = unknown_token
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def __call__(self, value):
        tokens = _string_array(to_array(value, "WordpieceTokenizer") if not isinstance(value, str)
                               else np.asarray(value), "WordpieceTokenizer")
        if tokens.ndim > 1:
            raise runtime_error("WordpieceTokenizer", f"the input should be a 1-D string tensor, but got shape "
                                f"{tokens.shape}.")
        table = self.vocab._token_to_id  # pylint: disable=protected-access
        out, starts, ends = [], [], []
        for token in tokens.reshape(-1).tolist():
            for piece, a, b in wordpiece(token, table, self.suffix_indicator, self.max_bytes_per_token,
                                         self.unknown_token):
                out.append(piece)
                starts.append(a)
                ends.append(b)
        array = np.array(out, dtype=np.str_)
        if not self.with_offsets:
            return array
        return array, np.array(starts, np.uint32), np.array(ends, np.uint32)


class BertTokenizer(TensorOperation):
    """BERT tokenization: :class:`BasicTokenizer` then :class:`WordpieceTokenizer`.

    Args:
        vocab (Vocab): the vocabulary.
        suffix_indicator (str, optional): Default: '##'.
        max_bytes_per_token (int, optional): Default: 100.
        unknown_token (str, optional): Default: '[UNK]'.
        lower_case (bool, optional): Default: False.
        keep_whitespace (bool, optional): Default: False.
        normalization_form (NormalizeForm, optional): Default: NormalizeForm.NONE.
        preserve_unused_token (bool, optional): Default: True.
        with_offsets (bool, optional): also return start/end byte offsets in the input. Default: False.

    Examples:
        >>> from mindspore.dataset import text
        >>> vocab = text.Vocab.from_list(["hello", "book", "##s", ","])
        >>> text.BertTokenizer(vocab, lower_case=True)("Hello, books").tolist()
        ['hello', ',', 'book', '##s']
    """

    def __init__(self, vocab, suffix_indicator='##', max_bytes_per_token=100, unknown_token='[UNK]',
                 lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        _check_wordpiece_args(vocab, suffix_indicator, max_bytes_per_token, unknown_token)
        self.vocab = vocab
        self.suffix_indicator = suffix_indicator
        self.max_bytes_per_token = max_bytes_per_token
        self.unknown_token = unknown_token
        self.lower_case = check_bool(lower_case, "lower_case")
        self.keep_whitespace = check_bool(keep_whitespace, "keep_whitespace")
        self.normalization_form = _check_normalization(normalization_form)
        self.preserve_unused_token = check_bool(preserve_unused_token, "preserve_unused_token")
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def __call__(self, value):
        text = _scalar_string(value, "BertTokenizer")
        table = self.vocab._token_to_id  # pylint: disable=protected-access
        normalized, tokens = basic_tokenize(text, self.lower_case, self.keep_whitespace, self.normalization_form,
                                            self.preserve_unused_token)
        pos = _byte_offsets(normalized)
        out, starts, ends = [], [], []
        for token, a, _ in tokens:
            base = int(pos[a])
            for piece, pa, pb in wordpiece(token, table, self.suffix_indicator, self.max_bytes_per_token,
                                           self.unknown_token):
                out.append(piece)
                starts.append(base + pa)
                ends.append(base + pb)
        if not out:
            out, starts, ends = [""], [0], [0]
        array = np.array(out, dtype=np.str_)
        if not self.with_offsets:
            return array
        return array, np.array(starts, np.uint32), np.array(ends, np.uint32)


# ---------------------------------------------------------------------------------------------------------------
# sequences

def _check_pad(pad, name):
    if not isinstance(pad, tuple) or len(pad) != 2 or not isinstance(pad[0], str) \
            or isinstance(pad[1], bool) or not isinstance(pad[1], int):
        raise MSTypeError(f"{name} should be a tuple of (str, int), but got {pad!r}.")
    if pad[1] < 0:
        raise MSValueError(f"padding width need to be positive numbers, but got {name} width {pad[1]}.")


class Ngram(TensorOperation):
    """N-grams of a 1-D string array.

    Args:
        n (Union[int, list[int]]): the n-gram sizes (each > 0), output in this order.
        left_pad (tuple[str, int], optional): (pad token, width) added on the left; the width is capped at n - 1.
            Default: ('', 0).
        right_pad (tuple[str, int], optional): the same on the right. Default: ('', 0).
        separator (str, optional): joins the tokens of an n-gram. Default: ' '.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> text.Ngram(2)(np.array(["a", "b", "c"])).tolist()
        ['a b', 'b c']
    """

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        sizes = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(sizes, list) or not sizes or any(isinstance(k, bool) or not isinstance(k, int)
                                                            for k in sizes):
            raise MSTypeError(f"n should be an int or a non-empty list of int, but got {n!r}.")
        if any(k <= 0 for k in sizes):
            raise MSValueError(f"gram[{[k for k in sizes if k <= 0][0]}] must be positive.")
        _check_pad(left_pad, "left_pad")
        _check_pad(right_pad, "right_pad")
        self.n = list(sizes)
        self.left_pad, self.right_pad = left_pad, right_pad
        self.separator = check_type(separator, str, "separator")

    def __call__(self, value):
        tokens = _string_array(to_array(value, "Ngram"), "Ngram")
        if tokens.ndim != 1:
            raise runtime_error("Ngram", f"the input should be a 1-D string tensor, but got shape {tokens.shape}.")
        tokens = tokens.tolist()
        out = []
        for k in self.n:
            left = [self.left_pad[0]] * min(self.left_pad[1], k - 1)
            right = [self.right_pad[0]] * min(self.right_pad[1], k - 1)
            seq = left + tokens + right
            out += [self.separator.join(seq[i:i + k]) for i in range(len(seq) - k + 1)]
        return np.array(out if out else [""], dtype=np.str_)


class TruncateSequencePair(TensorOperation):
    """Truncate two 1-D arrays so that their total length is at most `max_length`, dropping the last items of
    the longer one first (of the second one on ties).

    Args:
        max_length (int): the largest total length.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset import text
        >>> a, b = text.TruncateSequencePair(4)(np.array([1, 2, 3]), np.array([4, 5, 6, 7]))
        >>> a.tolist(), b.tolist()
        ([1, 2], [4, 5])
    """

    def __init__(self, max_length):
        if isinstance(max_length, bool) or not isinstance(max_length, int):
            raise MSTypeError(f"Argument max_length with value {max_length} is not of type [<class 'int'>], but got "
                              f"{type(max_length)}.")
        if not 0 <= max_length <= 2147483647:
            raise MSValueError("Input max_length is not within the required interval of [0, 2147483647].")
        self.max_length = max_length

    def __call__(self, *inputs):
        if len(inputs) != 2:
            raise runtime_error("TruncateSequencePair", f"expects two input columns, but got {len(inputs)}.")
        first, second = (np.asarray(to_array(x, "TruncateSequencePair")) for x in inputs)
        if first.ndim != 1 or second.ndim != 1:
            raise runtime_error("TruncateSequencePair", "both inputs should be 1-D.")
        n1, n2 = first.shape[0], second.shape[0]
        while n1 + n2 > self.max_length:
            if n1 > n2:
                n1 -= 1
            else:
                n2 -= 1
        return first[:n1].copy(), second[:n2].copy()


# ---------------------------------------------------------------------------------------------------------------
# scripts

_SCRIPT_PREFIXES = {"CJK": "Han", "KANGXI": "Han", "IDEOGRAPHIC": "Han", "HIRAGANA": "Hiragana",
                    "KATAKANA": "Katakana", "HANGUL": "Hangul", "LATIN": "Latin", "CYRILLIC": "Cyrillic",
                    "GREEK": "Greek", "ARABIC": "Arabic", "HEBREW": "Hebrew", "THAI": "Thai",
                    "DEVANAGARI": "Devanagari", "BENGALI": "Bengali", "TAMIL": "Tamil", "TELUGU": "Telugu",
                    "GEORGIAN": "Georgian", "ARMENIAN": "Armenian", "ETHIOPIC": "Ethiopic", "KHMER": "Khmer",
                    "LAO": "Lao", "TIBETAN": "Tibetan", "MONGOLIAN": "Mongolian", "GUJARATI": "Gujarati",
                    "GURMUKHI": "Gurmukhi", "KANNADA": "Kannada", "MALAYALAM": "Malayalam", "SINHALA": "Sinhala",
                    "MYANMAR": "Myanmar", "BOPOMOFO": "Bopomofo", "FULLWIDTH LATIN": "Latin"}


@functools.lru_cache(maxsize=4096)
def char_script(ch):
    """The script of a character: from its Unicode name for letters; 'Common' for digits, punctuation,
    symbols and spaces; 'Inherited' for combining marks."""
    category = unicodedata.category(ch)
    if category.startswith("M"):
        return "Inherited"
    if not category.startswith("L"):
        return "Common"
    name = unicodedata.name(ch, "")
    for prefix in ("FULLWIDTH LATIN",):
        if name.startswith(prefix):
            return "Latin"
    first = name.split(" ", 1)[0]
    return _SCRIPT_PREFIXES.get(first, first.title() if first else "Unknown")


class UnicodeScriptTokenizer(TensorOperation):
    """Split strings where the Unicode script changes (whitespace separates tokens too).

    Args:
        keep_whitespace (bool, optional): keep runs of whitespace as tokens. Default: False.
        with_offsets (bool, optional): also return start/end byte offsets. Default: False.

    Examples:
        >>> from mindspore.dataset import text
        >>> text.UnicodeScriptTokenizer()("Hello 你好 мир123").tolist()
        ['Hello', '你好', 'мир', '123']
    """

    def __init__(self, keep_whitespace=False, with_offsets=False):
        self.keep_whitespace = check_bool(keep_whitespace, "keep_whitespace")
        self.with_offsets = check_bool(with_offsets, "with_offsets")

    def __call__(self, value):
        text = _scalar_string(value, "UnicodeScriptTokenizer")
        spans, start, current = [], 0, None
        for i, ch in enumerate(text):
            kind = "space" if ch.isspace() else char_script(ch)
            if kind == "Inherited" and current not in (None, "space"):
                continue
            if kind != current:
                if current is not None and (current != "space" or self.keep_whitespace):
                    spans.append((start, i))
                start, current = i, kind
        if current is not None and (current != "space" or self.keep_whitespace):
            spans.append((start, len(text)))
        return _with_offsets(text, spans, self.with_offsets)


# ---------------------------------------------------------------------------------------------------------------
# Wikipedia XML

_XML_SPAN = re.compile(r"<.*>")
_ENTITY = re.compile(r"&[^;]*;")
_DIGITS = {"0": " zero ", "1": " one ", "2": " two ", "3": " three ", "4": " four ", "5": " five ", "6": " six ",
           "7": " seven ", "8": " eight ", "9": " nine "}
_NOT_LETTERS = re.compile(r"[^a-z]+")


def filter_wikipedia_xml(text):
    """Clean text of a Wikipedia XML dump line: tags and entities dropped, digits spelled out, lowercase
    letters separated by single spaces."""
    text = _XML_SPAN.sub("", text)
    text = _ENTITY.sub(" ", text)
    text = "".join(_DIGITS.get(ch, ch.lower() if "A" <= ch <= "Z" else ch) for ch in text)
    return _NOT_LETTERS.sub(" ", text).strip()


class FilterWikipediaXML(TensorOperation):
    """Filter Wikipedia XML dump text into lowercase letters and single spaces: the span from the first
    ``<`` to the last ``>`` of a line is removed, ``&...;`` entities become spaces, A-Z are lowercased, digits
    are spelled out ('2' -> 'two') and every other run of characters becomes one space.

    Examples:
        >>> from mindspore.dataset import text
        >>> str(text.FilterWikipediaXML()("Hello World 2023!"))
        'hello world two zero two three'
    """

    def __call__(self, value):
        return _map_strings(value, "FilterWikipediaXML", filter_wikipedia_xml)


# ---------------------------------------------------------------------------------------------------------------
# optional packages

def _require(module, op_name):
    try:
        return __import__(module)
    except ImportError:
        raise RuntimeError(f"{op_name} needs the '{module}' package, which is not installed: "
                           f"pip install {module}") from None


class JiebaTokenizer(TensorOperation):
    """Chinese word segmentation with the ``jieba`` package (``pip install jieba``), using the dictionaries
    MindSpore's JiebaTokenizer takes (``hmm_path`` and ``mp_path`` must exist).

    Args:
        hmm_path (str): the HMM model file (jieba's ``hmm_model.utf8`` / MindSpore's).
        mp_path (str): the dictionary (``jieba.dict.utf8``).
        mode (JiebaMode, optional): MP (dictionary), HMM, or MIX (both). Default: JiebaMode.MIX.
        with_offsets (bool, optional): also return start/end byte offsets. Default: False.

    Raises:
        ValueError: a path does not exist.
        RuntimeError: the ``jieba`` package is not installed.
    """

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        import os
        for name, path in (("hmm_path", hmm_path), ("mp_path", mp_path)):
            check_type(path, str, name)
            if not os.path.isfile(path):
                raise MSValueError(f"The file {path} does not exist or permission denied!")
        self.hmm_path, self.mp_path = hmm_path, mp_path
        self.mode = _check_enum(mode, JiebaMode, "mode")
        self.with_offsets = check_bool(with_offsets, "with_offsets")
        self._words = []
        jieba = _require("jieba", "JiebaTokenizer")
        self._tokenizer = jieba.Tokenizer(dictionary=mp_path)

    def add_word(self, word, freq=None):
        """Add a word to the dictionary."""
        check_type(word, str, "word")
        self._tokenizer.add_word(word, freq)

    def add_dict(self, user_dict):
        """Add words from a dict ``{word: freq}`` or a file of ``word [freq]`` lines."""
        if isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
        else:
            self._tokenizer.load_userdict(user_dict)

    def __call__(self, value):
        text = _scalar_string(value, "JiebaTokenizer")
        hmm = self.mode != JiebaMode.MP
        if self.mode == JiebaMode.HMM:
            words = list(self._tokenizer.cut(text, HMM=True))
        else:
            words = list(self._tokenizer.cut(text, HMM=hmm))
        spans, pos = [], 0
        for word in words:
            spans.append((pos, pos + len(word)))
            pos += len(word)
        return _with_offsets(text, spans, self.with_offsets)


_SP_TYPES = {SentencePieceModel.UNIGRAM: "unigram", SentencePieceModel.BPE: "bpe", SentencePieceModel.CHAR: "char",
             SentencePieceModel.WORD: "word"}


class SentencePieceVocab:
    """A SentencePiece model trained with the ``sentencepiece`` package (``pip install sentencepiece``).

    Examples:
        >>> from mindspore.dataset import text
        >>> vocab = text.SentencePieceVocab.from_file(["/path/to/corpus.txt"], 5000, 0.9995,
        ...                                           text.SentencePieceModel.UNIGRAM, {})
    """

    def __init__(self):
        self._model = None

    @classmethod
    def _train(cls, sentences_file, vocab_size, character_coverage, model_type, params):
        spm = _require("sentencepiece", "SentencePieceVocab")
        import io
        _check_enum(model_type, SentencePieceModel, "model_type")
        buf = io.BytesIO()
        spm.SentencePieceTrainer.train(input=sentences_file, model_writer=buf, vocab_size=vocab_size,
                                       character_coverage=character_coverage, model_type=_SP_TYPES[model_type],
                                       **(params or {}))
        vocab = cls()
        vocab._model = buf.getvalue()
        return vocab

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train on text files (one sentence per line)."""
        if not isinstance(file_path, list) or not all(isinstance(p, str) for p in file_path):
            raise MSTypeError(f"file_path should be a list of str, but got {file_path!r}.")
        return cls._train(",".join(file_path), vocab_size, character_coverage, model_type, params)

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type, params):
        """Train on the string column `col_names[0]` of a dataset."""
        import os
        import tempfile
        column = col_names[0] if isinstance(col_names, list) and col_names else col_names
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "sentences.txt")
            with open(path, "w", encoding="utf-8") as f:
                for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
                    f.write(str(row[column]) + "\n")
            return cls._train(path, vocab_size, character_coverage, model_type, params)

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write the model to ``path/filename``."""
        import os
        check_type(vocab, SentencePieceVocab, "vocab")
        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab._model)


class SentencePieceTokenizer(TensorOperation):
    """Tokenize with a SentencePiece model (a :class:`SentencePieceVocab` or a model file), with the
    ``sentencepiece`` package (``pip install sentencepiece``).

    Args:
        mode (Union[str, SentencePieceVocab]): a model file path or a trained vocab.
        out_type (SPieceTokenizerOutType): STRING (pieces) or INT (ids).

    Raises:
        RuntimeError: the ``sentencepiece`` package is not installed.
    """

    def __init__(self, mode, out_type):
        if not isinstance(mode, (str, SentencePieceVocab)):
            raise MSTypeError(f"mode should be a str or a SentencePieceVocab, but got {type(mode)}.")
        self.mode = mode
        self.out_type = _check_enum(out_type, SPieceTokenizerOutType, "out_type")
        spm = _require("sentencepiece", "SentencePieceTokenizer")
        if isinstance(mode, str):
            self._processor = spm.SentencePieceProcessor(model_file=mode)
        else:
            self._processor = spm.SentencePieceProcessor(model_proto=mode._model)

    def __call__(self, value):
        text = _scalar_string(value, "SentencePieceTokenizer")
        if self.out_type == SPieceTokenizerOutType.INT:
            return np.array(self._processor.encode(text, out_type=int), np.int32)
        return np.array(self._processor.encode(text, out_type=str), np.str_)
