"""What a user expects of a Python command-line tool: metadata, --version, python -m, stdin, config."""
import socket
from importlib import metadata


def test_package_metadata_has_license_classifiers_and_urls():
    meta = metadata.metadata("ygo-timing")
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    classifiers = meta.get_all("Classifier")
    assert "Typing :: Typed" in classifiers and "Framework :: Pytest" in classifiers
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Documentation", "Issues"} <= set(urls)
    host = socket.gethostname()
    assert all(u.startswith("https://") and host not in u and "localhost" not in u for u in urls.values())
