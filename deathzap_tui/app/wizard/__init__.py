"""The wizard that walks one resolution step by step, with its odds panel."""
