"""The mindspore.dataset.text transforms added with text_more (BERT tokenizers, regex, normalisation, n-grams,
vectors, ...) compared with real MindSpore 2.10's outputs recorded in ``fixtures/data/text_more.json`` (by
``fixtures/data/make_text_more.py`` from ``fixtures/data/text_more_cases.py``); plus argument checks and the
optional-package errors."""
import builtins
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import text

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "data"
sys.path.insert(0, str(FIXTURES))
import text_more_cases  # noqa: E402  pylint: disable=wrong-import-position

RECORDED = json.loads((FIXTURES / "text_more.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("vectors")
    text_more_cases.write_files(path)
    text.FOLDER = str(path)
    yield path
    del text.FOLDER


@pytest.mark.parametrize("name", sorted(text_more_cases.CASES))
def test_matches_mindspore(name, folder):
    factory, inputs = text_more_cases.CASES[name]
    expected = RECORDED[name]
    if "error" in expected:
        with pytest.raises(getattr(builtins, expected["error"])):
            op = factory(text)
            if inputs is not None:
                op(*inputs)
        return
    op = factory(text)
    if inputs is None:
        return
    result = op(*inputs)
    results = result if isinstance(result, tuple) else (result,)
    assert len(results) == len(expected["outputs"])
    for got, want in zip(results, expected["outputs"]):
        got = np.asarray(got)
        assert list(got.shape) == want["shape"]
        if want["dtype"] in ("U", "S"):
            assert got.dtype.kind == want["dtype"]
            assert got.tolist() == want["values"]
        else:
            assert got.dtype == np.dtype(want["dtype"])
            np.testing.assert_allclose(got, np.array(want["values"], dtype=want["dtype"]), rtol=1e-6)


def test_in_pipeline():
    vocab = text.Vocab.from_list(text_more_cases.VOCAB)
    data = ds.NumpySlicesDataset(["Hello, books", "running world"], column_names=["text"], shuffle=False)
    data = data.map(text.BertTokenizer(vocab, lower_case=True, with_offsets=True), input_columns=["text"],
                    output_columns=["token", "start", "end"])
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert rows[0]["token"].tolist() == ["hello", ",", "book", "##s"]
    assert rows[0]["start"].tolist() == [0, 5, 7, 11] and rows[0]["end"].tolist() == [5, 6, 11, 12]
    assert rows[1]["token"].tolist() == ["run", "##ning", "world"]
    data = ds.NumpySlicesDataset({"a": [[1, 2, 3]], "b": [[4, 5, 6, 7]]}, shuffle=False)
    data = data.map(text.TruncateSequencePair(4), input_columns=["a", "b"])
    row = next(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert row["a"].tolist() == [1, 2] and row["b"].tolist() == [4, 5]


def test_argument_errors():
    with pytest.raises(TypeError):
        text.NormalizeUTF8("NFC")
    with pytest.raises(TypeError):
        text.Ngram("2")
    with pytest.raises(ValueError):
        text.Ngram([0])
    with pytest.raises(ValueError):
        text.Ngram(2, left_pad=("x", -1))
    with pytest.raises(TypeError):
        text.WordpieceTokenizer(["not", "a", "vocab"])
    with pytest.raises(ValueError):
        text.TruncateSequencePair(-1)
    with pytest.raises(ValueError):
        text.RegexReplace("(", "x")
    with pytest.raises(TypeError):
        text.ToVectors("vectors")
    with pytest.raises(RuntimeError):
        text.CaseFold()(np.array([1, 2]))


def test_enums_match_mindspore():
    assert [(m.name, m.value) for m in text.NormalizeForm] == [("NONE", 0), ("NFC", 1), ("NFKC", 2), ("NFD", 3),
                                                                ("NFKD", 4)]
    assert [(m.name, m.value) for m in text.JiebaMode] == [("MIX", 0), ("MP", 1), ("HMM", 2)]
    assert [(m.name, m.value) for m in text.SentencePieceModel] == [("UNIGRAM", 0), ("BPE", 1), ("CHAR", 2),
                                                                     ("WORD", 3)]
    assert [m.name for m in text.SPieceTokenizerOutType] == ["STRING", "INT"]
    assert [m.name for m in text.SPieceTokenizerLoadType] == ["FILE", "MODEL"]


def _missing(module):
    try:
        __import__(module)
    except ImportError:
        return True
    return False


@pytest.mark.skipif(not _missing("sentencepiece"), reason="sentencepiece is installed")
def test_sentencepiece_needs_package(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\n")
    with pytest.raises(RuntimeError, match="pip install sentencepiece"):
        text.SentencePieceVocab.from_file([str(corpus)], 10, 0.9995, text.SentencePieceModel.UNIGRAM, {})
    with pytest.raises(RuntimeError, match="pip install sentencepiece"):
        text.SentencePieceTokenizer(str(corpus), text.SPieceTokenizerOutType.STRING)


@pytest.mark.skipif(not _missing("jieba"), reason="jieba is installed")
def test_jieba_needs_package(tmp_path):
    hmm, mp = tmp_path / "hmm.utf8", tmp_path / "mp.utf8"
    hmm.write_text("x")
    mp.write_text("x")
    with pytest.raises(RuntimeError, match="pip install jieba"):
        text.JiebaTokenizer(str(hmm), str(mp))
    with pytest.raises(ValueError, match="does not exist"):
        text.JiebaTokenizer(str(tmp_path / "nope"), str(mp))
