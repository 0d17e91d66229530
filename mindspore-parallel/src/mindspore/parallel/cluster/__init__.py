"""The ``msrun`` launcher (``mindspore.parallel.cluster.run``): starts a distributed job's workers.

``msrun --worker_num=N --local_worker_num=N train.py`` runs ``train.py`` in N processes on this host
through the MPI launcher (``mpiexec``), with one log per rank in ``--log_dir``; see
:mod:`mindspore.parallel.cluster.run`.
"""
