"""Transformer layers of ``mindspore.nn``: ``MultiheadAttention``, ``TransformerEncoderLayer``,
``TransformerDecoderLayer``, ``TransformerEncoder``, ``TransformerDecoder`` and ``Transformer``, composed from
existing ops and layers (so they differentiate and trace under ``@jit``).

MindSpore 2.10's conventions (its Parameter names load its checkpoints):

* ``MultiheadAttention``: ``in_proj_weight`` (3E, E) XavierUniform (or ``q/k/v_proj_weight`` when ``kdim``/``vdim``
  differ from E), ``in_proj_bias`` zeros, ``out_proj`` a Dense, optional ``bias_k``/``bias_v`` (1, 1, E).
  Inputs are (L, N, E) (or (N, L, E) with ``batch_first``, or unbatched (L, E)). A bool mask marks with
  ``True`` the positions *not* attended; a float mask is added to the scores. It returns
  ``(output, weights)``, or ``(output,)`` with ``need_weights=False``; the weights are averaged over heads
  unless ``average_attn_weights=False``. Dropout on the attention weights applies in training only.
* Encoder/decoder layers: ``self_attn`` (and ``multihead_attn``), ``dense1``/``dense2`` feed-forward,
  ``norm1..3`` LayerNorms, post-norm unless ``norm_first``; ``activation`` is ``'relu'``/``'gelu'``,
  ``nn.ReLU``/``nn.GELU`` or ``ops.relu``/``ops.gelu``.
* ``TransformerEncoder/Decoder`` stack ``num_layers`` fresh copies of the given layer's configuration in
  ``layers`` (a CellList) and apply ``norm`` last; ``Transformer`` re-initialises every parameter of rank > 1
  with XavierUniform.
"""
from __future__ import annotations

import copy
import math

import mindspore.ops as ops
from mindspore._core.primitive import float32_number
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, XavierNormal, XavierUniform, initializer
from mindspore.common.parameter import Parameter
from mindspore.nn.cell import Cell, CellList
from mindspore.nn.layer.activation import GELU, ReLU
from mindspore.nn.layer.basic import Dense, Dropout
from mindspore.nn.layer.normalization import LayerNorm

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]


def _check_mask_dtype(mask, error=MSValueError):
    if mask is not None and mask.dtype != mstype.bool_ and not ops.is_floating_point(mask):
        raise error("only bool and floating types of key_padding_mask are supported")


def _additive(mask, dtype):
    """A bool mask (True = not attended) as 0 / -inf; a float mask as is."""
    if mask.dtype == mstype.bool_:
        return ops.masked_fill(ops.zeros(mask.shape, dtype), mask, float("-inf"))
    return ops.cast(mask, dtype)


class MultiheadAttention(Cell):
    r"""Multi-head attention ``softmax(Q K^T / sqrt(d)) V`` over ``num_heads`` heads, then ``out_proj``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> attn = nn.MultiheadAttention(8, 2)
        >>> q = ms.Tensor(np.ones((5, 3, 8), np.float32))
        >>> out, weights = attn(q, q, q)
        >>> out.shape, weights.shape
        ((5, 3, 8), (3, 5, 5))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise MSValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        if dtype is None:
            dtype = mstype.float32
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype), "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype), "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype), "v_proj_weight")
            self.in_proj_weight = None
        else:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            "in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        self.in_proj_bias = Parameter(initializer("zeros", 3 * embed_dim, dtype), "in_proj_bias") if has_bias else None
        bound = 1 / math.sqrt(embed_dim)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(bound), dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.dtype = dtype
        # without weights to return, masks or dropout, the heads' attention is the fused primitive (the backend's
        # fused attention: cuDNN's on a GPU, for float16/bfloat16)
        # (1 / the float32 sqrt: the composition divides by the Python float math.sqrt(d), which an operator takes as
        # a float32, as in 2.10)
        self._fused_attention = ops.ScaledDotProductAttention(1.0 / float32_number(math.sqrt(self.head_dim)))

    def _project(self, x, index, weight):
        e = self.embed_dim
        if weight is None:
            weight = self.in_proj_weight[index * e:(index + 1) * e]
        out = ops.matmul(x, ops.transpose(ops.cast(weight, x.dtype), (1, 0)))
        if self.in_proj_bias is not None:
            out = out + ops.cast(self.in_proj_bias[index * e:(index + 1) * e], x.dtype)
        return out

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True):
        _check_mask_dtype(key_padding_mask)
        is_batched = query.ndim == 3
        if not is_batched:
            query, key, value = (ops.expand_dims(t, 1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = ops.expand_dims(key_padding_mask, 0)
        elif self.batch_first:
            query, key, value = (ops.swapaxes(t, 0, 1) for t in (query, key, value))
        tgt_len, bsz, e = query.shape
        if e != self.embed_dim:
            raise MSValueError(f"For 'MultiheadAttention', the last dimension of 'query' must be 'embed_dim' "
                               f"{self.embed_dim}, but got {e}.")
        h, d = self.num_heads, self.head_dim
        q = self._project(query, 0, self.q_proj_weight)
        k = self._project(key, 1, self.k_proj_weight)
        v = self._project(value, 2, self.v_proj_weight)
        if attn_mask is not None:
            attn_mask = _additive(attn_mask, q.dtype)
            if attn_mask.ndim == 2:
                attn_mask = ops.expand_dims(attn_mask, 0)
        if key_padding_mask is not None:
            key_padding_mask = _additive(key_padding_mask, q.dtype)
        if self.bias_k is not None:
            k = ops.concat((k, ops.tile(ops.cast(self.bias_k, k.dtype), (1, bsz, 1))), 0)
            v = ops.concat((v, ops.tile(ops.cast(self.bias_v, v.dtype), (1, bsz, 1))), 0)
            if attn_mask is not None:
                attn_mask = ops.pad(attn_mask, (0, 1))
            if key_padding_mask is not None:
                key_padding_mask = ops.pad(key_padding_mask, (0, 1))
        # (L, N, E) -> (N * h, L, d)
        q = ops.swapaxes(ops.reshape(q, (tgt_len, bsz * h, d)), 0, 1)
        k = ops.swapaxes(ops.reshape(k, (k.shape[0], bsz * h, d)), 0, 1)
        v = ops.swapaxes(ops.reshape(v, (v.shape[0], bsz * h, d)), 0, 1)
        if self.add_zero_attn:
            k = ops.concat((k, ops.zeros((bsz * h, 1, d), k.dtype)), 1)
            v = ops.concat((v, ops.zeros((bsz * h, 1, d), v.dtype)), 1)
            if attn_mask is not None:
                attn_mask = ops.pad(attn_mask, (0, 1))
            if key_padding_mask is not None:
                key_padding_mask = ops.pad(key_padding_mask, (0, 1))
        src_len = k.shape[1]
        if not need_weights and attn_mask is None and key_padding_mask is None and \
                not (self.training and self.dropout > 0.0):
            att = self._fused_attention(ops.reshape(q, (bsz, h, tgt_len, d)), ops.reshape(k, (bsz, h, src_len, d)),
                                        ops.reshape(v, (bsz, h, src_len, d)))[0]
            out = ops.reshape(ops.swapaxes(ops.reshape(att, (bsz * h, tgt_len, d)), 0, 1), (tgt_len * bsz, e))
            out = ops.reshape(self.out_proj(out), (tgt_len, bsz, e))
            if not is_batched:
                out = ops.squeeze(out, 1)
            elif self.batch_first:
                out = ops.swapaxes(out, 0, 1)
            return (out,)
        scores = ops.bmm(q / math.sqrt(d), ops.swapaxes(k, 1, 2))  # (N * h, L, S)
        if attn_mask is not None:
            scores = scores + attn_mask
        if key_padding_mask is not None:
            scores = ops.reshape(scores, (bsz, h, tgt_len, src_len))
            scores = scores + ops.reshape(key_padding_mask, (bsz, 1, 1, src_len))
            scores = ops.reshape(scores, (bsz * h, tgt_len, src_len))
        weights = ops.softmax(scores, -1)
        if self.training and self.dropout > 0.0:
            weights = ops.dropout(weights, p=self.dropout)
        out = ops.bmm(weights, v)  # (N * h, L, d)
        out = ops.reshape(ops.swapaxes(out, 0, 1), (tgt_len * bsz, e))
        out = ops.reshape(self.out_proj(out), (tgt_len, bsz, e))
        weights = ops.reshape(weights, (bsz, h, tgt_len, src_len))
        if average_attn_weights:
            weights = ops.mean(weights, 1)
        if not is_batched:
            out = ops.squeeze(out, 1)
            weights = ops.squeeze(weights, 0)
        elif self.batch_first:
            out = ops.swapaxes(out, 0, 1)
        if need_weights:
            return out, weights
        return (out,)


def _activation_fn(activation):
    if not isinstance(activation, str) and not isinstance(activation, Cell) and not callable(activation):
        raise MSValueError(f"The argument 'activation' must be str, callable or Cell instance, but get {activation}.")
    if isinstance(activation, Cell):
        if not isinstance(activation, (ReLU, GELU)):
            raise MSValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, but get "
                               f"{activation}.")
        return activation
    if callable(activation):
        if activation is not ops.relu and activation is not ops.gelu:
            raise MSValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, but get "
                               f"{activation}.")
        return activation
    if activation == "relu":
        return ops.relu
    if activation == "gelu":
        return ops.gelu
    raise MSValueError(f"The activation must be relu/gelu, but get {activation}")


class _LayerBase(Cell):
    def _setup(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
               dtype, norms):
        self.dense1 = Dense(d_model, dim_feedforward, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(d_model)), dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, weight_init=HeUniform(math.sqrt(5)),
                            bias_init=Uniform(1 / math.sqrt(dim_feedforward)), dtype=dtype)
        self.norm_first = norm_first
        for i in range(1, norms + 1):
            setattr(self, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for i in range(1, norms + 1):
            setattr(self, f"dropout{i}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation_fn(activation)
        self.d_model = d_model
        self.nhead = nhead
        self.dim_feedforward = dim_feedforward
        self.dropout_num = dropout
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.dtype = dtype

    def _ff_block(self, x, last_dropout):
        return last_dropout(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_LayerBase):
    """Self-attention and a feed-forward block, each with a residual connection and a LayerNorm.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(ms.Tensor(np.ones((10, 3, 8), np.float32))).shape
        (10, 3, 8)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                    dtype, 2)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_mask_dtype(src_key_padding_mask, AssertionError)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x), self.dropout2)
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x, self.dropout2))
        return x


class TransformerDecoderLayer(_LayerBase):
    """Self-attention, attention over ``memory`` and a feed-forward block, each with a residual connection and a
    LayerNorm.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> memory = ms.Tensor(np.ones((10, 3, 8), np.float32))
        >>> layer(ms.Tensor(np.ones((4, 3, 8), np.float32)), memory).shape
        (4, 3, 8)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self._setup(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                    dtype, 3)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            x = x + self._ff_block(self.norm3(x), self.dropout3)
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
            x = self.norm3(x + self._ff_block(x, self.dropout3))
        return x


def _fresh_copies(layer_cls, layer, num_layers):
    template = layer_cls(layer.d_model, layer.nhead, layer.dim_feedforward, layer.dropout_num, layer.activation1,
                         layer.layernorm_eps, layer.batch_first, layer.norm_first, dtype=layer.dtype)
    return CellList([copy.deepcopy(template) for _ in range(num_layers)])


class TransformerEncoder(Cell):
    """``num_layers`` encoder layers configured as ``encoder_layer`` (fresh parameters), then ``norm``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), num_layers=2)
        >>> enc(ms.Tensor(np.ones((10, 3, 8), np.float32))).shape
        (10, 3, 8)
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _fresh_copies(TransformerEncoderLayer, encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_mask_dtype(src_key_padding_mask, AssertionError)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Cell):
    """``num_layers`` decoder layers configured as ``decoder_layer`` (fresh parameters), then ``norm``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), num_layers=2)
        >>> memory = ms.Tensor(np.ones((10, 3, 8), np.float32))
        >>> dec(ms.Tensor(np.ones((4, 3, 8), np.float32)), memory).shape
        (4, 3, 8)
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _fresh_copies(TransformerDecoderLayer, decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Cell):
    """Encoder-decoder Transformer (``encoder``, ``decoder``, each ending in a LayerNorm).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
        >>> net(ms.Tensor(np.ones((10, 3, 8), np.float32)), ms.Tensor(np.ones((4, 3, 8), np.float32))).shape
        (4, 3, 8)
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        is_batched = src.ndim == 3
        src_batch = src.shape[0] if self.batch_first else src.shape[1]
        tgt_batch = tgt.shape[0] if self.batch_first else tgt.shape[1]
        if src_batch != tgt_batch and is_batched:
            raise MSValueError("The number of batch size for 'src' and 'tgt' must be equal.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise MSValueError("The number of features for 'src' and 'tgt' must be equal to `d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
