"""File plumbing shared by checkpoints and export: atomic writes, MindSpore's block encryption."""
