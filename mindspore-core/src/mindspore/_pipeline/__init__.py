"""The GRAPH_MODE compile pipeline: the ordered pass list (:mod:`.passes`), the passes, and the
compiler driver (:mod:`.compiler`) that runs parse -> infer -> passes -> schedule once per signature."""
