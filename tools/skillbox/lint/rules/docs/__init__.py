"""Each rule group's documentation (see lint/registry.py): read by `lint explain`, `lint rules`, SARIF and the tests."""
