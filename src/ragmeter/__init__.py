"""ragmeter: run RAG systems on hard benchmarks and measure how trustworthy their answers are."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ragmeter")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
