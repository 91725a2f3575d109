"""The package version, read by the build (pyproject: tool.hatch.version) and the CLI."""

__version__ = "0.1.0.dev0"
