"""``DimReduce``: dimension-reduced second-order training.

The gradient is projected onto the ``n_components`` principal directions of the weights' trajectory (a PCA
matrix ``P``): ``g_k = P g``. A BFGS approximation ``B`` of the inverse Hessian in that subspace gives the step
``d_k = -B g_k`` (``B`` updated with ``s = rho d_k`` and ``y = g_k - g_{k-1}`` when ``y.s > 1e-20``), taken back
to the full space as ``d_n = P^T d_k``. A backtracking line search tries ``rho = 1, rho_0`` (Armijo condition
``loss(w - rho d_n) < loss + sigma rho g_k.d_k``); the residual of the gradient outside the subspace is kept as
momentum ``m = gamma m + g - P^T g_k``, and the update applied is ``alpha m - rho d_n`` (through the optimizer,
an ``SGD`` of learning rate 1, so it subtracts what it is given).
"""
import math

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["DimReduce"]


class DimReduce(Cell):
    """One dimension-reduced update (see the module docstring).

    Args:
        network (Cell): the network with its loss (called for the line search).
        optimizer (Cell): an optimizer that subtracts what it is given (``SGD`` with learning rate 1).
        weight (tuple[Parameter]): the trained parameters.
        pca_mat_local (numpy.ndarray): the ``(n_components, n_weights)`` PCA matrix.
        n_components (int): the subspace dimension.
        rho (float): the line search's step factor.
        gamma (float): the residual momentum.
        alpha (float): the residual's step.
        sigma (float): the Armijo constant.
        rank (int): this process's rank.
        rank_size (int): the number of processes (the subspace is split between them).

    Inputs:
        ``(loss, old_grad, loss_scale, weight, weight_clone, *inputs)``.
    """

    def __init__(self, network, optimizer, weight, pca_mat_local, n_components, rho, gamma, alpha, sigma, rank,
                 rank_size):
        super().__init__()
        self.network, self.optimizer = network, optimizer
        self.rank, self.rank_size = rank, rank_size
        self.gamma, self.alpha, self.sigma = gamma, alpha, sigma
        self.rho_list = [Tensor(np.power(rho, i), mstype.float32) for i in range(2)] + [Tensor(0, mstype.float32)]
        self.n_components = n_components
        local_dim = math.ceil(n_components / rank_size)
        self.start_index, self.end_index = rank * local_dim, (rank + 1) * local_dim
        pca = np.asarray(pca_mat_local, dtype=np.float32)
        self.pca_list_local = []
        start = 0
        for param in weight:
            size = int(np.prod(param.shape)) if param.shape else 1
            self.pca_list_local.append(Tensor(pca[:, start:start + size]))
            start += size
        self.epsilon = 1e-20
        self.gk_last = Parameter(Tensor(np.zeros([n_components, 1]), mstype.float32), name="gk_last",
                                 requires_grad=False)
        self.gk_last_init = False
        self.bk = Parameter(Tensor(np.eye(n_components), mstype.float32), name="bk", requires_grad=False)
        self.sk = Parameter(Tensor(np.zeros([n_components, 1]), mstype.float32), name="sk", requires_grad=False)
        self.eye = Tensor(np.eye(n_components), mstype.float32)
        self.grad_res_momentum = ParameterTuple(weight).clone(prefix="grad_res_momentum", init="zeros")

    def _project(self, grads):
        parts = [ops.matmul(p, ops.reshape(ops.cast(g, mstype.float32), (-1, 1)))
                 for p, g in zip(self.pca_list_local, grads)]
        return ops.addn(parts)

    def _back(self, vec, like):
        return tuple(ops.reshape(ops.matmul(ops.transpose(p, (1, 0)), vec), g.shape)
                     for p, g in zip(self.pca_list_local, like))

    def _quasi_newton(self, gk):
        if self.gk_last_init:
            yk = gk - self.gk_last
            g = float(ops.squeeze(ops.matmul(ops.transpose(yk, (1, 0)), self.sk)).asnumpy())
            if g > self.epsilon:
                pk = 1.0 / g
                t1 = self.eye - ops.matmul(pk * yk, ops.transpose(self.sk, (1, 0)))
                new_bk = ops.matmul(ops.matmul(ops.transpose(t1, (1, 0)), self.bk), t1) + \
                    ops.matmul(pk * self.sk, ops.transpose(self.sk, (1, 0)))
                ops.assign(self.bk, new_bk)
        self.gk_last_init = True
        ops.assign(self.gk_last, gk)
        return -1 * ops.matmul(self.bk, gk)

    def _try_step(self, gk, dk, dn, old_loss, weight, weight_clone, rho, inputs):
        self.optimizer(tuple(-1 * rho * d for d in dn))
        new_loss = self.network(*inputs)
        expected = old_loss + self.sigma * rho * ops.squeeze(ops.matmul(ops.transpose(gk, (1, 0)), dk))
        found = bool((expected > new_loss).asnumpy())
        if found:
            ops.assign(self.sk, rho * dk)
        for w, c in zip(weight, weight_clone):
            ops.assign(w, c)
        return found

    def construct(self, loss, old_grad, loss_scale, weight, weight_clone, *inputs):
        grads = tuple(ops.cast(g, mstype.float32) / loss_scale for g in old_grad)
        gk = self._project(grads)
        gk_last, bk = self.gk_last.value(), self.bk.value()
        dk = self._quasi_newton(gk)
        dn = self._back(dk, grads)
        grad_proj = self._back(gk, grads)
        rho, found = self.rho_list[-1], False
        for candidate in self.rho_list[:-1]:
            if self._try_step(gk, dk, dn, loss, weight, weight_clone, candidate, inputs):
                rho, found = candidate, True
                break
        if not found:
            ops.assign(self.gk_last, gk_last)
            ops.assign(self.bk, bk)
        deltas = []
        for m, g, gp, d in zip(self.grad_res_momentum, grads, grad_proj, dn):
            new_m = self.gamma * m + g - gp
            ops.assign(m, new_m)
            deltas.append(self.alpha * new_m - rho * d)
        self.optimizer(tuple(deltas))
        for c, w in zip(weight_clone, weight):
            ops.assign(c, w)
        return loss
