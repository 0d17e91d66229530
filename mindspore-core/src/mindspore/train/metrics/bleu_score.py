"""``BleuScore``: corpus BLEU of tokenised translations against one or more references (MindSpore's metric):
clipped n-gram precisions for n = 1..n_gram, their geometric mean, times the brevity penalty
``exp(1 - r / c)`` when the candidates (total length c) are not longer than the closest references (r).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["BleuScore"]


def _ngrams(tokens, n_gram):
    """Counter of every n-gram (n = 1..n_gram) of ``tokens``, keyed by tuple."""
    counts = Counter()
    for n in range(1, n_gram + 1):
        for j in range(len(tokens) - n + 1):
            counts[tuple(tokens[j:j + n])] += 1
    return counts


class BleuScore(Metric):
    """BLEU score of candidate sentences (lists of tokens) against lists of reference sentences.

    Args:
        n_gram (int): the largest n-gram, 1..4. Default: ``4``.
        smooth (bool): add-one smoothing of the precisions. Default: ``False``.

    Examples:
        >>> from mindspore.train import BleuScore
        >>> candidates = [['i', 'have', 'a', 'pen', 'on', 'my', 'desk']]
        >>> references = [[['i', 'have', 'a', 'pen', 'in', 'my', 'desk'],
        ...                ['there', 'is', 'a', 'pen', 'on', 'the', 'desk']]]
        >>> metric = BleuScore()
        >>> metric.update(candidates, references)
        >>> round(float(metric.eval()), 6)
        0.594604
    """

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        if not isinstance(n_gram, int) or isinstance(n_gram, bool):
            raise TypeError(f"For 'BleuScore', the type of 'n_gram' must be int, but got {type(n_gram).__name__}.")
        if n_gram > 4 or n_gram < 1:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}.")
        if not isinstance(smooth, bool):
            raise TypeError(f"For 'BleuScore', the type of 'smooth' must be bool, but got {type(smooth).__name__}.")
        self.n_gram = n_gram
        self.smooth = smooth
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Accumulate ``(candidate_corpus, reference_corpus)``: a list of token lists, and per candidate a list of
        reference token lists."""
        if len(inputs) != 2:
            raise ValueError(f"For 'BleuScore.update', it needs 2 inputs (candidate_corpus, reference_corpus), but "
                             f"got {len(inputs)}.")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, {len(references)}")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            ref_lens = [len(ref) for ref in refs]
            diffs = [abs(len(candidate) - n) for n in ref_lens]
            self._r += ref_lens[diffs.index(min(diffs))]
            cand_counts = _ngrams(candidate, self.n_gram)
            ref_counts = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, count in (cand_counts & ref_counts).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in cand_counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self):
        """The BLEU score (numpy float; 0.0 when some n-gram order has no match).

        Raises:
            RuntimeError: If ``update`` was not called.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precisions = (self._numerator + 1) / (self._denominator + 1)
        else:
            precisions = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precisions) / self.n_gram))
        brevity = np.array(1.0) if self._c > self._r else np.exp(1 - np.array(self._r) / np.array(self._c))
        return brevity * geometric_mean
